// The callee's assertion does not hold for every argument (modular checking would report
// it), but it holds for every argument main passes: whole-program checking finds no bug.
// RUN: /recursionBound:1 => no bugs
procedure check(x: int)
{
  assert x < 10;
}
procedure main()
{
  call check(5);
  call check(9);
}
