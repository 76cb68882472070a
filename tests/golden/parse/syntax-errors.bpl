// A syntax error names the token Boogie needed; parsing goes on as if it had been there.
procedure Sum(a: int, b: int) returns (s: int)
{
  s := a + b
}
