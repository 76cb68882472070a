// The loop's trip count depends on n, an unknown input: /maxStaticLoopBound cannot bound it,
// and the recursion bound applies (bound 3: two complete iterations). The assertion fails
// with n = 2 (two iterations, i = 2), which bound 3 reaches; at bound 2 only i <= 1 leaves
// the loop, and i == 2 is never seen.
// RUN: /recursionBound:3 /maxStaticLoopBound:50 => bug at 13,3
// RUN: /recursionBound:2 /maxStaticLoopBound:50 => no bugs within the bound
procedure main(n: int) {
  var i: int;
  i := 0;
  while (i < n) {
    i := i + 1;
  }
  assert i != 2; // @BUG
}
