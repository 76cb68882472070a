// OPTIONS: /inferModifies --print-after=modifies %s
// Modifies inference over the call graph: Ping and Pong call each other, so each may change
// what either changes (a, b) and what Leaf, which they call, changes (c); Top only calls them.
// Declared clauses are kept and the inferred globals are added after them; the verdicts below
// depend on the inferred frames (Top's assertion on d holds, the one on a does not).
var a: int;
var b: int;
var c: [int]int;
var d: int;

procedure Leaf() { c[0] := 1; }

procedure Ping(n: int) modifies a; {
  a := n;
  if (n > 0) { call Pong(n - 1); }
}

procedure Pong(n: int) {
  havoc b;
  call Leaf();
  if (n > 0) { call Ping(n - 1); }
}

procedure Top() {
  var old_d: int;
  var old_a: int;
  old_d, old_a := d, a;
  call Ping(3);
  assert d == old_d;
  assert a == old_a;  // error: Ping may change a
}
