// OPTIONS: /vcsSplitOnEveryAssert
// One VC per assertion; each is checked with the assertions before it assumed, so the
// second assertion may rely on the first, and both branches verify.
procedure Clamp(x: int) returns (r: int)
  ensures 0 <= r && r <= 10;
{
  if (x < 0) {
    r := 0;
  } else if (x > 10) {
    r := 10;
  } else {
    r := x;
    assert r >= 0;
    assert r + 1 > 0;
  }
}
