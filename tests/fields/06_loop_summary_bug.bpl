// As 05 but Done[0] is never set: the assertion at line 23 fails once the loop is passed.
// With the recursion bound 1 the loop (three iterations) is cut: no path reaches the
// assertion, so without abstraction there are no bugs. The abstraction's summary does reach
// it: the replay is feasible, but through a summary, so refinement turns summaries off and
// then agrees (no bugs). With /recursionBound:4 the loop runs to its end: a real bug.
// RUN: /main:Main => no bugs tracking Done
// RUN: /main:Main /recursionBound:4 => bug at 23,3 tracking Done
var Buf: [int]int;
var Done: [int]bool;

procedure Main()
  modifies Done;
{
  var i: int;
  var s: int;
  Done[0] := false;
  i := 0;
  s := 0;
  while (i < 3) {
    s := s + Buf[i];
    i := i + 1;
  }
  assert Done[0];
}
