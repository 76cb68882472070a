// OPTIONS: /timeLimit:30 /loopUnroll:5
// When every path into a loop is still in it at the bound, the code after the loop is never
// reached and its checks hold vacuously: rboogie warns at the loop (Boogie does not). No
// warning when the bound depends on an input, or when the unrolling is deep enough.

procedure ConstantBound()
{
  var i: int;
  i := 0;
  while (i < 10000)
  {
    i := i + 1;
  }
  assert i == 10000;
  assert false;  // not reported: never reached
}

procedure InputBound(n: int)
{
  var i: int;
  i := 0;
  while (i < n)
  {
    i := i + 1;
  }
  assert false;  // reported: n <= 5 reaches it
}

procedure DeepEnough()
{
  var i: int;
  i := 0;
  while (i < 3)
  {
    i := i + 1;
  }
  assert i == 3;
}

procedure HavockedBound()
{
  var i, k: int;
  i := 0;
  k := 10000;
  havoc k;
  while (i < k)
  {
    i := i + 1;
  }
}

// Inlined twice: one warning, at the loop. The inlined procedure itself is not verified.
procedure {:inline 1} Spin()
{
  var i: int;
  i := 0;
  while (i < 100)
  {
    i := i + 1;
  }
}

procedure CallsSpinTwice()
{
  call Spin();
  call Spin();
}
