// OPTIONS: /rlimit:1
// The solver runs out of resources on Branch too, but its branch pays to split at (Boogie's
// cost model: the whole costs 2.04^2 = 4.16, the halves 2.02^2 + 0.02^2 = 4.08, and half of
// that is below the whole), so this is no last chance: it stays "out of resource".
procedure Branch(x: real)
{
  if (x > 1.0) {
    assert x > 0.0 ==> (x * 2.0 + x) / x > x;
  }
}
