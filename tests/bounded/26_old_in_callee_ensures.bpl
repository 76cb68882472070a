// `bump` ensures g == old(g) + 1 and its body does that: the inlined ensures holds, and so
// does main's claim g == 1.
// RUN: /recursionBound:1 => no bugs
var g: int;
procedure bump()
  modifies g;
  ensures g == old(g) + 1;
{
  g := g + 1;
}
procedure main()
  modifies g;
{
  g := 0;
  call bump();
  assert g == 1;
}
