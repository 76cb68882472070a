// OPTIONS: %s
// Statement ids ({:id "..."}) must be unique in the program as written, but inlining copies
// a callee's statements with their attributes: `Bump` is inlined at two calls, so its `bump`
// assertion and its `bumped` ensures occur twice in `Twice`. That is not an error (Boogie
// inlines after resolution and never resolves the result again).
//
// Expected, worked out by hand:
// - `Twice`: x = 1, then Bump(1) (asserts 1 >= 0, returns 2), then Bump(2) (asserts 2 >= 0,
//   returns 3); `x == 3` holds: verified.
// - `Wrong`: Bump(0 - 1) asserts -1 >= 0: the inlined `bump` assertion fails, reported at
//   its line (17) with the trace through the inlined block.
// - `Bump` itself is {:inline 1}: not verified on its own.
// So 1 verified, 1 error.
procedure {:inline 1} Bump(v: int) returns (w: int)
  ensures {:id "bumped"} w == v + 1;
{
  assert {:id "bump"} v >= 0;
  w := v + 1;
}

procedure Twice()
{
  var x: int;
  x := 1;
  call x := Bump(x);
  call x := Bump(x);
  assert {:id "three"} x == 3;
}

procedure Wrong()
{
  var x: int;
  call x := Bump(0 - 1);
}
