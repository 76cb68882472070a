// OPTIONS: %s
// Verdicts after monomorphization: polymorphic functions and their axioms are instantiated at
// the types used, a polymorphic map keeps one map per instantiation, and what is not proved
// for every instance is still an error.
type Field _;
const F0: Field int;
const F1: Field bool;

function Size<T>(x: T): int;
axiom (forall<T> x: T :: Size(x) >= 0);

function Id<T>(x: T): T { x }

procedure Functions(b: bool)
{
  assert Size(3) >= 0;
  assert Size(b) >= 0;
  assert Id(5) == 5 && Id(b) == b;
  assert Size(b) > 0;  // error: only >= 0 is known
}

var H: <a>[Field a]a;

procedure Maps()
  modifies H;
  ensures (forall<a> f: Field a :: f != F0 ==> H[f] == old(H)[f]);
{
  H[F0] := 3;
  H[F1] := true;
  assert H[F0] == 3 && H[F1];
  assert H == H[F0 := 3];
  H[F0] := H[F0] + 1;
  assert H[F0] == 3;  // error: it is 4
}

procedure Equality(m: <a>[Field a]a, n: <a>[Field a]a)
  requires (forall<a> f: Field a :: m[f] == n[f]);
{
  assert m == n;
}

procedure Broken()
  modifies H;
  ensures H == old(H);  // error: F1 changes
{
  H[F1] := !H[F1];
}
