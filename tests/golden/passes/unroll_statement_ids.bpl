// OPTIONS: /loopUnroll:4 %s
// Unrolling a loop copies its body and invariants once per iteration, with their statement
// ids ({:id "..."}): each id then occurs several times, which is not an error (Boogie unrolls
// after resolution and never resolves the result again).
//
// Expected, worked out by hand: i goes 0, 1, 2 through the body and leaves the loop at 3,
// within the 4 unrolled iterations. `Count` asserts i < 3 in the body and i == 3 after the
// loop: both hold on every path, verified. `Overshoot` asserts i < 2 in the body, which
// fails in the third iteration (i = 2): 1 error at line 30. So 1 verified, 1 error.
procedure Count()
{
  var i: int;
  i := 0;
  while (i < 3)
    invariant {:id "bound"} i <= 3;
  {
    assert {:id "body"} i < 3;
    i := i + 1;
  }
  assert {:id "after"} i == 3;
}

procedure Overshoot()
{
  var i: int;
  i := 0;
  while (i < 3)
    invariant {:id "bound2"} i <= 3;
  {
    assert {:id "body2"} i < 2;
    i := i + 1;
  }
}
