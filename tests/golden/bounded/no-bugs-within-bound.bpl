// OPTIONS: /main:main /recursionBound:3
// down(n) counts n to 0 by recursion; its claim holds at every depth inlined, and the bound
// cuts the recursion: Corral's "no bugs" plus the bound reached.
procedure down(n: int) returns (r: int)
  ensures r == 0;
{
  if (n <= 0) { r := 0; } else { call r := down(n - 1); }
}
procedure main()
{
  var z: int;
  call z := down(10);
  assert z == 0;
}
