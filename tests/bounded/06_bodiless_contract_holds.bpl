// `pos` has no body: the call havocs r and assumes the ensures, so r > 0 holds after it.
// No recursion, no loop: the answer is a proof.
// RUN: /recursionBound:1 => no bugs
// RUN: /recursionBound:3 => no bugs
procedure pos() returns (r: int);
  ensures r > 0;
procedure main()
{
  var x: int;
  call x := pos();
  assert x > 0;
}
