// OPTIONS: /typeEncoding:a
// Under /typeEncoding:a a quantifier without triggers gets the patterns Boogie's arguments
// encoding would give it. That encoding puts no typing facts in the VC, so the type premise
// `$typeof(y) == ...` rboogie adds (for soundness) must not be a pattern: where a bound
// variable appears only under `==`, z3 has nothing to instantiate it with, and what depends
// on that instantiation is not proved, as with Boogie. What a real pattern serves still is,
// and nothing false becomes provable.
type Key;
function member<a>(x: a): bool;
function rank<a>(x: a): int;
function seen(k: Key): bool;

// y occurs only under `==`: no pattern in Boogie's encoding.
axiom (forall<a> x: a :: member(x) <==> (exists y: a :: x == y));
// rank(x) is a pattern in both encodings.
axiom (forall<a> x: a :: rank(x) >= 0);
// seen(k) is the pattern; the premise $typeof(k) == Key is not.
axiom (forall k: Key :: seen(k));

procedure Patterns(k: Key)
{
  assert rank(5) >= 0;
  assert rank(k) + rank(true) >= 0;
  assert seen(k);
  assert member(k);               // error: needs y := k, which no pattern offers
}

procedure Sound(k: Key)
{
  assert rank(k) >= 1;            // error
  assert (exists j: Key :: seen(j) && j != k);   // error
}
