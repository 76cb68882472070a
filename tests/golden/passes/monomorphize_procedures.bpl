// OPTIONS: %s
// A polymorphic procedure is instantiated at the types of its calls (with its implementation
// when it is inlined), and a polymorphic implementation that is verified is verified at fresh
// uninterpreted types.
procedure {:inline 1} P<T>(x: T) returns (y: T) { y := x; }

procedure UsesP()
{
  var i: int;
  call i := P(3);
  assert i == 4;  // error
}

procedure Q<T>(x: T) returns (y: T);
  ensures y == x;

implementation Q<T>(x: T) returns (y: T)
{
  y := x;
}

procedure R<T>(x: T, z: T) returns (y: T)
  ensures y == x;
{
  y := z;  // error: z need not be x
}
