// Attributes: expressions in them are checked; :verified_under and :minimize want
// particular types.
const k: int;
const {:note k && true} n: int;
procedure P() {
  var {:assumption} a: int;
  assert {:verified_under k} true;
  assert {:verified_under true} true;
  assume {:minimize true} true;
  assume {:maximize k} true;
}
