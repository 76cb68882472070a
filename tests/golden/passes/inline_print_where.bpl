// OPTIONS: /noVerify /print:- /env:0 /printInlined
// Under /printInlined, /print shows the program after type checking, bodies as blocks, with
// Boogie's spacing (a blank line before each block, two after each procedure and
// implementation); the program after inlining also shows a local's where clause after each
// variable a havoc names, as Boogie prints a resolved havoc.
procedure {:inline 1} Fresh() returns (r: int)
{
  var t: int where t > 0;
  havoc t;
  r := t;
}

procedure Main()
{
  var k: int;
  call k := Fresh();
}
