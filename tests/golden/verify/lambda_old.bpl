// OPTIONS: /timeLimit:30
// `old` inside lambdas: `old(g)` is the value on entry wherever the lambda stands, a global
// outside `old` is the current value, and variables that are not global are the same under
// `old`. A lambda in a postcondition is checked at the return and assumed after a call.
var g: int;
var h: [int]int;

procedure Step()
  modifies g;
  ensures (lambda x: int :: old(g) + x)[1] == g;
{
  g := g + 1;
  assert (lambda x: int :: g - old(g))[0] == 1;
  assert (lambda x: int :: old(x + g))[1] == g;
  assert (lambda x: int :: old(g) == g)[0];  // error
}

procedure Twice()
  modifies g;
  ensures g == old(g) + 2;
{
  call Step();
  call Step();
}

procedure Write(i: int, v: int)
  modifies h;
  ensures (lambda j: int :: if j == i then v else old(h)[j]) == h;
{
  h[i] := v;
}

procedure Nested()
  modifies g;
{
  var m: [int][int]int;
  g := 5;
  m := (lambda x: int :: (lambda y: int :: old(g) + g + x + y));
  assert m[0][0] == old(g) + 5;
  assert m[0][0] == 10;  // error
}
