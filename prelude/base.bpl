// rboogie's `base` library (`/lib:base`): the declarations Boogie 3.5 programs expect from
// Boogie's library of the same name, written for rboogie. Boogie adds it also when a
// top-level declaration carries a Civl attribute.

// ----- Generic helpers ------------------------------------------------------------------

// An unspecified value of every type (what a map holds where nothing was put).
function Default<T>(): T;

function {:inline} Id<T>(t: T): T { t }

// ----- Point-wise map operations (Z3's array combinators) -------------------------------

function {:builtin "MapConst"} MapConst<T,U>(U): [T]U;
function {:builtin "MapIte"} MapIte<T,U>([T]bool, [T]U, [T]U): [T]U;
function {:builtin "MapEq"} MapEq<T,U>([T]U, [T]U): [T]bool;

function {:builtin "MapNot"} MapNot<T>([T]bool): [T]bool;
function {:builtin "MapAnd"} MapAnd<T>([T]bool, [T]bool): [T]bool;
function {:builtin "MapOr"} MapOr<T>([T]bool, [T]bool): [T]bool;
function {:builtin "MapImp"} MapImp<T>([T]bool, [T]bool): [T]bool;
function {:builtin "MapIff"} MapIff<T>([T]bool, [T]bool): [T]bool;
// Where the first map holds and the second does not.
function {:inline} MapDiff<T>(a: [T]bool, b: [T]bool): [T]bool { MapAnd(a, MapNot(b)) }

function {:builtin "MapAdd"} MapAdd<T>([T]int, [T]int): [T]int;
function {:builtin "MapSub"} MapSub<T>([T]int, [T]int): [T]int;
function {:builtin "MapMul"} MapMul<T>([T]int, [T]int): [T]int;
function {:builtin "MapDiv"} MapDiv<T>([T]int, [T]int): [T]int;
function {:builtin "MapMod"} MapMod<T>([T]int, [T]int): [T]int;
function {:builtin "MapLt"} MapLt<T>([T]int, [T]int): [T]bool;
function {:builtin "MapLe"} MapLe<T>([T]int, [T]int): [T]bool;
function {:builtin "MapGt"} MapGt<T>([T]int, [T]int): [T]bool;
function {:builtin "MapGe"} MapGe<T>([T]int, [T]int): [T]bool;

// The map from every integer to itself, and the integer intervals built on it.
const Identity: [int]int;
axiom (forall n: int :: Identity[n] == n);

// { i | x <= i }
function {:inline} AtLeast(x: int): [int]bool { MapLe(MapConst(x), Identity) }
// { i | from <= i < from + n }
function {:inline} Range(from: int, n: int): [int]bool { MapDiff(AtLeast(from), AtLeast(from + n)) }

// ----- Sets as maps to bool -------------------------------------------------------------

function {:inline} Set_Empty<T>(): [T]bool { MapConst(false) }
function {:inline} Set_Singleton<T>(t: T): [T]bool { Set_Add(Set_Empty(), t) }

function {:inline} Set_Contains<T>(a: [T]bool, t: T): bool { a[t] }
function {:inline} Set_IsSubset<T>(a: [T]bool, b: [T]bool): bool { MapImp(a, b) == MapConst(true) }
function {:inline} Set_IsDisjoint<T>(a: [T]bool, b: [T]bool): bool { Set_Intersection(a, b) == Set_Empty() }

function {:inline} Set_Add<T>(a: [T]bool, t: T): [T]bool { a[t := true] }
function {:inline} Set_Remove<T>(a: [T]bool, t: T): [T]bool { a[t := false] }
function {:inline} Set_Union<T>(a: [T]bool, b: [T]bool): [T]bool { MapOr(a, b) }
function {:inline} Set_Intersection<T>(a: [T]bool, b: [T]bool): [T]bool { MapAnd(a, b) }
function {:inline} Set_Difference<T>(a: [T]bool, b: [T]bool): [T]bool { MapDiff(a, b) }

// Some member of a non-empty set.
function Choice<T>(a: [T]bool): T;
axiom (forall<T> a: [T]bool :: {Choice(a)} a[Choice(a)] || a == MapConst(false));

// ----- Option ---------------------------------------------------------------------------

datatype Option<T> { None(), Some(t: T) }

// ----- Sequences (SMT-LIB's sequence theory) --------------------------------------------

type {:builtin "Seq"} Seq _;
function {:builtin "seq.empty"} Seq_Empty<T>(): Seq T;
function {:builtin "seq.unit"} Seq_Unit<T>(v: T): Seq T;
function {:builtin "seq.len"} Seq_Len<T>(a: Seq T): int;
function {:builtin "seq.nth"} Seq_Nth<T>(a: Seq T, i: int): T;
function {:builtin "seq.++"} Seq_Concat<T>(a: Seq T, b: Seq T): Seq T;
function {:builtin "seq.extract"} Seq_Extract<T>(a: Seq T, pos: int, length: int): Seq T;

// ----- Vectors: a length and the contents at 0 .. len-1 ---------------------------------

datatype Vec<T> { Vec(contents: [int]T, len: int) }

// A vector's length is never negative, and outside 0 .. len-1 it holds Default().
axiom {:ctor "Vec"} (forall<T> v: Vec T :: {v->len} v->len >= 0);
axiom {:ctor "Vec"} (forall<T> v: Vec T :: {v->len}{v->contents}
  MapIte(Range(0, v->len), MapConst(Default()), v->contents) == MapConst(Default()));

function {:inline} Vec_Empty<T>(): Vec T { Vec(MapConst(Default()), 0) }
function {:inline} Vec_Len<T>(v: Vec T): int { v->len }
function {:inline} Vec_Nth<T>(v: Vec T, i: int): T { v->contents[i] }
function {:inline} Vec_Contains<T>(v: Vec T, i: int): bool { 0 <= i && i < Vec_Len(v) }

function {:inline} Vec_Append<T>(v: Vec T, x: T): Vec T { Vec(v->contents[v->len := x], v->len + 1) }

// Replaces the i-th element; an index out of range leaves the vector as it is.
function {:inline} Vec_Update<T>(v: Vec T, i: int, x: T): Vec T
{
  if (0 <= i && i < v->len) then Vec(v->contents[i := x], v->len) else v
}

// Drops the last element (nothing when empty).
function {:inline} Vec_Remove<T>(v: Vec T): Vec T
{
  (var nonempty, last := 0 < v->len, v->len - 1;
    Vec(v->contents[last := if (nonempty) then Default() else v->contents[last]],
        if (nonempty) then last else v->len))
}

// Exchanges the i-th and j-th elements when both are in range.
function {:inline} Vec_Swap<T>(v: Vec T, i: int, j: int): Vec T
{
  (var ok := 0 <= i && i < v->len && 0 <= j && j < v->len;
    Vec(v->contents[i := v->contents[if (ok) then j else i]]
                   [j := v->contents[if (ok) then i else j]],
        v->len))
}

// v1's elements, then v2's.
function {:inline} Vec_Concat<T>(v1: Vec T, v2: Vec T): Vec T
{
  Vec((lambda {:pool "Concat"} k: int ::
         if (k < 0) then Default()
         else if (k < Vec_Len(v1) && 0 <= k) then Vec_Nth(v1, k)
         else if (Vec_Len(v1) <= k && k < Vec_Len(v1) + Vec_Len(v2)) then Vec_Nth(v2, k - Vec_Len(v1))
         else Default()),
      Vec_Len(v1) + Vec_Len(v2))
}

// The elements i .. j-1; the empty vector unless 0 <= i < j <= len.
function {:inline} Vec_Slice<T>(v: Vec T, i: int, j: int): Vec T
{
  (var ok := 0 <= i && i < j && j <= v->len;
    Vec((lambda {:pool "Slice"} k: int :: if (ok && 0 <= k && k < j - i) then Vec_Nth(v, i + k) else Default()),
        if (ok) then j - i else 0))
}

// Extensionality, for the programmer to call: vectors that differ differ in their length or
// at the index it returns.
procedure Vec_Ext<T>(A: Vec T, B: Vec T) returns (i: int);
  ensures A == B || Vec_Len(A) != Vec_Len(B) || Vec_Nth(A, i) != Vec_Nth(B, i);

// ----- Finite maps: a domain and the values on it ---------------------------------------

datatype Map<T,U> { Map(dom: [T]bool, val: [T]U) }

function {:inline} Map_Empty<T,U>(): Map T U { Map(MapConst(false), MapConst(Default())) }
function {:inline} Map_Singleton<T,U>(t: T, u: U): Map T U { Map_Update(Map_Empty(), t, u) }

function {:inline} Map_Contains<T,U>(a: Map T U, t: T): bool { Set_Contains(a->dom, t) }
function {:inline} Map_At<T,U>(a: Map T U, t: T): U { a->val[t] }
function {:inline} Map_IsDisjoint<T,U>(a: Map T U, b: Map T U): bool { Set_IsDisjoint(a->dom, b->dom) }
// Off its domain the map holds Default().
function {:inline} Map_WellFormed<T,U>(a: Map T U): bool
{
  a->val == MapIte(a->dom, a->val, MapConst(Default()))
}

function {:inline} Map_Update<T,U>(a: Map T U, t: T, u: U): Map T U
{
  Map(Set_Add(a->dom, t), a->val[t := u])
}
function {:inline} Map_Remove<T,U>(a: Map T U, t: T): Map T U
{
  Map(Set_Remove(a->dom, t), a->val[t := Default()])
}
function {:inline} Map_Swap<T,U>(a: Map T U, t1: T, t2: T): Map T U
{
  (var at1, at2 := Map_At(a, t1), Map_At(a, t2); Map_Update(Map_Update(a, t1, at2), t2, at1))
}
// The restriction to t, and the restriction to what is not in t.
function {:inline} Map_Extract<T,U>(a: Map T U, t: [T]bool): Map T U
{
  Map(t, MapIte(t, a->val, MapConst(Default())))
}
function {:inline} Map_Exclude<T,U>(a: Map T U, t: [T]bool): Map T U
{
  Map(Set_Difference(a->dom, t), MapIte(t, MapConst(Default()), a->val))
}
// Where both have a key, a's value wins.
function {:inline} Map_Union<T,U>(a: Map T U, b: Map T U): Map T U
{
  Map(Set_Union(a->dom, b->dom), MapIte(a->dom, a->val, b->val))
}

function {:inline} Map_Collector<T,U>(a: Map T U): [T]bool { a->dom }
function {:inline} Map_Collector_Empty<T,U,P>(a: Map T U): [P]bool { MapConst(false) }

// ----- Singletons, cells, unit ----------------------------------------------------------

datatype One<T> { One(val: T) }
function {:inline} One_Collector<T>(a: One T): [One T]bool { Set_Singleton(a) }

datatype Cell<T,U> { Cell(key: One T, val: U) }

datatype Unit { Unit() }
type UnitMap K = Map K Unit;

// ----- Linear primitives (Civl) ---------------------------------------------------------

pure procedure Move<T>({:linear_in} u: T, {:linear_out} v: T);

pure procedure {:inline 1} Map_MakeEmpty<K,V>() returns ({:linear} m: Map K V)
{
  m := Map_Empty();
}

pure procedure One_Get<K>({:linear} path: UnitMap K, {:linear_out} l: K);
pure procedure One_Put<K>({:linear} path: UnitMap K, {:linear_in} l: K);

pure procedure Map_Get<K,V>({:linear} path: Map K V, {:linear_out} k: K) returns ({:linear} v: V);
pure procedure Map_Put<K,V>({:linear} path: Map K V, {:linear_in} k: K, {:linear_in} v: V);
pure procedure Map_Split<K,V>({:linear} path: Map K V, k: [K]bool) returns ({:linear} l: Map K V);
pure procedure Map_Join<K,V>({:linear} path: Map K V, {:linear_in} l: Map K V);

pure procedure Path_Load<V>(path: V) returns (v: V);
pure procedure Path_Store<V>(path: V, v: V);

// ----- Locations and tags ---------------------------------------------------------------

type Loc;

datatype Tag<V> { Tag(loc: Loc, val: V) }

// The tags at loc of the values in xs.
function {:inline} Tags<V>(loc: Loc, xs: [V]bool): [One (Tag V)]bool
{
  (lambda x: One (Tag V) :: x->val->loc == loc && Set_Contains(xs, x->val->val))
}

pure procedure {:inline 1} Loc_New() returns ({:linear} {:pool "Loc_New"} l: One Loc)
{
  assume {:add_to_pool "Loc_New", l} true;
}

pure procedure {:inline 1} Tag_New() returns ({:linear} {:pool "Loc_New"} l: One Loc, {:linear} tag: One (Tag Unit))
{
  assume {:add_to_pool "Loc_New", l} true;
  tag := One(Tag(l->val, Unit()));
}

pure procedure {:inline 1} Tags_New<V>(vals: [V]bool) returns ({:linear} {:pool "Loc_New"} l: One Loc, {:linear} tags: UnitMap (One (Tag V)))
{
  assume {:add_to_pool "Loc_New", l} true;
  tags := Map(Tags(l->val, vals), MapConst(Unit()));
}

// ----- Helpers --------------------------------------------------------------------------

pure procedure Copy<T>(v: T) returns (v': T);
  ensures v' == v;

pure procedure Assume(b: bool);
  ensures b;

pure action Assert(b: bool)
{
  assert b;
}
