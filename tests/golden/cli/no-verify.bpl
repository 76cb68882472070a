// OPTIONS: /noVerify
// Parsed (and, once they exist, resolved and type-checked), then Boogie's closing line.
procedure P(x: int) returns (y: int)
  requires x >= 0;
  ensures y > x;
{
  y := x + 1;
}
