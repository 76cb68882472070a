// OPTIONS: /timeLimit:30 --solver cvc5
// Under cvc5: `to_fp` of an integer (a z3 extension Boogie programs use through `{:builtin}`)
// is sent as `to_fp` of the same value as a real, and floats of other sizes than 32 and 64
// bits are accepted (rboogie starts cvc5 with --fp-exp).
// By hand: 5 converts exactly to 5.0 in both formats; in float11e5 (half precision) 1 + 1 is
// 2 exactly and 3 is 3.0. The last assertion, that 0.1 + 0.2 == 0.3 in float53e11, is false
// (rounding). So 1 verified, 1 error.
function {:builtin "(_ to_fp 8 24) RNE"} IntToFloat32(int) returns (float24e8);
function {:builtin "(_ to_fp 11 53) RNE"} IntToFloat64(int) returns (float53e11);
function {:builtin "(_ to_fp 5 11) RNE"} IntToHalf(int) returns (float11e5);
function {:builtin "fp.add RNE"} AddHalf(float11e5, float11e5) returns (float11e5);
function {:builtin "fp.add RNE"} Add64(float53e11, float53e11) returns (float53e11);
function {:builtin "(_ to_fp 11 53) RNE"} RealToFloat64(real) returns (float53e11);

procedure Exact()
{
  assert IntToFloat32(5) == 0x5.0e0f24e8;
  assert IntToFloat64(5) == 0x5.0e0f53e11;
  assert AddHalf(IntToHalf(1), IntToHalf(1)) == IntToHalf(2);
  assert IntToHalf(3) == 0x3.0e0f11e5;
}

procedure Rounding()
{
  assert Add64(RealToFloat64(0.1), RealToFloat64(0.2)) == RealToFloat64(0.3);
}
