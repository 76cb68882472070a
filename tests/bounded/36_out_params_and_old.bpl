// Out-parameters and `old` through two instances of one callee: `set` returns the value it
// overwrites. After set(1, 20) and set(1, 30): a = 10, b = 20, h[1] = 30, and h[2] is
// unchanged since main's entry. Every assertion and ensures holds: no bugs, nothing cut.
// RUN: /recursionBound:1 => no bugs
var h: [int]int;
procedure set(i: int, v: int) returns (prev: int)
  modifies h;
  ensures prev == old(h)[i] && h == old(h)[i := v];
{
  prev := h[i];
  h[i] := v;
}
procedure main() modifies h; {
  var a, b: int;
  h[1] := 10;
  call a := set(1, 20);
  call b := set(1, 30);
  assert a == 10 && b == 20 && h[1] == 30;
  assert h[2] == old(h)[2];
}
