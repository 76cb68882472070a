// The second file of cli/verify_separately: it declares P again (a program of its own under
// /verifySeparately), and its P verifies: x is 2 after the assignment.
procedure P()
{
  var x: int;
  x := 2;
  assert x == 2;
}
