// OPTIONS: /coalesceBlocks:1
// The program of coalesce_blocks_off.bpl with coalescing on (the default, said explicitly):
// each chain of blocks is one block, so the traces name the first of each chain only.
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
