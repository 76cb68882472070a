// 23 with the producer raising `ready` before it writes the data: the consumer (spawned
// first, so it must move to a later round to see `ready`) may read 0.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 18,3 needing /k:2
// RUN: /k:3 => bug at 18,3 needing /k:2
var data: int;
var ready: bool;

procedure producer()
{
  ready := true;
  data := 42;
}

procedure consumer()
{
  assume ready;
  assert data == 42;
}

procedure main()
{
  data := 0;
  ready := false;
  async call consumer();
  async call producer();
}
