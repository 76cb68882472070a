// `id` and the mutually recursive `ping`/`pong` check nothing, so they cannot fail; their
// results still matter, and are inlined when a counterexample goes through them. id(5) is 5;
// ping/pong count g down to 0 (2 calls deep, within bound 2), so main's first assertions
// hold; main's last assertion (g == 1) fails.
// RUN: /recursionBound:2 => bug at 20,3
var g: int;
procedure id(x: int) returns (y: int) { y := x; }
procedure ping(n: int) modifies g; { g := n; if (n > 0) { call pong(n - 1); } }
procedure pong(n: int) modifies g; { g := n; if (n > 0) { call ping(n - 1); } }
procedure main()
  modifies g;
{
  var y: int;
  call y := id(5);
  assert y == 5;
  call ping(2);
  assert g == 0;
  g := 0;
  call ping(0);
  assert g == 1; // @BUG
}
