// A C front end's prelude: an uninterpreted sort of floats with conversions to and from int,
// each the other's inverse (axioms no term of the program ever triggers), and a bump
// allocator with a body. main stores 2 and 3 through two pointers it allocates into two
// separate maps (a front end's memory regions) and asserts the loaded values equal: they
// never are (2 != 3), whatever the pointers, so the assertion fails at every bound. At bound 1
// every call can be inlined once (no recursion), so the bug is found.
// The stratified search's first query (both calls open), answered by the tactic z3 makes for
// a first check-sat with no scope open, made z3 4.8.12 run model-based quantifier
// instantiation rounds despite `smt.mbqi false`, each costlier than the one before: no answer
// in minutes; in-process that tactic also read another session's global parameters (a hang in
// about 1 run of 4 of this corpus). The search now opens a scope before its first check.
// RUN: /recursionBound:1 => bug at 42,3
type float;
function to_int(f: float): int;
function of_int(i: int): float;
function feq(a: float, b: float): bool;
axiom (forall a, b: float :: a != b || feq(a, b));
axiom (forall f: float :: of_int(to_int(f)) == f);
axiom (forall i: int :: to_int(of_int(i)) == i);
var next: int;
var live: [int]bool;
var R1: [int]int;
var R2: [int]int;
procedure alloc(n: int) returns (p: int)
  modifies next, live;
{
  assume next > 0;
  p := next;
  if (n > 0) { next := next + n; } else { next := next + 1; }
  live[p] := true;
}
procedure main()
  modifies next, live, R1, R2;
{
  var a: int; var b: int; var x: int; var y: int;
  call a := alloc(4);
  call b := alloc(4);
  R1[a] := 2;
  R2[b] := 3;
  x := R1[a];
  y := R2[b];
  assert x == y; // @BUG
}
