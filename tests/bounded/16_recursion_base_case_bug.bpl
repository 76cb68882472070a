// The bug is in f's base case, reached by f(0) directly from main: bound 1 finds it.
// RUN: /recursionBound:1 => bug at 5,25
procedure f(n: int) returns (r: int)
{
  if (n <= 0) { r := 0; assert n < 0; } else { call r := f(n - 1); } // @BUG
}
procedure main()
{
  var x: int;
  call x := f(0);
}
