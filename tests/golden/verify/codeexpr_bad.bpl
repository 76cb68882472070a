// OPTIONS: /timeLimit:30
// Code expressions rboogie cannot encode: reported as not supported for the implementation
// (inconclusive), never verified: a loop among the blocks, an assignment to a variable of the
// enclosing implementation, and a call.
procedure Loop(x: int)
{
  assert |{ var i: int; A: i := 0; goto B; B: i := i + 1; goto B, C; C: return i > 0; }|;
}

procedure Outer(x: int)
{
  var y: int;
  assert |{ A: y := x; return y == x; }|;
}

procedure Callee() returns (r: int);

procedure Call()
{
  assert |{ var r: int; A: call r := Callee(); return true; }|;
}
