// OPTIONS: /coalesceBlocks:0
// `/coalesceBlocks:0` turns off Boogie's BlockCoalescer: a block that is its predecessor's
// only successor and has no other predecessor stays a block of its own, so the traces name
// it. (By default `anon0` and `L` below are one block, and the trace shows `anon0` alone;
// see coalesce_blocks_default.bpl, the same program.)
// Worked out by hand:
// - Chain: y = x + 1 and x is unconstrained, so `y > 1` fails; the path is anon0 (the
//   assignment, line 13), then L (its label, line 15).
// - Caller: the callee's body is inlined with its blocks as they are (Start, then Next, not
//   merged); `r == 5` fails since r = a + 2 for any a. Its trace goes through the copies.
procedure Chain(x: int)
{
  var y: int;
  y := x;
  goto L;
L:
  y := y + 1;
  assert y > 1;
}

procedure {:inline 1} Callee(a: int) returns (r: int)
{
Start:
  r := a + 1;
  goto Next;
Next:
  r := r + 1;
}

procedure Caller(a: int)
{
  var r: int;
  call r := Callee(a);
  assert r == 5;
}
