// OPTIONS: /timeLimit:30
// `**` on reals is Boogie's `real_pow`, a function nothing defines: what the axioms say of it
// holds, nothing else does (not even that a square is non-negative).
// By hand: P follows from the axiom; Q does not (r could be -2.0, or anything: real_pow is
// uninterpreted); R does not either. So 1 verified, 2 errors.
const r: real;
const s: real;
axiom r ** 2.0 == 4.0;

procedure P() { assert r ** 2.0 == 4.0; }

procedure Q() { assert r == 2.0; }

procedure R() { assert s ** 2.0 >= 0.0; }
