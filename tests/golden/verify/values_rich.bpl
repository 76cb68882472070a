// OPTIONS: --format rich
// Beyond Boogie: the rich format shows, under the errors, the counterexample's values of the
// implementation's inputs and of the variables the failing check reads. Worked out by hand:
// `a + b == 10` with both at least 5 forces a = b = 5, so `a * b < 25` fails with a = 5,
// b = 5 and the product 25; the postcondition's check reads r, which is a * b = 25.
procedure Product(a: int, b: int) returns (r: int)
  requires a >= 5 && b >= 5 && a + b == 10;
  ensures r < 25;
{
  r := a * b;
}
