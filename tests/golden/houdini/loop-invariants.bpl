// OPTIONS: /contractInfer /printAssignment
// Candidate loop invariants: those that hold on entry and are maintained stay; one false on
// entry and one not maintained go. The loop's real assertion after it needs the survivors.
const {:existential true} nonNegative: bool;
const {:existential true} bounded: bool;
const {:existential true} sumTracks: bool;
const {:existential true} wrongStart: bool;
const {:existential true} notMaintained: bool;

procedure count(n: int) returns (s: int)
  requires n >= 0;
{
  var i: int;
  i := 0;
  s := 0;
  while (i < n)
    invariant nonNegative ==> i >= 0;
    invariant bounded ==> i <= n;
    invariant sumTracks ==> s == 2 * i;
    invariant wrongStart ==> i == 1;
    invariant notMaintained ==> i < 1;
  {
    i := i + 1;
    s := s + 2;
  }
  assert s == 2 * n;
}
