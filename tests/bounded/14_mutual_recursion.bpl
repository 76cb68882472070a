// even(3) -> odd(2) -> even(1) -> odd(0): each of even and odd is on the stack twice, so
// bound 2 reaches odd(0) and the wrong claim that 3 is even fails; bound 1 cuts even(1).
// RUN: /recursionBound:1 => no bugs within the bound
// RUN: /recursionBound:2 => bug at 17,3
procedure even(n: int) returns (r: bool)
{
  if (n == 0) { r := true; } else { call r := odd(n - 1); }
}
procedure odd(n: int) returns (r: bool)
{
  if (n == 0) { r := false; } else { call r := even(n - 1); }
}
procedure main()
{
  var b: bool;
  call b := even(3);
  assert b; // @BUG
}
