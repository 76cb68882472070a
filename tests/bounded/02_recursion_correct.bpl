// The same recursion with a true assertion: f(3) = 3. No bound finds a bug; since f is
// recursive the bound always cuts something, so the answer is always within the bound.
// RUN: /recursionBound:1 => no bugs within the bound
// RUN: /recursionBound:4 => no bugs within the bound
// RUN: /recursionBound:7 => no bugs within the bound
procedure f(n: int) returns (r: int)
{
  if (n == 0) { r := 0; } else { call r := f(n - 1); r := r + 1; }
}
procedure main()
{
  var x: int;
  call x := f(3);
  assert x == 3;
}
