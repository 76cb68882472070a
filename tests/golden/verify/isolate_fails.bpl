// OPTIONS: /errorTrace:0
// `{:isolate "paths"}`: one VC per choice at each `{:allow_path_isolation}` branch. In
// `Pick`, the assertion on line 14 fails on two of the three paths: two errors counted, shown
// once (as Boogie). In `Leave`, the isolated return's VC fails and the error is placed at the
// return's attribute (line 25, column 21: Boogie's token is the attribute's closing brace);
// the rest of `Leave` verifies. 3 errors in all.
procedure Pick(c: int) returns (v: int)
{
  if {:allow_path_isolation} (c == 0) {
    v := 1;
  } else if {:allow_path_isolation} (c == 1) {
    v := 2;
  } else {
    v := 3;
  }
  assert {:isolate "paths"} v == 2;
}

procedure Leave(k: int) returns (s: int)
  ensures s > 0;
{
  s := 1;
  if (k < 0) {
    s := s - 1;
    return {:isolate};
  }
  s := s + 1;
}
