// OPTIONS: /prune:1 /errorTrace:0 /timeLimit:30
// Pruning leaves out what an implementation does not reach, as Boogie does: each procedure
// below verifies without /prune, and fails with it.

// An axiom without triggers and without `{:include_dep}` is led to by nothing: never sent.
const Size: int;
axiom Size > 0;

procedure NoTrigger()
  ensures Size > 0; // error: the axiom is pruned
{
}

// A multi-trigger needs all of its functions: `Snd` alone does not reach the axiom (nor the
// fact about `Snd(0)` that comes with it).
function Make(a: int, b: int): int;
function Snd(p: int): int;
axiom (forall a: int, b: int :: {Snd(a), Make(a, b)} Snd(a) >= 0) && Snd(0) == 5;

procedure HalfTrigger()
  ensures Snd(0) == 5; // error: only `Snd` is mentioned
{
}

// A `uses` clause belongs to its declaration: `Producer` is not mentioned here.
function Consumer(x: int): int;
function Producer(x: int): bool uses {
  axiom (forall x: int :: Consumer(x) == 3);
}

procedure NotTheProducer()
  ensures Consumer(1) == 3; // error: the uses clause of Producer is not reached
{
}

// A universal fact with triggers is led to by its triggers only, even with {:include_dep}.
const On: bool;
function Probe(x: int): bool;
axiom {:include_dep} (forall x: int :: {Probe(x)} On);

procedure OnlyBody()
  ensures On; // error: `On` is mentioned, but the axiom is reached through `Probe` only
{
}
