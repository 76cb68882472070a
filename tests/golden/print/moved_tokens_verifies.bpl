// OPTIONS: /print:- /env:0
// A program that verifies: the print moves its tokens, and nothing reports them; the run
// ends with Boogie's closing line, 2 verified.
function double(x: int) : int { x + x }

procedure twice(x: int) returns (y: int)
  ensures y == double(x);
{
  y := x + x;
}

procedure caller()
{
  var r: int;
  call r := twice(3);
  assert r == 6;
}
