// OPTIONS: /print:- /env:0 /noVerify
// Boogie's printer moves the token of every command and expression it prints to its place in
// the printed text (file `<console>` for stdout). Type errors found after the print name those
// places, one column less (as Boogie reports type errors): the ill-typed addition where the
// expression starts, after `assert `. The bad assignment is reported at its left-hand side,
// whose token the print does not move (Boogie prints the variable, another node, in its
// place), so that error stays in this file.
procedure p(x: int)
{
  var b: bool;
  assert x + true > 0;
  b := x;
}
