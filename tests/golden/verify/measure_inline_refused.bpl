// OPTIONS: /timeLimit:30
// EXIT: 2
// Inlining a procedure with a measure is refused (the program is not verified), never done
// without its checks: Boogie would assert the callee's `requires k >= 0` at the inlined call,
// which fails here.
procedure {:inline 1} Down(k: int)
  measure k;
{
  if (k > 0) {
    call Down(k - 1);
  }
}

procedure UsesDown()
{
  call Down(-1);  // would violate Down's measure precondition
}
