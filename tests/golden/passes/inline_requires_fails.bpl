// OPTIONS: /timeLimit:10
// An inlined callee's precondition is asserted at the call as Boogie's inliner asserts it
// (an AssertRequiresCmd): its failure is reported as the call's precondition's, with the
// requires as the related location, and each requires is a check of its own. Before, they
// were plain assertions at the call, and the requires of one call shared one check, so one
// failure hid the others. Worked out by hand: in Caller the first requires holds (m >= 0) and
// the second fails (m may be odd); in Doubled the second holds (2 * m is even) and the first
// fails (m may be negative): 0 verified, 2 errors.

procedure {:inline 1} Half(n: int) returns (r: int)
  requires n >= 0;
  requires n mod 2 == 0;
{
  r := n div 2;
}

procedure Caller(m: int) returns (r: int)
  requires m >= 0;
{
  call r := Half(m);
}

procedure Doubled(m: int) returns (r: int)
{
  call r := Half(2 * m);
}
