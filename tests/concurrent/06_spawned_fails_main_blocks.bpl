// The spawned thread fails at once; main then blocks for good (`assume false`). The failure
// happened before, so it is a bug; main's blocking must not hide it. One round suffices.
// RUN: /k:1 => bug at 8,3 needing /k:1
// RUN: /k:2 => bug at 8,3 needing /k:1

procedure child()
{
  assert false;
}

procedure main()
{
  async call child();
  assume false;
}
