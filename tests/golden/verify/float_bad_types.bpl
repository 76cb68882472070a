// Float type errors, in Boogie's words: formats must match exactly, floats mix with no other
// type, and unary minus and rounding-mode arithmetic do not exist.
// Expected: 7 type checking errors.
function {:builtin "(_ to_fp 8 24) RNE"} FromReal(real) returns (float24e8);

procedure P(x: float24e8, y: float53e11, rm: rmode) returns (z: float24e8)
{
  z := y;                        // error: cannot assign float53e11 to float24e8
  z := x + y;                    // error: binary operator + on float24e8 and float53e11
  z := -x;                       // error: unary minus
  z := x * 0x1.0e0f53e11;        // error: the literal is a double
  z := FromReal(x);              // error: real expected
  assert x < 0x1.0e0f24e8;
  assert rm <= RNE;              // error: rounding modes have no order
  z := x + 1.0;                  // error: float and real
}
