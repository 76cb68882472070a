// The property mentions Count only. Abstracting Enabled (a field the property does not
// mention) lets the branch that sets Count[0] := 5 be taken: the first abstract
// counterexample is spurious. Replayed with Enabled concrete it is infeasible (Enabled[0] is
// false when the branch is reached), so refinement adds Enabled, and the program with
// {Count, Enabled} tracked verifies. Noise1 and Noise2 never reach a check: never tracked.
// Without abstraction the program verifies too (Enabled[0] is false).
// RUN: => 1 verified, 0 errors tracking Enabled, Count
// RUN: /main:Main => no bugs tracking Enabled, Count
var Enabled: [int]bool;
var Count: [int]int;
var Noise1: [int]int;
var Noise2: [int]int;

procedure Main()
  modifies Enabled, Count, Noise1, Noise2;
{
  Enabled[0] := false;
  Count[0] := 0;
  Noise1[3] := Noise2[4] + 1;
  if (Enabled[0]) {
    Count[0] := 5;
  }
  Noise2[1] := Noise1[3];
  assert Count[0] == 0;
}
