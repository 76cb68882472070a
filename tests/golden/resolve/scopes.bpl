// OPTIONS: /noTypecheck
// Names that are not in scope where they are used.
var G: int;

procedure P(x: int where x < y, y: int) returns (r: int where r > x && q == 0);
  requires r == 0;
  ensures r == x;
  modifies x, Nowhere;

implementation P(x: int, y: int) returns (r: int)
{
  var loc: int where loc < r;
  r := unknown(x);
  call Missing();
  havoc nothere;
}

implementation NoSuchProcedure() { }

function F(a: int): int { a + b }
