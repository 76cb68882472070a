// OPTIONS: /timeLimit:30
// Failing code expressions: the command that holds the code expression is reported, never the
// assertion inside it (its trace is the enclosing implementation's).
procedure OnePath(x: int)
{
  // the path through Neg returns false for x < 0
  assert |{ Start: goto Pos, Neg;
            Pos: assume x >= 0; return x >= 0;
            Neg: assume x < 0; return x > 0; }|;  // error
}

procedure Inside(x: int)
{
  // the inner assertion fails: the outer assert is reported
  assert |{ A: assert x > 0; return true; }|;  // error
}

procedure Needs(x: int);
  requires |{ var y: int; A: y := x * 2; return y > 2; }|;

procedure Caller()
{
  call Needs(2);
  call Needs(1);  // error
}

procedure Post(x: int) returns (r: int)
  ensures |{ A: return r > x; }|;
{
  r := x;
}  // error
