// OPTIONS: /main:main /k:2 --check-passes
// A concurrent program in bounded mode is sequentialized with /k rounds per thread. The
// worker runs where it is spawned (in main's round 0) unless it switches to round 1; main
// then finds g = 1. The trace gives each step's thread and round, `(tid,k)`.
var g: int;
procedure worker() modifies g; { g := 1; }
procedure main()
  modifies g;
{
  g := 0;
  async call worker();
  assert g == 0;
}
