// f(n) recurses n times: f(3) calls f 4 times in all (f(3), f(2), f(1), f(0)), so the
// path to the assertion exists only when f may be inlined 4 deep. x = 3 there, so the
// assertion fails at bound 4 and every bound above; below, the cut hides the path.
// RUN: /recursionBound:3 => no bugs within the bound
// RUN: /recursionBound:4 => bug at 15,3
// RUN: /recursionBound:6 => bug at 15,3
procedure f(n: int) returns (r: int)
{
  if (n == 0) { r := 0; } else { call r := f(n - 1); r := r + 1; }
}
procedure main()
{
  var x: int;
  call x := f(3);
  assert x != 3; // @BUG
}
