// OPTIONS: /inline:spec /printInlined
// Inlining renames a callee's bound variables with the call's prefix, as Boogie's inliner
// does (`inline$Zeroed$0$k`), in quantifiers and lets alike. Both implementations verify
// (under /inline:spec Zeroed is also checked on its own): the inlined body establishes `b`.
var m: [int]int;

procedure {:inline 1} Zeroed() returns (ok: bool)
{
  ok := (forall k: int :: { m[k] } 0 <= k && k < 4 ==> m[k] == 0) && (var k := 2; k + k == 4);
}

procedure Main()
  modifies m;
{
  var b: bool;
  m := m[0 := 0][1 := 0][2 := 0][3 := 0];
  call b := Zeroed();
  assert b;
}
