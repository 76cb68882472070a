// `wrapper` checks nothing itself but calls `check`, which asserts: wrapper can fail, through
// its callee, and the search must not treat its open call site as one that cannot fail.
// check(7) fails.
// RUN: /recursionBound:1 => bug at 5,27
procedure check(x: int) { assert x != 7; } // @BUG
procedure wrapper(x: int) { call check(x); }
procedure main() { call wrapper(3); call wrapper(7); }
