// Inside a quantifier the body ends at the second relation, so `)` is expected there; going
// on as if it had been, the parser wants the axiom's `;` at the quantifier's own `)`.
axiom (forall i: int :: i <: j == k);
