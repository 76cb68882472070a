// rboogie's `node` library (`/lib:node`, used together with `/lib:base`): linked lists of
// nodes in a heap of locations, reachability along `next` and the stack, set and queue such a
// list stands for, as Boogie 3.5's library of the same name declares them.

datatype Node<T> { Node(next: Option Loc, val: T) }

// Between(f, x, y, z): following `next` in f from x reaches y, and reaches it no later than z.
function Between<T>(f: [One Loc]Node T, x: Option Loc, y: Option Loc, z: Option Loc): bool;
// Avoiding(f, x, y, z): from x, y is reached before z or z is never reached.
function Avoiding<T>(f: [One Loc]Node T, x: Option Loc, y: Option Loc, z: Option Loc): bool;

// The locations on the path from x to z.
function {:inline} BetweenSet<T>(f: [One Loc]Node T, x: Option Loc, z: Option Loc): [Loc]bool
{
  (lambda y: Loc :: Between(f, x, Some(y), z))
}

// Every node reached from start (up to the end of the list) is in the map's domain.
function {:inline} InDomain<V>(nodes: Map (One Loc) (Node V), start: Option Loc): bool
{
  Between(nodes->val, start, start, None()) &&
  (forall x: Loc :: Between(nodes->val, start, Some(x), None()) ==> Set_Contains(nodes->dom, One(x)))
}

// ----- Axioms of reachability -----------------------------------------------------------

// A location reaches itself.
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Option Loc :: Between(f, x, x, x));

// One step along next.
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Loc :: {f[One(x)]}
  Between(f, Some(x), f[One(x)]->next, f[One(x)]->next));

// What x reaches is x itself or reached from x's successor.
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Loc, y: Option Loc :: {f[One(x)], Between(f, Some(x), y, y)}
  Between(f, Some(x), y, y) ==> Some(x) == y || Between(f, Some(x), f[One(x)]->next, y));

// A node that is its own successor reaches only itself.
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Loc, y: Option Loc :: {f[One(x)], Between(f, Some(x), y, y)}
  f[One(x)]->next == Some(x) && Between(f, Some(x), y, y) ==> Some(x) == y);

// Nothing lies strictly between x and x.
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Option Loc, y: Option Loc :: {Between(f, x, y, x)}
  Between(f, x, y, x) ==> x == y);

// Two locations reached from x are reached in some order.
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Option Loc, y: Option Loc, z: Option Loc ::
  {Between(f, x, y, y), Between(f, x, z, z)}
  Between(f, x, y, y) && Between(f, x, z, z) ==> Between(f, x, y, z) || Between(f, x, z, y));

// A path from x through y to z reaches y from x and z from y.
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Option Loc, y: Option Loc, z: Option Loc ::
  {Between(f, x, y, z)}
  Between(f, x, y, z) ==> Between(f, x, y, y) && Between(f, y, z, z));

// Transitivity.
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Option Loc, y: Option Loc, z: Option Loc ::
  {Between(f, x, y, y), Between(f, y, z, z)}
  Between(f, x, y, y) && Between(f, y, z, z) ==> Between(f, x, z, z));
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Option Loc, y: Option Loc, z: Option Loc, w: Option Loc ::
  {Between(f, x, y, z), Between(f, y, w, z)}
  Between(f, x, y, z) && Between(f, y, w, z) ==> Between(f, x, y, w) && Between(f, x, w, z));
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Option Loc, y: Option Loc, z: Option Loc, w: Option Loc ::
  {Between(f, x, y, z), Between(f, x, w, y)}
  Between(f, x, y, z) && Between(f, x, w, y) ==> Between(f, x, w, z) && Between(f, w, y, z));

// Reflexivity's axiom has no trigger; this one gives u reaching itself wherever u reaches
// something, which the other axioms do not imply.
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, u: Option Loc, x: Option Loc :: {Between(f, u, x, x)}
  Between(f, u, x, x) ==> Between(f, u, u, x));

// Avoiding in terms of Between, and back.
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Option Loc, y: Option Loc, z: Option Loc ::
  {Avoiding(f, x, y, z)}
  Avoiding(f, x, y, z) <==> Between(f, x, y, z) || (Between(f, x, y, y) && !Between(f, x, z, z)));
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, x: Option Loc, y: Option Loc, z: Option Loc ::
  {Between(f, x, y, z)}
  Between(f, x, y, z) <==> Avoiding(f, x, y, z) && Avoiding(f, x, z, z));

// Avoiding after one node p is replaced by q.
axiom {:ctor "Node"} (forall<T> f: [One Loc]Node T, u: Option Loc, v: Option Loc, x: Option Loc, p: Loc, q: Node T ::
  {Avoiding(f[One(p) := q], u, v, x)}
  Avoiding(f[One(p) := q], u, v, x) <==>
    (Avoiding(f, u, v, Some(p)) && Avoiding(f, u, v, x)) ||
    (Avoiding(f, u, Some(p), x) && Some(p) != x && Avoiding(f, q->next, v, Some(p)) && Avoiding(f, q->next, v, x)));

// ----- The list from start as a stack (its last node first) -----------------------------

function StackAbs<V>(start: Option Loc, nodes: Map (One Loc) (Node V)): Vec V;
function {:inline} StackAbsDef<V>(start: Option Loc, nodes: Map (One Loc) (Node V)): Vec V
{
  if start == None() then Vec_Empty()
  else (var n := Map_At(nodes, One(start->t)); Vec_Append(StackAbs(n->next, nodes), n->val))
}

pure procedure StackAbsLemma<V>(start: Option Loc, nodes: Map (One Loc) (Node V));
  requires Between(nodes->val, start, start, None());
  requires InDomain(nodes, start);
  ensures StackAbs(start, nodes) == StackAbsDef(start, nodes);

pure procedure StackFrameLemma<V>(start: Option Loc, nodes: Map (One Loc) (Node V), nodes': Map (One Loc) (Node V));
  requires Set_IsSubset(nodes->dom, nodes'->dom);
  requires MapIte(nodes->dom, nodes->val, MapConst(Default())) == MapIte(nodes->dom, nodes'->val, MapConst(Default()));
  requires Between(nodes->val, start, start, None());
  requires InDomain(nodes, start);
  ensures StackAbs(start, nodes) == StackAbs(start, nodes');

// ----- The list from start as a set -----------------------------------------------------

function SetAbs<V>(start: Option Loc, nodes: Map (One Loc) (Node V)): [V]bool;
function {:inline} SetAbsDef<V>(start: Option Loc, nodes: Map (One Loc) (Node V)): [V]bool
{
  if start == None() then Set_Empty()
  else (var n := Map_At(nodes, One(start->t)); Set_Add(SetAbs(n->next, nodes), n->val))
}

pure procedure SetAbsLemma<V>(start: Option Loc, nodes: Map (One Loc) (Node V));
  requires Between(nodes->val, start, start, None());
  requires InDomain(nodes, start);
  ensures SetAbs(start, nodes) == SetAbsDef(start, nodes);

pure procedure SetFrameLemma<V>(start: Option Loc, nodes: Map (One Loc) (Node V), nodes': Map (One Loc) (Node V));
  requires Set_IsSubset(nodes->dom, nodes'->dom);
  requires MapIte(nodes->dom, nodes->val, MapConst(Default())) == MapIte(nodes->dom, nodes'->val, MapConst(Default()));
  requires Between(nodes->val, start, start, None());
  requires InDomain(nodes, start);
  ensures SetAbs(start, nodes) == SetAbs(start, nodes');

// ----- The list from start as a queue, appended to in_queue -----------------------------

function QueueAbs<V>(in_queue: Vec V, start: Option Loc, nodes: Map (One Loc) (Node V)): Vec V;
function {:inline} QueueAbsDef<V>(in_queue: Vec V, start: Option Loc, nodes: Map (One Loc) (Node V)): Vec V
{
  if start == None() then in_queue
  else (var n := Map_At(nodes, One(start->t)); QueueAbs(Vec_Append(in_queue, n->val), n->next, nodes))
}

pure procedure QueueAbsLemma<V>(in_queue: Vec V, start: Option Loc, nodes: Map (One Loc) (Node V));
  requires Between(nodes->val, start, start, None());
  requires InDomain(nodes, start);
  ensures QueueAbs(in_queue, start, nodes) == QueueAbsDef(in_queue, start, nodes);

pure procedure QueueFrameLemma<V>(in_queue: Vec V, start: Option Loc, nodes: Map (One Loc) (Node V), nodes': Map (One Loc) (Node V));
  requires Set_IsSubset(nodes->dom, nodes'->dom);
  requires MapIte(nodes->dom, nodes->val, MapConst(Default())) == MapIte(nodes->dom, nodes'->val, MapConst(Default()));
  requires Between(nodes->val, start, start, None());
  requires InDomain(nodes, start);
  ensures QueueAbs(in_queue, start, nodes) == QueueAbs(in_queue, start, nodes');
