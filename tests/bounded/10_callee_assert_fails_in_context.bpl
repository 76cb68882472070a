// The callee asserts its argument is below 10; the second call passes 12, so the
// callee's assertion fails (reported in the callee).
// RUN: /recursionBound:1 => bug at 6,3
procedure check(x: int)
{
  assert x < 10; // @BUG
}
procedure main()
{
  call check(5);
  call check(12);
}
