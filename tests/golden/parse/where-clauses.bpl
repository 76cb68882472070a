// Where clauses are allowed on globals, locals and procedure formals, and refused on
// implementation formals, bound variables and datatype fields.
var g: int where g >= 0;
procedure Inc(n: int where n > 0) returns (m: int where m > n);
implementation Inc(n: int where n > 0) returns (m: int)
{
  var t: int where t == 0;
  m := n + 1;
}
axiom (forall k: int where k > 0 :: k + 1 > 1);
datatype Pair { MkPair(first: int where first > 0, second: int) }
