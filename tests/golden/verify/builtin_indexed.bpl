// OPTIONS: /timeLimit:30
// Builtin strings as C and GPU front ends write them: Simplify's spaced indexes
// ("zero_extend 31") must reach the solver as SMT-LIB's indexed identifiers, or the solver
// rejects the query and the failing assertion below goes unreported.
function {:bvbuiltin "zero_extend 31"} ZEXT1_32(bv1) : bv32;
function {:bvbuiltin "sign_extend 24"} SEXT8_32(bv8) : bv32;
function {:bvbuiltin "(_ zero_extend 24)"} ZEXT8_32(bv8) : bv32;
function {:bvbuiltin "extract 15 8"} BYTE1(bv32) : bv8;
function {:bvbuiltin "bvadd"} ADD32(bv32, bv32) : bv32;
function {:builtin "bv2int"} TO_INT(bv8) : int;

// Verifies: a zero-extended bit is 0 or 1; sign- and zero-extension agree on 0..127;
// byte 1 of a zero-extended byte is 0; bv2int (z3's name) is bv2nat, which is below 256.
procedure Verifies(b: bv1, c: bv8)
{
  assert ZEXT1_32(b) == 0bv32 || ZEXT1_32(b) == 1bv32;
  assert TO_INT(c) < 128 ==> SEXT8_32(c) == ZEXT8_32(c);
  assert BYTE1(ZEXT8_32(c)) == 0bv8;
  assert TO_INT(c) < 256;
}

// Fails at the second assertion: sign-extending 255bv8 gives all ones, 4294967295bv32,
// and adding 1 wraps to 0, so the first holds and the second does not.
procedure Fails()
{
  assert ADD32(SEXT8_32(255bv8), 1bv32) == 0bv32;
  assert SEXT8_32(255bv8) == ZEXT8_32(255bv8);
}
