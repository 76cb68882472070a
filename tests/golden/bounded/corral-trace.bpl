// OPTIONS: /main:main /recursionBound:2
// Corral's verdict and console trace: main calls inc twice; the second call's assertion
// fails (g = 3 + 5 = 8 is not below 6). The trace indents inlined code by the call stack
// and shows each call and return.
var g: int;
procedure inc(x: int) returns (y: int)
  modifies g;
{
  y := x + 1;
  g := g + y;
  assert g < 6;
}
procedure main()
  modifies g;
{
  var a: int;
  g := 0;
  call a := inc(2);
  call a := inc(a + 1);
}
