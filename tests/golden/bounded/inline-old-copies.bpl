// OPTIONS: /main:Main /k:1 /noVerify --print-after=inline
// Bounded mode inlines every call into the entry point. The callee modifies three globals
// but reads only `a` under `old` (in its postcondition) and `b` under `old` (in its body):
// the copy's Entry keeps the two copies that stand for `old(a)` and `old(b)` and drops the one
// for `c`, a local that nothing reads (Boogie's own inliner, and rboogie's outside bounded
// mode, copy every modified global). By hand: Main's body is Entry (n := 1, the copies of a
// and b), the callee's block with `old(b)` read through its copy, and Return with the
// postcondition asserted against the copy of a.
var a: int;
var b: int;
var c: int;

procedure Bump(n: int)
  modifies a, b, c;
  ensures a == old(a) + n;
{
  a := a + n;
  b := old(b);
  c := 0;
}

procedure Main()
  modifies a, b, c;
{
  call Bump(1);
  assert a > old(a);
}
