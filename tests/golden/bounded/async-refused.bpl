// OPTIONS: /main:main
// EXIT: 1
// A concurrent program is refused in bounded mode until sequentialization lands, never
// checked as if it were sequential.
var g: int;
procedure worker() modifies g; { g := 1; }
procedure main()
  modifies g;
{
  async call worker();
  assert g == 0;
}
