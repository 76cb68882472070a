// `bump` adds 1 to g; three calls from g = 0 leave 3, so g == 2 fails.
// RUN: /recursionBound:1 => bug at 10,3
var g: int;
procedure bump() modifies g; { g := g + 1; }
procedure main()
  modifies g;
{
  g := 0;
  call bump(); call bump(); call bump();
  assert g == 2; // @BUG
}
