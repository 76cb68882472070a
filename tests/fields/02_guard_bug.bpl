// As 01, but the guard is set: the branch is taken and Count[0] becomes 5, so the assertion
// at line 23 fails. The first abstract counterexample (Enabled abstracted) takes the branch;
// replayed with Enabled concrete it is feasible: a real bug, reported with the replayed
// trace. Enabled is never added to the tracked set (the replay, not the abstraction, made it
// concrete).
// RUN: => 0 verified, 1 error tracking Count
// RUN: /main:Main => bug at 23,3 tracking Count
var Enabled: [int]bool;
var Count: [int]int;
var Noise1: [int]int;
var Noise2: [int]int;

procedure Main()
  modifies Enabled, Count, Noise1, Noise2;
{
  Enabled[0] := true;
  Count[0] := 0;
  Noise1[3] := Noise2[4] + 1;
  if (Enabled[0]) {
    Count[0] := 5;
  }
  Noise2[1] := Noise1[3];
  assert Count[0] == 0;
}
