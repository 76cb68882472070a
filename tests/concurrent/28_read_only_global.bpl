// A global no one writes is not copied per round: every thread reads its initial value,
// which an `assume` fixes at the start.
// RUN: /k:2 => no bugs
// RUN: /k:3 => no bugs
var limit: int;
var x: int;

procedure child()
{
  assert limit == 10;
  x := limit;
}

procedure main()
{
  assume limit == 10;
  async call child();
  assert limit == 10;
}
