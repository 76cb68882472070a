// OPTIONS: /timeLimit:30
// Attributes that change what is checked: {:verified_under A} checks `A || e` (a literal
// true drops the check), on asserts and calls alike; {:selective_checking} checks only what
// follows `assume {:start_checking_here}`; an {:assumption} local starts out true and a
// havoc can only make it stronger.
procedure Needs(p: bool);
  requires p;

procedure VerifiedUnder(p: bool, q: bool, a: bool)
{
  assert {:verified_under a} p;  // error
  call {:verified_under a} Needs(q);  // error
  assert {:verified_under true} false;
}

procedure {:selective_checking} Selective(x: int, y: int)
{
  assert x < y;
  assume {:start_checking_here} true;
  assert x < y + 1;
  assert x > y;  // error
}

procedure Assumption(n: int)
{
  var {:assumption} a: bool;
  var before: bool;
  assert a;
  before := a;
  havoc a;
  assert a ==> before;
  a := a && 0 <= n;
  assert a;  // error
}
