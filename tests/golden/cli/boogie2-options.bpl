// OPTIONS: --solver=z3 /nologo /noinfer /doModSetAnalysis /useArrayTheory /timeLimit:10 /errorLimit:10 /proverOpt:O:smt.array.extensional=false /loopUnroll:2 %s
// SMACK's command line for Boogie: Boogie 2 options that rboogie takes with their meaning
// today. /doModSetAnalysis is /inferModifies: Main verifies without a modifies clause.
// (The pipe solver: in-process Z3 keeps smt.* options as global parameters, which would leak
// into the other cases of this test process.)
var g: int;
var m: [int]int;

procedure Main()
{
  var i: int;
  g := 1;
  m[g] := 2;
  i := 0;
  while (i < 1) { i := i + 1; }
  assert m[1] == 2;
}
