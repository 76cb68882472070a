// The failing assertion sits behind `assume false`: no execution reaches it.
// RUN: /recursionBound:1 => no bugs
procedure main()
{
  var x: int;
  x := 1;
  if (x > 0) { return; }
  assume false;
  assert false;
}
