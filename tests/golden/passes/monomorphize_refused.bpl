// OPTIONS: -typeEncoding:p %s
// Under /typeEncoding:p Boogie encodes types instead of monomorphizing: the program is left as
// it is and vcgen refuses what is polymorphic, rather than verifying it differently.
var H: <a>[int]a;

procedure M()
  modifies H;
{
  H[1] := 3;
  assert H[1] == 4;
}
