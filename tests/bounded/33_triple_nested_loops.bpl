// Three nested loops of 3, 2 and 2 iterations: c = 12. The outermost needs bound 4 to
// leave after 3 iterations; the inner ones need 3. Bound 3 cannot leave the outer loop after
// its third iteration, so only bound 4 finds c = 12.
// RUN: /recursionBound:3 => no bugs within the bound
// RUN: /recursionBound:4 => bug at 19,3
procedure main()
{
  var i, j, k, c: int;
  i := 0; c := 0;
  while (i < 3) {
    j := 0;
    while (j < 2) {
      k := 0;
      while (k < 2) { k := k + 1; c := c + 1; }
      j := j + 1;
    }
    i := i + 1;
  }
  assert c != 12; // @BUG
}
