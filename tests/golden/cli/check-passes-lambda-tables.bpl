// OPTIONS: --check-passes
// Lambda lifting records the types and referents of what it builds instead of having its
// output checked again; --check-passes compares those tables with a check from scratch and
// reports an internal error naming the pass when they differ. The lambdas here take the
// recorded path: one with type parameters of its own over a polymorphic heap (Dafny's
// frames), one under a type parameter of its procedure, nested ones, two alike ones that
// share a function, and one reading old(g).
//
// Expected, by hand: Frame verifies (the frame holds of `this`, allocated by the
// precondition); Poly verifies (the lambda is x at every index); Nested verifies (m[1][2] is
// 1 + 2 + a); Shared verifies (alike lambdas are one function of a, so n1 == n2). Old has
// one error: after g := g + 1, n[0] is old(g) + g = 2 * old(g) + 1, which is 1 only when
// old(g) is 0, so the assertion fails. 4 verified, 1 error.
type ref;
type Field _;
const null: ref;
type Heap = [ref]<alpha>[Field alpha]alpha;
const unique alloc: Field bool;
var $Heap: Heap;
var g: int;

procedure Frame(this: ref)
  requires this != null && $Heap[this][alloc];
{
  var frame: <beta>[ref, Field beta]bool;
  frame := (lambda<alpha> o: ref, f: Field alpha :: o != null && $Heap[o][alloc]);
  assert frame[this, alloc];
}

function G<T>(T): bool;

procedure Poly<T>(x: T) returns (m: [int]T)
  ensures m[5] == x;
{
  m := (lambda i: int :: if G(x) && i > 0 then x else x);
}

procedure Nested(a: int) returns (m: [int][int]int)
  ensures m[1][2] == 3 + a;
{
  m := (lambda i: int :: (lambda j: int :: i + j + a));
}

procedure Shared(a: int)
{
  var n1, n2: [int]int;
  n1 := (lambda k: int :: k + a);
  n2 := (lambda l: int :: l + a);
  assert n1 == n2;
}

procedure Old() returns (n: [int]int)
  modifies g;
{
  g := g + 1;
  n := (lambda i: int :: old(g) + g + i);
  assert n[0] == 1;
}
