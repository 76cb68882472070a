// OPTIONS: /timeLimit:30 /loopUnroll:2
// A loop measure under /loopUnroll is refused (inconclusive), not dropped: unrolled, the loop
// has no head left to check its measure at, and this measure does not decrease.
procedure Up()
{
  var n: int;
  n := 0;
  while (n < 10)
    measure n;
  {
    n := n + 2;
  }
}
