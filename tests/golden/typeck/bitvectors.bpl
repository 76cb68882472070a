// Bit-vector widths: literals, extracts, concatenation, inference through proxies.
function Id<T>(x: T): T;
procedure P(a: bv8, b: bv16) returns (c: bv32) {
  c := a;
  c := a ++ b;
  c := b ++ b;
  c := a[4:0] ++ b ++ a ++ a[4:1];
  c := a[9:1] ++ b;
  c := a[2:5] ++ b;
  c := 5 ++ b;
  c := Id(b ++ b);
  c := Id(b) ++ Id(b);
  c := 0bv31;
}
