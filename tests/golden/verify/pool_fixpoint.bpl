// OPTIONS: /timeLimit:30
// Pools across loops and sorts, and a pool that never stops growing.
function P(int, int): bool;

// Every instance of the forall skolemizes an exists whose witness joins the pool the forall
// draws from: Boogie would instantiate for ever; rboogie stops after a bounded number of
// rounds (fewer instances are still sound) and the proof needs only the first.
procedure EndlessPool(a: int)
{
  assume (forall {:pool "L"} x: int :: (exists y: int :: {:add_to_pool "L", y} P(x, y)));
  assert {:add_to_pool "L", a} (exists y: int :: P(a, y));
}

// Pool terms of a loop body and of an invariant are in the incarnations of their block.
procedure InLoop(n: int)
{
  var i: int;
  assume (forall {:pool "L"} k: int :: P(k, k + 1));
  i := 0;
  while (i < n)
    invariant {:add_to_pool "L", i} 0 <= i;
  {
    assert {:add_to_pool "L", i} P(i, i + 1);
    i := i + 1;
  }
  assert {:add_to_pool "L", 5} P(5, 6);
  assert {:add_to_pool "L", 7} P(7, 9);  // error
}

// Pools of an uninterpreted sort and of a map sort.
type T;
function G(T): [int]T;

procedure Sorted(t: T, m: [int]T)
{
  assume (forall {:pool "T"} u: T, {:pool "M"} w: [int]T :: G(u) == w);
  assert {:add_to_pool "T", t} {:add_to_pool "M", m} G(t)[0] == m[0];
}
