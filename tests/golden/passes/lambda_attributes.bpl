// OPTIONS: /noVerify --print-after lambda
// Lambdas that differ only in bound names share one function (Same: lambda#0 twice). An
// attribute on a quantifier inside a lambda makes it a function of its own, as in Boogie,
// whose alpha-equality never finds two attributes equal (Attributed: lambda#2 and lambda#3).
function g(int): int;

procedure Same()
{
  assert (lambda x: int :: (forall u: int :: x == g(u)))
      == (lambda y: int :: (forall v: int :: y == g(v)));
}

procedure Attributed()
{
  assert (lambda x: int :: (forall u: int :: {:note} x == g(u)))
      == (lambda y: int :: (forall v: int :: {:note} y == g(v)));
}
