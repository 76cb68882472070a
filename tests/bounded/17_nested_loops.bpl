// The outer loop runs twice and the inner loop twice per outer iteration, so c = 4 after
// both. Each loop is bounded on its own (the inner one afresh in every outer iteration, as
// Corral's extracted loop procedures are): leaving each loop after 2 iterations needs bound 3.
// RUN: /recursionBound:2 => no bugs within the bound
// RUN: /recursionBound:3 => bug at 15,3
procedure main()
{
  var i, j, c: int;
  i := 0; c := 0;
  while (i < 2) {
    j := 0;
    while (j < 2) { j := j + 1; c := c + 1; }
    i := i + 1;
  }
  assert c != 4; // @BUG
}
