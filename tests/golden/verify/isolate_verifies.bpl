// OPTIONS: /errorTrace:0
// `{:isolate}` on an assertion, `{:isolate "paths"}` under `{:allow_path_isolation}` branches
// and `{:isolate}` on a return: each gets VCs of its own, all of which hold, so both
// procedures verify (2 verified, 0 errors).
procedure Clamp(n: int) returns (m: int)
  ensures 0 <= m && m <= 10;
{
  if {:allow_path_isolation} (n < 0) {
    m := 0;
  } else if {:allow_path_isolation} (n > 10) {
    m := 10;
  } else {
    m := n;
  }
  assert {:isolate "paths"} m >= 0;
  assert {:isolate} m <= 10;
}

procedure Early(k: int) returns (s: int)
  ensures s >= k;
{
  s := k;
  if (k < 0) {
    s := s + 1;
    return {:isolate "paths"};
  }
  s := s * 2;
}
