// No /main: the entry point is the procedure marked {:entrypoint}. `start` divides by a
// value that reaches 0, which its assertion catches.
// RUN: /bounded => bug at 9,3
procedure {:entrypoint} start()
{
  var d: int;
  d := 2;
  d := d - 2;
  assert d != 0; // @BUG
}
procedure other() { assert false; }
