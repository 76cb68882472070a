// The same tree with arguments that never reach 3 at a leaf: no bug, and a proof
// (no recursion, no loop).
// RUN: /recursionBound:1 => no bugs
procedure leaf(x: int) { assert x != 3; }
procedure c(x: int) { call leaf(x); call leaf(x - 1); }
procedure d(x: int) { call leaf(x + 10); call leaf(x - 5); }
procedure a(x: int) { call c(x); call c(x - 10); }
procedure b(x: int) { call d(x + 1); call c(x - 10); }
procedure main() { call a(0); call b(1); }
