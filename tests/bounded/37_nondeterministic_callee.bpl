// `pick` returns 1 or 2, chosen nondeterministically; its ensures (r > 0) holds on both
// paths. main's assertion x != 2 fails on the path where pick returns 2.
// RUN: /recursionBound:1 => bug at 10,3
procedure pick() returns (r: int) ensures r > 0; {
  if (*) { r := 1; } else { r := 2; }
}
procedure main() {
  var x: int;
  call x := pick();
  assert x != 2; // @BUG
}
