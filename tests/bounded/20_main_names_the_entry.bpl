// Two candidate entries: /main:good checks `good` only, whose assertion holds; /main:bad
// checks `bad`, whose assertion fails.
// RUN: /main:good => no bugs
// RUN: /main:bad => bug at 6,39
procedure good() { var x: int; x := 1; assert x == 1; }
procedure bad() { var x: int; x := 1; assert x == 2; } // @BUG
