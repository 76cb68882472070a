// OPTIONS: /timeLimit:30
// Float properties that do not hold; each marked assertion fails, the others verify.
// Expected: 5 errors; Modes is the one procedure that verifies.
type single = float24e8;

function {:builtin "fp.eq"} FEQ(single, single) returns (bool);
function {:builtin "fp.isNaN"} IsNaN(single) returns (bool);

procedure Reflexive(x: single)
{
  assert x == x;
  assert x <= x;  // error: NaN is not below or equal to itself
}

procedure Associative(a: single, b: single, c: single)
  requires !IsNaN(a) && !IsNaN(b) && !IsNaN(c);
{
  assert (a + b) + c == a + (b + c);  // error: the roundings differ
}

procedure Cancellation()
{
  var big: single;
  var r: single;
  big := 0x1.0e10f24e8;  // 2^40
  r := (big + 0x1.0e0f24e8) - big;
  assert r == 0x1.0e0f24e8;  // error: 2^40 + 1 rounds to 2^40, so r is 0
}

procedure SignedZero(x: single)
  requires FEQ(x, 0x0.0e0f24e8);
{
  assert x == 0x0.0e0f24e8;  // error: x may be -0
}

procedure Modes(rm: rmode)
{
  assert rm != RTZ || rm == roundTowardZero;
}

procedure NotZero(rm: rmode)
{
  assert rm != RTZ;  // error: rm may be RTZ
}
