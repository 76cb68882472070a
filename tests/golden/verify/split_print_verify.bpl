// OPTIONS: /printSplit:-
// `{:split_here}` divides `Count` into the part before the first split and one part after
// each split; `/printSplit:-` prints each part's passive program as Boogie does. Worked out by
// hand: `n` starts at 0 and is 1 after the first step (n#AT#0), 3 after the second (n#AT#1):
// every assertion holds, so both parts (Count-0/untilFirstSplit and Count-1/afterSplit@12)
// verify and the procedure counts as one verified implementation. `Plain` has no split: it is
// printed as one part numbered -1 (Boogie's `SplitIndex` when there is one VC).
procedure Count() returns (n: int)
  ensures n == 3;
{
  n := 0;
  assert n == 0;
  n := n + 1;
  assert {:split_here} n == 1;
  n := n + 2;
  assert n > 2;
}

procedure Plain(x: int) returns (y: int)
  requires x > 0;
  ensures y > x;
{
  if (x > 10) {
    y := x + 1;
  } else {
    y := x + 2;
  }
}
