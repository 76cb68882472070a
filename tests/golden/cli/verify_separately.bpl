// OPTIONS: /verifySeparately %s %S/Inputs/separately_second.bpl
// /verifySeparately: each file is a program of its own, closed with its own line. Both files
// declare P: together they would be one program declaring P twice (a resolution error).
// Worked out by hand:
// - this file: P verifies (x is 1 after the assignment); Q fails, as y may be 0 or less: its
//   assertion is reported with a one-block trace; closing line: 1 verified, 1 error;
// - Inputs/separately_second.bpl: its P verifies; closing line: 1 verified, 0 errors;
// - exit code 0, as Boogie's when it reported the errors itself.
procedure P()
{
  var x: int;
  x := 1;
  assert x == 1;
}

procedure Q(y: int)
{
  assert y > 0;
}
