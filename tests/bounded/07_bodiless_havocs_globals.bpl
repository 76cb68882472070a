// `touch` has no body and modifies g with no ensures: after the call g may be anything,
// so g == 0 can fail.
// RUN: /recursionBound:1 => bug at 12,3
var g: int;
procedure touch();
  modifies g;
procedure main()
  modifies g;
{
  g := 0;
  call touch();
  assert g == 0; // @BUG
}
