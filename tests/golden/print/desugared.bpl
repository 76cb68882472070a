// OPTIONS: /print:- /env:0 /printDesugared
// /printDesugared prints the program a second time once it type-checks, as Boogie's type
// checker left it: `==` between booleans reads `<==>`, `!=` between booleans reads `<==> !`,
// and `x + (y + z)` loses its parentheses on int and real (where regrouping cannot change
// the value). Both procedures verify, so the run ends with 2 verified.
procedure Flags(a: bool, b: bool) returns (c: bool)
  ensures c == (a != b);
{
  c := (a || b) && !(a && b);
}

procedure Sums(x: int, y: int, z: int, p: real, q: real) returns (s: int, t: real)
  ensures s == x + (y + z) && t == p * (q * 2.0);
{
  s := (x + y) + z;
  t := (p * q) * 2.0;
}
