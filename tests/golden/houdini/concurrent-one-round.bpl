// OPTIONS: /contractInfer /printAssignment /main:Main /k:1
// concurrent-context-switch.bpl with one round per thread (/k:1): no context switch, so
// each Incr runs atomically and both `exact` and `grows` hold; "Program has no bugs".
const {:existential true} exact: bool;
const {:existential true} grows: bool;
var x: int;

procedure Incr()
  modifies x;
  ensures exact ==> x == old(x) + 1;
  ensures grows ==> x >= 1;
{
  var t: int;
  t := x;
  x := t + 1;
}

procedure Worker()
  modifies x;
{
  call Incr();
}

procedure Main()
  modifies x;
{
  x := 0;
  async call Worker();
  async call Worker();
  assert x >= 0;
}
