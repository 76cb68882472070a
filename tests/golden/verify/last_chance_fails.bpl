// OPTIONS: /rlimit:1
// The solver runs out of resources on Single, which has one assertion and no branch to split
// at: Boogie's last chance (Split.LastChance) reports that assertion as failing, with every
// block of the split as its trace, instead of "out of resource".
procedure Single(x: real)
{
  assert x > 0.0 ==> (x * 2.0 + x) / x > x;
}
