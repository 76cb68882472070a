// OPTIONS: /prune:1 /timeLimit:30
// Pruning keeps what an implementation reaches: each procedure below verifies, because the
// axiom its proof needs is reached from what it mentions.

// Reached through a trigger: `Double` is mentioned, the trigger is `Double(n)`.
function Double(n: int): int;
axiom (forall n: int :: {Double(n)} Double(n) == n + n);

procedure UsesTrigger(k: int)
  ensures Double(k) == 2 * k;
{
}

// Reached through a multi-trigger: both `Pair` and `Fst` are mentioned.
function Pair(a: int, b: int): int;
function Fst(p: int): int;
axiom (forall a: int, b: int :: {Fst(Pair(a, b))} Fst(Pair(a, b)) == a);

procedure UsesMultiTrigger(a: int, b: int)
  ensures Fst(Pair(a, b)) == a;
{
}

// Reached through a `uses` clause of a constant the precondition mentions.
const Limit: int uses {
  axiom Limit == 10;
}

procedure UsesClause(x: int)
  requires x < Limit;
  ensures x < 11;
{
}

// Reached through a callee's contract, then a function definition (its definition axiom),
// then an `{:include_dep}` axiom about a constant the definition mentions.
const Flag: bool;
axiom {:include_dep} Flag;
function IsSet(x: int): bool { Flag }

procedure Check(x: int);
  ensures IsSet(x);

procedure Caller(y: int)
{
  call Check(y);
  assert Flag;
}

// An axiom marked `{:keep}` is always sent.
const Seven: int;
axiom {:keep} Seven == 7;

procedure UsesKeep()
  ensures Seven == 7;
{
}
