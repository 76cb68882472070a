// OPTIONS: /fieldAbstraction --print-after=field-abstraction
// Abstract(P, F) with F = {Flag}, the field the assertion mentions (Buf and Cnt are untracked):
// - `r := Buf[i]` reads an untracked field: `havoc abs$Buf` comes first and the read is of
//   the local, so every read sees a fresh value;
// - `Buf[i] := r + 1` and `havoc Buf` write an untracked field: dropped, a mark left;
// - `Cnt[i], r := Cnt[i] + 1, Cnt[i]`: the field's target is dropped, `r` keeps its value,
//   which reads the fresh `abs$Cnt`;
// - `old(Buf[i])` reads its own fresh local, `abs$old$Buf`;
// - Flag's accesses stay as they are.
// The abstraction verifies at once, so the loop ends after one iteration with {Flag} tracked,
// and the body is printed as blocks (the form the pass leaves it in).
var Flag: [int]bool;
var Buf: [int]int;
var Cnt: [int]int;

procedure P(i: int) returns (r: int)
  modifies Flag, Buf, Cnt;
{
  r := Buf[i];
  Buf[i] := r + 1;
  Cnt[i], r := Cnt[i] + 1, Cnt[i];
  havoc Buf;
  r := r + old(Buf[i]);
  Flag[i] := true;
  assert Flag[i];
}
