// main -> a -> b -> c -> d -> e, no recursion: every bound inlines the whole chain, and e's
// assertion fails for the value passed down (1 + 1 + 1 + 1 + 1 = 5).
// RUN: /recursionBound:1 => bug at 8,23
procedure a(x: int) { call b(x + 1); }
procedure b(x: int) { call c(x + 1); }
procedure c(x: int) { call d(x + 1); }
procedure d(x: int) { call e(x + 1); }
procedure e(x: int) { assert x != 5; } // @BUG
procedure main() { call a(1); }
