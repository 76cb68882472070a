// OPTIONS: -typeEncoding:p %s
// Under /typeEncoding:p Boogie encodes types instead of monomorphizing: the monomorphizer leaves
// the program as it is and type erasure encodes it (the false assertion is still found).
var H: <a>[int]a;

procedure M()
  modifies H;
{
  H[1] := 3;
  assert H[1] == 4;
}
