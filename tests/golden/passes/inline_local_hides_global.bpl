// OPTIONS: /timeLimit:10
// An inlined procedure whose implementation declares a local named as a global it modifies:
// inlining names the local's copy and the copy of the global's old value both
// inline$Local$0$g (Boogie's two variables share the name). rboogie resolves the output by
// name, so it reported an internal error after the pass; the old value's copy is now
// inline$Local$0$g$old. Worked out by hand: Local sets only its own g, so the global keeps
// the 1 Caller gave it: the first assertion holds, the second fails (0 verified, 1 error:
// Local, inlined, is not verified on its own).

var g: int;

procedure {:inline 1} Local()
  modifies g;
{
  var g: int;
  g := 5;
}

procedure Caller()
  modifies g;
{
  g := 1;
  call Local();
  assert g == 1;
  assert g == 5;
}
