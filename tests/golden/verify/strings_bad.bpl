// Type errors with strings: a string where an int belongs, a regular expression compared
// with a string, and a builtin operator with an argument too many.
function {:builtin "str.len"} Size(s: string): int;
function {:builtin "str.indexof"} Find(s: string, t: string, from: int, extra: int): int;

procedure P(r: regex)
{
  assert Size("abc") == "3";
  assert r == "abc";
}
