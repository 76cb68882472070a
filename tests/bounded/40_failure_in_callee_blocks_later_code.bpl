// An execution ends where an assertion fails: main's `assert false` is reached only by
// executions on which `guard`'s assertion held, and with x = 0 there are none. The one bug
// is guard's assertion, not main's (stratified inlining must not report a path that runs on
// past a failing callee).
// RUN: /recursionBound:1 => bug at 6,27
procedure guard(x: int) { assert x > 0; } // @BUG
procedure main() {
  var x: int;
  x := 0;
  call guard(x);
  assert false;
}
