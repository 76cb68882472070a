// OPTIONS: /printModel:1 /printModelToFile:target/tmp/golden-models.txt
// `/printModelToFile:FILE` sends the models `/printModel:1` prints after each trace to FILE:
// the console shows the two errors and their traces with no model. (What the file holds is
// checked in tests/pipeline_options.rs: the models `/printModel:1` alone prints, in order.)
// Worked out by hand: Bump returns x + 1, which is not above x + 1 (the postcondition fails
// on its one path); Check asserts its parameter, which may be false; Fine verifies.
procedure Bump(x: int) returns (y: int)
  ensures y > x + 1;
{
  y := x + 1;
}

procedure Check(a: bool)
{
  assert a;
}

procedure Fine(n: int) returns (m: int)
  ensures m == n;
{
  m := n;
}
