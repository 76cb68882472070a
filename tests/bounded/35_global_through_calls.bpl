// Stratified inlining links globals across instances: `inc` changes g, `check` reads it.
// g is 0, then 1, 2 (check holds at 2 < 3), then 3: the second check fails.
// No recursion, so no bound is reached.
// RUN: /recursionBound:1 => bug at 7,21
var g: int;
procedure inc() modifies g; { g := g + 1; }
procedure check() { assert g < 3; } // @BUG
procedure main() modifies g; {
  g := 0;
  call inc(); call inc(); call check();
  call inc(); call check();
}
