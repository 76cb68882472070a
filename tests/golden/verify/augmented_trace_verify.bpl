// OPTIONS: /enhancedErrorMessages:1
// {:print} attributes on a procedure that verifies: nothing is printed, and the attributes
// change nothing (a call and an assignment carry them too). Expected: 2 verified.
var g: int;

procedure Inc() modifies g; ensures g == old(g) + 1;
{
  g := {:print "g = ", g} g + 1;
}

procedure Main() modifies g;
{
  g := 0;
  call {:print "calling with g = ", g} Inc();
  assert {:print "g = ", g} g == 1;
}
