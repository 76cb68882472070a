// OPTIONS: /timeLimit:30 /loopUnroll:3
// Traces through an unrolled loop name Boogie's copies of the blocks, `label#level`, outermost
// level first. An error that needs more iterations than the bound is not found: the path is
// cut (`assume false`) at level 0.

procedure ThirdIteration(a: [int]int, n: int)
  requires a[0] == 0 && a[1] == 0;
{
  var i: int;
  i := 0;
  while (i < n)
  {
    assert a[i] == 0;  // fails in the third iteration
    i := i + 1;
  }
}

procedure FourthIteration(a: [int]int, n: int)
  requires a[0] == 0 && a[1] == 0 && a[2] == 0;
{
  var i: int;
  i := 0;
  while (i < n)
  {
    assert a[i] == 0;  // would fail in the fourth: beyond the bound
    i := i + 1;
  }
}

procedure GotoLoop(n: int)
{
  var x: int;
  Start:
    x := 0;
    goto Head;
  Head:
    goto Body, Done;
  Body:
    assume x < n;
    x := x + 1;
    goto Head;
  Done:
    assume x >= n;
    assert x <= 1;  // fails after two iterations
    return;
}
