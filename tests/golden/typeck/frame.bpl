// Assignments to immutable variables and to globals missing from the modifies clause.
var g: int;
var h: int;
const c: int;
procedure Callee();
  modifies g, h;
procedure P(x: int) returns (y: int)
  modifies g, c;
{
  g := 1;
  h := 2;
  x := 3;
  y := 4;
  havoc h, x;
  call Callee();
}
procedure Q() { var z: int; call z := Out(); }
procedure Out() returns (r: int);
