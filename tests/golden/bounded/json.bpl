// OPTIONS: /main:main --format json
// --format json in bounded mode: the entry point's verdict event (its trace with the inlined
// blocks' labels), then the bounded verdict, then the closing event.
procedure twice(x: int) returns (r: int) { r := x + x; }
procedure main()
{
  var y: int;
  call y := twice(3);
  assert y == 5;
}
