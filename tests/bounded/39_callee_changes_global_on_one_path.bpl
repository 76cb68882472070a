// `maybe` assigns g on one branch only; on the other g keeps the caller's value, which the
// caller's instance must see unchanged. g == 1 after maybe(false), g == 7 after maybe(true).
// RUN: /recursionBound:1 => no bugs
var g: int;
procedure maybe(b: bool) modifies g; { if (b) { g := 7; } }
procedure main() modifies g; {
  g := 1;
  call maybe(false);
  assert g == 1;
  call maybe(true);
  assert g == 7;
}
