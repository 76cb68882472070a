// Label errors found while forming blocks.
procedure Jumps(n: int)
{
  goto Nowhere;
  Top:
  if (n > 0) {
    break;
  }
  while (*) {
    Inner: assume n > 1;
    while (*) { break Inner; }
    break Top;
    break;
  }
  Done:
}
