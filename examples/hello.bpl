// Hello, Boogie: a loop with its invariants, a contract, and a call that relies on it.

// Doubles n by counting: r goes up by 2 for each of the n turns of the loop.
procedure Double(n: int) returns (r: int)
  requires n >= 0;
  ensures r == 2 * n;
{
  var i: int;

  i := 0;
  r := 0;
  while (i < n)
    invariant 0 <= i && i <= n;
    invariant r == 2 * i;
  {
    i := i + 1;
    r := r + 2;
  }
}

procedure Main()
{
  var d: int;

  call d := Double(21);
  assert d == 42;
}
