// OPTIONS: /timeLimit:30
// Floats that verify, every assertion by the IEEE rules z3 and cvc5 implement: literals are
// exact values (a subnormal one rounded to nearest, ties to even), + - * / round to nearest,
// ties to even, == is SMT equality (NaN equals itself, the two zeros differ) while the
// builtin fp.eq is IEEE equality (NaN equals nothing, the zeros are equal).
// Expected: 5 verified, 0 errors.
type single = float24e8;

function {:builtin "fp.eq"} FEQ(single, single) returns (bool);
function {:builtin "fp.isNaN"} IsNaN(single) returns (bool);
function {:builtin "fp.isSubnormal"} IsSubnormal(single) returns (bool);
function {:builtin "fp.add"} Add(rmode, single, single) returns (single);
function {:builtin "fp.mul RTZ"} MulTowardZero(single, single) returns (single);
function {:builtin "(_ to_fp 8 24) RNE"} FromReal(real) returns (single);
function {:builtin "(_ to_fp 11 53)"} Widen(rmode, single) returns (float53e11);
function {:builtin "(_ fp.to_sbv 8)"} ToByte(rmode, single) returns (bv8);

procedure Literals()
{
  assert 0x1.8e0f24e8 * 0x2.0e0f24e8 == 0x3.0e0f24e8;   // 1.5 * 2 = 3
  assert 0x2.4e0f24e8 == FromReal(2.25);
  assert -0x0.8e0f24e8 == FromReal(-0.5);
  assert 0x0.ffffffe32f24e8 == FromReal(340282346638528859811704183484516925440.0);  // the largest single
  // 2^-149, the smallest subnormal; half of it ties to zero.
  assert IsSubnormal(0x0.000008e-32f24e8);
  assert 0x0.000008e-32f24e8 / 0x2.0e0f24e8 == 0x0.0e0f24e8;
  // 1.5 times the smallest subnormal is read as twice it (ties to even).
  assert 0x0.00000ce-32f24e8 == 0x0.000010e-32f24e8;
  assert 0x0.4e-31f24e8 == 0x4.0e-32f24e8;  // 2^-126 written two ways
}

procedure SpecialValues()
{
  assert IsNaN(0NaN24e8) && IsNaN(0nan24e8);
  assert 0NaN24e8 == 0nan24e8;
  assert !FEQ(0NaN24e8, 0NaN24e8);
  assert 0x0.0e0f24e8 != -0x0.0e0f24e8;
  assert FEQ(0x0.0e0f24e8, -0x0.0e0f24e8);
  assert 0-oo24e8 < -0x0.ffffffe32f24e8 && 0x0.ffffffe32f24e8 < 0+oo24e8;
  assert 0x0.ffffffe32f24e8 + 0x0.ffffffe32f24e8 == 0+oo24e8;  // overflow
  assert IsNaN(0+oo24e8 - 0+oo24e8);
}

procedure RoundingModes(rm: rmode)
{
  var m: rmode;
  // 1 + 2^-24 lies halfway between 1 and the next single, 1 + 2^-23.
  assert 0x1.0e0f24e8 + 0x1.0e-6f24e8 == 0x1.0e0f24e8;
  assert Add(RNE, 0x1.0e0f24e8, 0x1.0e-6f24e8) == 0x1.0e0f24e8;
  assert Add(RNA, 0x1.0e0f24e8, 0x1.0e-6f24e8) == 0x1.000002e0f24e8;
  m := roundTowardPositive;
  assert Add(m, 0x1.0e0f24e8, 0x1.0e-6f24e8) == 0x1.000002e0f24e8;
  m := RTN;
  assert Add(m, 0x1.0e0f24e8, 0x1.0e-6f24e8) == 0x1.0e0f24e8;
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: truncated, and rounded up by RNE.
  assert MulTowardZero(0x1.000002e0f24e8, 0x1.000002e0f24e8) == 0x1.000004e0f24e8;
  assert 0x1.000002e0f24e8 * 0x1.000002e0f24e8 == 0x1.000004e0f24e8;
  // -2.5 to a signed byte: -2 to even, -3 away from zero.
  assert ToByte(RNE, -0x2.8e0f24e8) == 254bv8;
  assert ToByte(RNA, -0x2.8e0f24e8) == 253bv8;
  assert rm == RNE || rm == RNA || rm == RTP || rm == RTN || rm == RTZ;
  assert roundNearestTiesToEven != roundNearestTiesToAway && RTZ == roundTowardZero;
}

procedure Doubles(x: single)
  requires !IsNaN(x);
{
  var d: float53e11;
  assert 0x1.0e0f53e11 + 0x1.0e-13f53e11 != 0x1.0e0f53e11;  // 1 + 2^-52 is a double
  d := Widen(RTZ, x);
  assert d == d && d <= d;  // widening keeps x a number
}

procedure InMaps(m: [single]single, x: single)
  requires (forall f: single :: m[f] == f + 0x1.0e0f24e8);
  requires x == 0x1.0e0f24e8;
{
  assert m[x] == 0x2.0e0f24e8;
  assert m[0NaN24e8] == 0NaN24e8;
}
