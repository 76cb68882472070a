// HAVOC's memory model for C and its reachability predicates (Chatterjee, Lahiri, Qadeer,
// Rakamaric, "A Reachability Predicate for Analyzing Low-Level Software"), as the library
// `/lib:havoc`. With it, rboogie's `reach` pass keeps `Reach` and `Block` exact across every
// write to `Mem` (src/passes/reach.rs).
//
// Pointers (section 3): an object and an offset; an integer is a pointer into `null`. The
// datatype gives the pair axioms of Fig. 6 as the solver's own theory.
type ref;
const null: ref;
datatype ptr { Ptr(obj: ref, off: int) }
function {:inline} Obj(p: ptr): ref { p->obj }
function {:inline} Off(p: ptr): int { p->off }

// The integer n as a pointer, and pointer arithmetic by a constant.
function {:inline} INT(n: int): ptr { Ptr(null, n) }
function {:inline} INCR(p: ptr, n: int): ptr { Ptr(Obj(p), Off(p) + n) }
function {:inline} DECR(p: ptr, n: int): ptr { Ptr(Obj(p), Off(p) - n) }
const NULL: ptr;
axiom {:include_dep} NULL == Ptr(null, 0);

// The heap: the contents of memory at each pointer, and each object's allocation state.
var Mem: [ptr]ptr;
const UNALLOCATED: int;
const ALLOCATED: int;
const FREED: int;
axiom {:include_dep} UNALLOCATED == 0 && ALLOCATED == 1 && FREED == 2;
var Alloc: [ref]int;
// Each object's size in bytes (section 3).
const Size: [ref]int;

// The blocking pointers: those in BS, and every integer (a pointer into `null`, NULL among
// them): a list ends where its links stop being pointers. For each offset n of interest
// (section 4):
//   Reach[n, u, v]  R_n[u, v]: v is u, *(u+n), *(*(u+n)+n), ... before u's block;
//   Block[n, u]     B_n[u]: the first pointer of BS in *(u+n), *(*(u+n)+n), ...
// A program reads them; only the `reach` pass writes them (before each `Mem[x] := y`).
var BS: [ptr]bool;
function {:inline} Blocks(bs: [ptr]bool, p: ptr): bool { bs[p] || Obj(p) == null }
var Reach: [int, ptr, ptr]bool;
var Block: [int, ptr]ptr;

// The annotation language (Fig. 4), on the current state. Sets of pointers are `[ptr]bool`.
function {:inline} in(x: ptr, S: [ptr]bool): bool { S[x] }
function {:inline} singleton(e: ptr): [ptr]bool { (lambda x: ptr :: x == e) }
function {:inline} union(A: [ptr]bool, B: [ptr]bool): [ptr]bool { (lambda x: ptr :: A[x] || B[x]) }
function {:inline} intersection(A: [ptr]bool, B: [ptr]bool): [ptr]bool { (lambda x: ptr :: A[x] && B[x]) }
function {:inline} difference(A: [ptr]bool, B: [ptr]bool): [ptr]bool { (lambda x: ptr :: A[x] && !B[x]) }
function {:inline} incr(S: [ptr]bool, n: int): [ptr]bool { (lambda x: ptr :: S[DECR(x, n)]) }
function {:inline} decr(S: [ptr]bool, n: int): [ptr]bool { (lambda x: ptr :: S[INCR(x, n)]) }
// array(e, n, k): e, e + n, ..., e + k * n.
function {:inline} array(e: ptr, n: int, k: int): [ptr]bool {
  (lambda x: ptr :: Obj(x) == Obj(e) && Off(x) >= Off(e) && Off(x) <= Off(e) + k * n
    && (n == 0 || (Off(x) - Off(e)) mod n == 0))
}

// C's malloc and free (`free` is a keyword of BoogiePL).
procedure malloc(size: int) returns (p: ptr);
  modifies Alloc;
  ensures old(Alloc)[Obj(p)] == UNALLOCATED && Obj(p) != null && Off(p) == 0 && Size[Obj(p)] == size;
  ensures Alloc == old(Alloc)[Obj(p) := ALLOCATED];

procedure dealloc(p: ptr);
  requires Alloc[Obj(p)] == ALLOCATED && Off(p) == 0;
  modifies Alloc;
  ensures Alloc == old(Alloc)[Obj(p) := FREED];

// The update of the predicates at `Mem[a + n] := y` (section 4), as the `reach` pass writes
// it when the theory is instantiated on ground terms (`/reachAxioms:ground`, the default):
// the new Reach and Block are those of the old ones updated at offset n, every other offset
// unchanged. ReachStep(n, R', B', R, B, bs, a, y) says so; the pass's ground instantiation
// (src/vcgen/reach_ground.rs) gives its meaning on the VC's terms. With
// `/reachAxioms:quantified` the pass assigns the same updates as lambdas instead.
function ReachStep(n: int, R': [int, ptr, ptr]bool, B': [int, ptr]ptr, R: [int, ptr, ptr]bool, B: [int, ptr]ptr,
  bs: [ptr]bool, a: ptr, y: ptr): bool;
procedure reach$update(n: int, a: ptr, y: ptr);
  modifies Reach, Block;
  free ensures ReachStep(n, Reach, Block, old(Reach), old(Block), BS, a, y);

// The theory of the reachability predicate (Fig. 7): what holds of `Reach` and `Block` in a
// state whose heap is well founded for offset n with respect to BS. The `reach` pass assumes
// `ReachState(n, Mem, BS, Reach, Block)` wherever the state may have changed; these
// quantified axioms (`{:reach_theory}`, sent with `/reachAxioms:quantified`) then give its
// consequences; by default the pass drops them and src/vcgen/reach_ground.rs gives their
// instances on the terms of the VC instead. The two unfolding axioms need the term M[u + n] to be
// there already: each state's lists are unfolded one step past the terms the program names,
// never further (their triggers would otherwise unfold a list forever).
function ReachState(n: int, M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr): bool;

axiom {:reach_theory} (forall n: int, M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr, v: ptr ::
  { ReachState(n, M, bs, R, B), R[n, u, v], M[INCR(u, n)] }
  ReachState(n, M, bs, R, B) ==>
    (R[n, u, v] <==> (v == u || (!Blocks(bs, M[INCR(u, n)]) && R[n, M[INCR(u, n)], v]))));
axiom {:reach_theory} (forall n: int, M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr ::
  { ReachState(n, M, bs, R, B), B[n, u], M[INCR(u, n)] }
  ReachState(n, M, bs, R, B) ==>
    B[n, u] == (if Blocks(bs, M[INCR(u, n)]) then M[INCR(u, n)] else B[n, M[INCR(u, n)]]));
axiom {:reach_theory} (forall n: int, M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr, v: ptr, w: ptr ::
  { ReachState(n, M, bs, R, B), R[n, u, v], R[n, v, w] }
  ReachState(n, M, bs, R, B) && R[n, u, v] && R[n, v, w] ==> R[n, u, w]);
axiom {:reach_theory} (forall n: int, M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr, v: ptr ::
  { ReachState(n, M, bs, R, B), R[n, v, u] }
  ReachState(n, M, bs, R, B) && Blocks(bs, u) && R[n, v, u] ==> u == v);
axiom {:reach_theory} (forall n: int, M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr, v: ptr ::
  { ReachState(n, M, bs, R, B), R[n, u, v] }
  ReachState(n, M, bs, R, B) && R[n, u, v] ==> B[n, u] == B[n, v]);
axiom {:reach_theory} (forall n: int, M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr ::
  { ReachState(n, M, bs, R, B), M[INCR(u, n)] }
  ReachState(n, M, bs, R, B) && u == M[INCR(u, n)] ==> Blocks(bs, u));
axiom {:reach_theory} (forall n: int, M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr, v: ptr ::
  { ReachState(n, M, bs, R, B), R[n, M[INCR(u, n)], v] }
  ReachState(n, M, bs, R, B) && !Blocks(bs, M[INCR(u, n)]) ==>
    (R[n, M[INCR(u, n)], v] <==> (R[n, u, v] && v != u)));
// R_n is reflexive (i = 0 in its definition).
axiom {:reach_theory} (forall n: int, M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr ::
  { ReachState(n, M, bs, R, B), R[n, u, u] }
  ReachState(n, M, bs, R, B) ==> R[n, u, u]);

// At offset 0 the link of u is M[u] itself: the unfolding axioms again, with that term in
// their triggers (a trigger on M[INCR(u, 0)] would not match the program's M[u]).
axiom {:reach_theory} (forall M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr, v: ptr ::
  { ReachState(0, M, bs, R, B), R[0, u, v], M[u] }
  ReachState(0, M, bs, R, B) ==> (R[0, u, v] <==> (v == u || (!Blocks(bs, M[u]) && R[0, M[u], v]))));
axiom {:reach_theory} (forall M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr ::
  { ReachState(0, M, bs, R, B), B[0, u], M[u] }
  ReachState(0, M, bs, R, B) ==> B[0, u] == (if Blocks(bs, M[u]) then M[u] else B[0, M[u]]));
axiom {:reach_theory} (forall M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr ::
  { ReachState(0, M, bs, R, B), M[u] }
  ReachState(0, M, bs, R, B) && u == M[u] ==> Blocks(bs, u));
axiom {:reach_theory} (forall M: [ptr]ptr, bs: [ptr]bool, R: [int, ptr, ptr]bool, B: [int, ptr]ptr, u: ptr, v: ptr ::
  { ReachState(0, M, bs, R, B), R[0, M[u], v] }
  ReachState(0, M, bs, R, B) && !Blocks(bs, M[u]) ==> (R[0, M[u], v] <==> (R[0, u, v] && v != u)));
