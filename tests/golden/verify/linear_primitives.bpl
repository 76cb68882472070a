// OPTIONS: /lib:base
// Civl's linear primitives outside Civl (Boogie's LinearRewriter): a call changes its first
// argument, a path, in place, and asserts what it needs. Before, they were calls of bodiless
// procedures: the path kept its value and nothing was asserted (PutChanges, GetAbsent,
// SplitTooMuch, OneGetTwice, Nested and FieldOfOther verified).
// Verdicts worked out by hand: 6 verified, 8 errors.

type Elem;

// Put then Get: the value got is the value put, and the key leaves the map. Verified.
procedure PutGet(k: int, x: int)
{
  var m: Map int int;
  var v: int;
  call m := Map_MakeEmpty();
  call Map_Put(m, k, x);
  assert Map_Contains(m, k);
  call v := Map_Get(m, k);
  assert v == x;
  assert !Map_Contains(m, k);
}

// Put changes the map: the assertion fails.
procedure PutChanges()
{
  var m: Map int int;
  call m := Map_MakeEmpty();
  call Map_Put(m, 1, 5);
  assert m == Map_Empty();
}

// Get of a key outside the domain: "Map_Get failed" at the call.
procedure GetAbsent()
{
  var m: Map int int;
  var v: int;
  call m := Map_MakeEmpty();
  call v := Map_Get(m, 1);
}

// A linear key (One Elem) is in one place only: putting it assumes it was not in the map, so
// it was not in m0 either. Verified.
pure procedure PutLinearKey({:linear_in} l: One Elem, {:linear_in} m0: Map (One Elem) int)
{
  var m: Map (One Elem) int;
  m := m0;
  call Map_Put(m, l, 3);
  assert !Map_Contains(m0, l);
}

// The same with an ordinary key: nothing is assumed, and the assertion fails.
procedure PutOrdinaryKey(k: int, m0: Map int int)
{
  var m: Map int int;
  m := m0;
  call Map_Put(m, k, 3);
  assert !Map_Contains(m0, k);
}

// Split takes the keys of a set out into a map of their own; Join puts them back. Verified.
procedure SplitJoin()
{
  var m: Map int int;
  var l: Map int int;
  call m := Map_MakeEmpty();
  call Map_Put(m, 1, 10);
  call Map_Put(m, 2, 20);
  call l := Map_Split(m, MapConst(false)[1 := true]);
  assert Map_Contains(l, 1) && !Map_Contains(l, 2);
  assert !Map_Contains(m, 1) && Map_Contains(m, 2);
  call Map_Join(m, l);
  assert Map_At(m, 1) == 10 && Map_At(m, 2) == 20;
}

// Split of a key outside the domain: "Map_Split failed" at the call.
procedure SplitTooMuch()
{
  var m: Map int int;
  var l: Map int int;
  call m := Map_MakeEmpty();
  call l := Map_Split(m, MapConst(false)[1 := true]);
}

// One_Put adds to a set's domain, One_Get takes out: the second One_Get fails.
procedure OneGetTwice(x: Elem)
{
  var s: UnitMap Elem;
  call s := Map_MakeEmpty();
  call One_Put(s, x);
  assert Map_Contains(s, x);
  call One_Get(s, x);
  assert !Map_Contains(s, x);
  call One_Get(s, x);
}

datatype Box { Box(inner: Map int int) }

// A path through a field: the field is updated in place. Verified.
procedure PathThroughField(b0: Box)
{
  var b: Box;
  b := b0;
  call Map_Put(b->inner, 7, 1);
  assert Map_At(b->inner, 7) == 1;
  assert b->inner->dom == b0->inner->dom[7 := true];
}

// A path through a map's entry at a key outside its domain: "map lookup failed", at the `[`.
procedure Nested(i: int)
{
  var mm: Map int (Map int int);
  call mm := Map_MakeEmpty();
  call Map_Put(mm->val[i], 1, 2);
}

datatype Shape { Round(r: Map int int), Flat() }

// A path through a field of a datatype with two constructors: "field lookup failed", at the
// field name, since s may be Flat.
procedure FieldOfOther(s0: Shape)
{
  var s: Shape;
  s := s0;
  call Map_Put(s->r, 1, 1);
}

// Path_Load reads a path, Path_Store writes it. Verified.
procedure LoadStore()
{
  var a: [int]int;
  var v: int;
  a[1] := 5;
  call v := Path_Load(a[1]);
  assert v == 5;
  call Path_Store(a[2], 6);
  assert a[2] == 6 && a[1] == 5;
}

// Move asserts that its two values are equal: verified for x and x, "Move failed" for x and y.
procedure MoveSame(x: int)
{
  call Move(x, x);
}

procedure MoveOther(x: int, y: int)
{
  call Move(x, y);
}
