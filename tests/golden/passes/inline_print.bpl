// OPTIONS: /noVerify /printInlined
// Inlining as Boogie's /printInlined shows it: entry and exit blocks, renamed formals and
// locals, old() through copies, labels prefixed, return as a goto, nested calls to depth.
var g: int;

procedure {:inline 2} Inc(a: int) returns (r: int)
  requires a >= 0;
  modifies g;
  ensures r == a + 1;
{
  var t: int;
  t := a;
  if (t > 10) { r := t + 1; g := old(g); return; }
  L: r := t + 1;
  g := old(g) + 1;
}

procedure {:inline 1} Rec(n: int)
{
  if (n > 0) { call Rec(n - 1); }
}

procedure Main(x: int) returns (y: int)
  modifies g;
{
  call y := Inc(x);
  call Rec(x);
  while (*) { call y := Inc(y); }
}
