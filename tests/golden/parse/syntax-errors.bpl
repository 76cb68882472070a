// Boogie stops at the first syntax error; it names the token it needed.
procedure Sum(a: int, b: int) returns (s: int)
{
  s := a + b
}
