// OPTIONS: /errorTrace:0
// `{:isolate}` is an attribute: misplaced as a command, it is a parse error.
procedure P(x: int)
{
  {:isolate} assert x > 0;
}
