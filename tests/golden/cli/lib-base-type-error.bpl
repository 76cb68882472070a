// OPTIONS: /noVerify /lib:base
// Library functions are checked like the program's own: Vec_Append wants an element of the
// vector's type, Set_Add a set as first argument, and Vec_Len has one parameter. Three
// type errors, at the calls in this file.
procedure Bad(v: Vec int, b: bool)
{
  var w: Vec int;
  w := Vec_Append(v, b);
  assert Set_Add(v, 1)[1];
  assert Vec_Len(v, 2) == 0;
}
