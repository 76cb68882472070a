// The entry point's own ensures is checked too: main promises r == 1 and returns 2.
// RUN: /recursionBound:1 => bug at 7,3
procedure main() returns (r: int)
  ensures r == 1;
{
  r := 2;
  return; // @BUG
}
