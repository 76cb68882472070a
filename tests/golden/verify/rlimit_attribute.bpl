// OPTIONS: /rlimit:1
// An implementation's {:rlimit N} replaces /rlimit for it (Boogie's GetResourceLimit). Every
// assertion here holds, but the solver needs more than 1 unit of resources to prove it:
// - Unlimited ({:rlimit 0}: no limit) is verified;
// - Starved ({:rlimit 1} on the implementation) runs out, and its one assertion is reported
//   as failing (Boogie's last-chance rule);
// - Ignored's {:rlimit -5} and {:rlimit "many"} are no non-negative literals: /rlimit:1
//   stays, so it fails like Starved;
// - After runs out of resources after Ignored did: each VC gets its own limit.
procedure {:rlimit 0} Unlimited(x: real)
{
  assert x > 0.0 ==> (x * 2.0 + x) / x == 3.0;
}

procedure Starved(x: real);
implementation {:rlimit 1} Starved(x: real)
{
  assert x > 0.0 ==> (x * 2.0 + x) / x == 3.0;
}

procedure {:rlimit -5} {:rlimit "many"} Ignored(x: real)
{
  assert x > 0.0 ==> (x * 2.0 + x) / x == 3.0;
}

procedure {:rlimit 0} After(x: real)
{
  assert x > 0.0 ==> (x * 2.0 + x) / x == 3.0;
}
