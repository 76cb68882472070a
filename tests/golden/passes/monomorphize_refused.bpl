// OPTIONS: %s
// Polymorphic procedures are not instantiated yet: the program is left as it is and vcgen
// refuses what uses them, rather than verifying it.
procedure {:inline 1} P<T>(x: T) returns (y: T) { y := x; }

procedure UsesP()
{
  var i: int;
  call i := P(3);
  assert i == 4;
}
