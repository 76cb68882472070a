// OPTIONS: /contractInfer /printAssignment /main:Main /k:2
// A concurrent program in bounded mode: Houdini runs on the sequentialized program, where a
// context switch can refute a candidate that holds when each thread runs alone.
// By hand: two Workers each call Incr, which reads x and writes it back plus one. With /k:2
// a Worker can switch away between taking old(x) at Incr's entry and reading x (or between
// writing x and the ensures), and the other Worker increments x meanwhile: x == old(x) + 1
// fails, so `exact` goes. (With /k:1 each thread runs without a switch and `exact` holds:
// see concurrent-one-round.bpl.) `grows ==> x >= 1` holds in every interleaving: x starts at
// 0 and every write is a value read plus one. Main's `assert x >= 0` holds too: under
// exact = False, grows = True, "Program has no bugs".
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
