// OPTIONS: %s
// Verdicts after inlining: errors inside inlined code are found; inlined procedures are not
// verified on their own; /inline:assume cuts recursion at the depth with assume false.
var g: int;

procedure {:inline 1} SetG(v: int)
  modifies g;
{
  g := v;
  assert g != 7;  // fails when called with 7
}

procedure {:inline 2} Down(n: int) returns (r: int)
{
  if (n > 0) { call r := Down(n - 1); r := r + 1; } else { r := 0; }
}

procedure Caller()
  modifies g;
{
  call SetG(3);
  assert g == 3;
  call SetG(7);
}

procedure Depth()
{
  var r: int;
  call r := Down(1);
  assert r == 1;
  call r := Down(5);
  assert false;  // unreachable: depth 2 cuts Down(5) with assume false
}

procedure Wrong()
{
  var r: int;
  call r := Down(1);
  assert r == 2;  // fails
}
