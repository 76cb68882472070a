// Main waits for the child's `finished` flag before reading the child's result: the child
// wrote it before raising the flag, so main reads 7.
// RUN: /k:2 => no bugs
// RUN: /k:3 => no bugs
var result: int;
var finished: bool;

procedure child()
{
  result := 7;
  finished := true;
}

procedure main()
{
  result := 0;
  finished := false;
  async call child();
  assume finished;
  assert result == 7;
}
