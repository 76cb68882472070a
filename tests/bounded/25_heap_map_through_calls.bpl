// `store` writes M[p] := v; main stores 1 at p and 2 at q, then claims M[p] == 1, which
// fails when p == q (nothing says they differ).
// RUN: /recursionBound:1 => bug at 11,3
var M: [int]int;
procedure store(a: int, v: int) modifies M; { M[a] := v; }
procedure main(p: int, q: int)
  modifies M;
{
  call store(p, 1);
  call store(q, 2);
  assert M[p] == 1; // @BUG
}
