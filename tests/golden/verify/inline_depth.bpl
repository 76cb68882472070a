// OPTIONS: /timeLimit:30 /inlineDepth:2 %s
// /inlineDepth:N inlines every call to a procedure with an implementation N levels deep, with or
// without {:inline}; a call deeper than that becomes `assume false` (/inline:assume, the
// default), which makes what follows it vacuous.
var g: int;

procedure Inc()
  modifies g;
{
  g := g + 1;
}

procedure Twice()
  modifies g;
{
  call Inc();
  call Inc();
}

procedure Main()
  modifies g;
{
  g := 0;
  call Twice();
  assert g == 2;  // holds: Twice and, inside it, Inc are inlined
  call Twice();
  assert g == 3;  // error
}

procedure Rec(n: int) returns (r: int)
{
  if (n > 0) { call r := Rec(n - 1); r := r + 1; } else { r := 0; }
}

procedure UseRec()
{
  var r: int;
  call r := Rec(1);
  assert r == 1;  // holds: Rec(1) and Rec(0) are inlined
  call r := Rec(5);
  assert false;   // holds vacuously: the third level is cut with assume false
}
