// A constant-bounded loop in a callee: fill(k) counts k up to 3 starting from 0, so the loop
// runs 3 times and fill returns 3; main's assertion r != 3 then fails. With bound 1 and no
// static bound, no path leaves fill's loop: no bugs within the bound. /maxStaticLoopBound:4
// bounds the loop at 3 iterations in fill's own copy (stratified inlining's template, or the
// copy inlined into main).
// RUN: /recursionBound:1 => no bugs within the bound
// RUN: /recursionBound:1 /maxStaticLoopBound:4 => bug at 17,3
procedure fill() returns (r: int) {
  r := 0;
  while (r < 3) {
    r := r + 1;
  }
}
procedure main() {
  var r: int;
  call r := fill();
  assert r != 3; // @BUG
}
