// OPTIONS: /printModel:1
// `/printModel:1` prints the counterexample's model after each error's trace, as Boogie does.
// Worked out by hand: from x > 3, y := x + 1 and z := y * 2 the assertion z < 10 fails for
// x = 4 (then y = 5, z = 10) and any larger x; the model names the values of the entry
// constants (x) and of the incarnations (y@0, z@0) and the initial state lists the formals and
// locals (y and z have no value at the entry: they print empty).
procedure P(x: int)
  requires x > 3;
{
  var y: int;
  var z: int;
  y := x + 1;
  z := y * 2;
  assert z < 10;
}
