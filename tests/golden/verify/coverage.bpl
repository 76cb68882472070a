// OPTIONS: /trackVerificationCoverage --format json
// /trackVerificationCoverage: each verdict lists what its proof used, by `{:id}`, in Boogie's
// words and order (`proof_dependencies`). Worked out by hand, one proof each:
// - Bounds: `lo` (requires) and the assignment `inc` give `k > 0`, which proves `pos`; the
//   requires `hi_unused` and the assignment `unused_copy` play no part. The ensures `post`
//   (k > 0) is a goal the proof proves, so it is listed too (an assertion's or ensures' label
//   means "proved here").
// - Loop: `inv` is proved on entry (0 <= n, from `nonneg`) and after an iteration, and
//   assumed in the body; after the loop it proves `done_bound` with the loop's exit guard
//   (which has no id): invariant inv established, maintained, assumed in body.
// - Caller: the call `c1`'s precondition `pre` is proved (`requires clause pre proved for
//   call c1`) and its postcondition `res_big` assumed after it, which proves `after_call`.
// - UsesAxiom: the axiom `seven` proves `is_seven`; the axiom `unused_axiom` is not used.
// - Contradiction: `a1` and `a2` contradict each other: the proof uses only them, not the
//   assertion `never_needed` after them.
const N: int;
axiom {:id "seven"} N == 7;
axiom {:id "unused_axiom"} N > -100 || N < 100;

procedure Bounds(x: int) returns (k: int)
  requires {:id "lo"} x >= 0;
  requires {:id "hi_unused"} x < 1000;
  ensures {:id "post"} k > 0;
{
  var t: int;
  k := {:id "inc"} x + 1;
  t := {:id "unused_copy"} x;
  assert {:id "pos"} k > 0;
}

procedure Loop(n: int)
  requires {:id "nonneg"} n >= 0;
{
  var i: int;
  i := 0;
  while (i < n)
    invariant {:id "inv"} i <= n;
  {
    i := i + 1;
  }
  assert {:id "done_bound"} i == n;
}

procedure Callee(a: int) returns (r: int);
  requires {:id "pre"} a > 0;
  ensures {:id "res_big"} r > a;

procedure Caller() returns (r: int)
{
  call {:id "c1"} r := Callee(5);
  assert {:id "after_call"} r > 5;
}

procedure UsesAxiom()
{
  assert {:id "is_seven"} N == 7;
}

procedure Contradiction(y: int)
{
  assume {:id "a1"} y > 0;
  assume {:id "a2"} y < 0;
  assert {:id "never_needed"} y == 3;
}
