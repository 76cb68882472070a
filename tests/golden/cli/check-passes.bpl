// OPTIONS: /noVerify --check-passes
// --check-passes prints the program after each pass that changed it, parses that text back
// and checks it again. Here lambda lifting (the lambda becomes a function and an axiom) and
// monomorphization (Id at int and at bool) change the program; both outputs survive, so the
// run ends with the usual trailer and no internal error.
function Id<T>(x: T): T;
axiom (forall<T> x: T :: Id(x) == x);

procedure P() returns (m: [int]int)
  ensures m[3] == 4;
{
  m := (lambda i: int :: Id(i) + 1);
  assert Id(true);
}
