// Main spawns a worker in each iteration of a loop of two iterations (the exit after the
// second needs recursion bound 3). Each worker adds one atomically; main waits for both.
// count = 2 then, and the assertion (that it is not) fails once both iterations fit, with
// any context bound (the workers need not interleave).
// RUN: /k:2 /recursionBound:2 => no bugs within the bound
// RUN: /k:2 /recursionBound:3 => bug at 33,3 needing /k:1
// RUN: /recursionBound:3 /k:3 => bug at 33,3 needing /k:1
// RUN: /recursionBound:3 /k:1 => bug at 33,3 needing /k:1
var count: int;
var done: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure worker()
{
  call corral_atomic_begin();
  count := count + 1;
  done := done + 1;
  call corral_atomic_end();
}

procedure main()
{
  var i: int;
  count := 0;
  done := 0;
  i := 0;
  while (i < 2) {
    async call worker();
    i := i + 1;
  }
  assume done == 2;
  assert count != 2;
}
