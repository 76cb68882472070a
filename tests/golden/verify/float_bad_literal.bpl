// Float literals Boogie's parser rejects, each "incorrectly formatted floating point" at the
// literal: a value that needs rounding, one beyond the largest single (infinity is written
// 0+oo24e8), one that rounds to zero, and sizes of 1 (both must exceed 1).
// Expected: 5 parse errors.
procedure P() returns (a: float24e8)
{
  a := 0x1.000001e0f24e8;     // error: 25 significant bits
  a := 0x1.0e32f24e8;         // error: 2^128
  a := 0x0.000004e-32f24e8;   // error: half the smallest subnormal ties to zero
  a := 0x0.000008e-32f24e8;   // the smallest subnormal
  a := 0x1.0e0f1e8;           // error: significand size 1
  a := 0NaN24e1;              // error: exponent size 1
  a := 0+oo24e8;
}
