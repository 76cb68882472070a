// A call tree of depth 3 and fan-out 2 (no recursion). Only the leaf reached by
// the path r -> b -> d gets the value 3 (1 + 1 + 1) that makes its assertion fail.
// RUN: /recursionBound:1 => bug at 4,26
procedure leaf(x: int) { assert x != 3; } // @BUG
procedure c(x: int) { call leaf(x); call leaf(x - 1); }
procedure d(x: int) { call leaf(x + 1); call leaf(x - 5); }
procedure a(x: int) { call c(x); call c(x - 10); }
procedure b(x: int) { call d(x + 1); call c(x - 10); }
procedure main() { call a(0); call b(1); }
