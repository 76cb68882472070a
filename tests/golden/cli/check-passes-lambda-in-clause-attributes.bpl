// OPTIONS: --check-passes
// A lambda in the attributes of a requires or ensures clause. Boogie resolves such attributes
// but never type-checks them (an ill-typed one is no error). The lambdas in them still have
// to get types: lambda lifting makes each a function of that type, and the prelude declares
// it. (They had none: the lifted function's result was an unfilled type, and VC generation
// panicked declaring it.)
//
// Expected, by hand: P has no body; Q calls P, whose precondition `0 < x` holds of 1, and
// assumes its postcondition `r == x + 1`, so `r == 2` holds: 1 verified, no errors.
procedure P(x: int) returns (r: int);
  requires {:note (lambda w: int :: w + x)} 0 < x;
  ensures {:note (lambda w: int :: w < r)} r == x + 1;

procedure Q()
{
  var r: int;
  call r := P(1);
  assert r == 2;
}
