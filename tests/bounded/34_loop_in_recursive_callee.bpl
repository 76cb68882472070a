// `walk` loops twice over its argument and recurses once on n - 1: walk(1) adds 2 and
// calls walk(0), which adds 2 more: t = 4. Each call's loop counts afresh; the loop needs
// bound 3 and the recursion walk(1) -> walk(0) needs bound 2.
// RUN: /recursionBound:2 => no bugs within the bound
// RUN: /recursionBound:3 => bug at 20,3
var t: int;
procedure walk(n: int)
  modifies t;
{
  var i: int;
  i := 0;
  while (i < 2) { i := i + 1; t := t + 1; }
  if (n > 0) { call walk(n - 1); }
}
procedure main()
  modifies t;
{
  t := 0;
  call walk(1);
  assert t != 4; // @BUG
}
