// `ext` has no body: calls keep its contract (r > 0, anything else unknown). `mid` passes
// its result on. The first assertion (t > 0) follows from the contract; the second (t > 1)
// does not: ext may return 1.
// RUN: /recursionBound:1 => bug at 12,3
procedure ext() returns (r: int); ensures r > 0;
procedure mid() returns (s: int) { call s := ext(); }
procedure main() {
  var t: int;
  call t := mid();
  assert t > 0;
  call t := mid();
  assert t > 1; // @BUG
}
