// A checksum loop reads only the buffer Buf, which the property does not need: with Buf
// abstracted the loop touches no tracked field and no shared state, so the abstraction
// summarizes it (a havoc of i, s and Buf's local) instead of unrolling it. The program
// verifies with {Done} tracked. Without abstraction, Corral's recursion bound of 1 cuts the
// loop and nothing after it is reached: no bugs as well.
// RUN: /main:Main => no bugs tracking Done
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
  Done[0] := true;
  assert Done[0];
}
