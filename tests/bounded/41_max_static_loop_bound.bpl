// A loop whose guard constants decide: i runs 0..10, so it iterates exactly 10 times and the
// assertion i != 10 after it fails. With the default bound 1 the loop body runs once and no
// path leaves the loop (i is 1 at the cut), so nothing after it is checked: no bugs within
// the bound. /maxStaticLoopBound:20 finds that the loop runs at most 10 iterations (11
// entries of its head) and unrolls it that far: the bug. /maxStaticLoopBound:5 is too small
// to bound it: the recursion bound applies again.
// RUN: /recursionBound:1 => no bugs within the bound
// RUN: /recursionBound:1 /maxStaticLoopBound:20 => bug at 18,3
// RUN: /recursionBound:1 /maxStaticLoopBound:5 => no bugs within the bound
procedure main() {
  var i, sum: int;
  i := 0;
  sum := 0;
  while (i < 10) {
    sum := sum + i;
    i := i + 1;
  }
  assert i != 10; // @BUG
}
