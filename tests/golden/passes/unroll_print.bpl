// OPTIONS: /noVerify /loopUnroll:2 /printInstrumented
// Unrolling as Boogie does it on the block graph: every block copied once per level and
// labeled `label#level`, a back edge going one level down, code after a loop shared by all
// levels (`#2`), the loop head cut at level 0 (its invariant kept, then `assume false`), a
// block stopping at `assume false` left without successors, nested loops unrolled as one
// component, and a jump into the middle of a loop (irreducible) handled like any other edge.

procedure WhileLoop(n: int) returns (s: int)
{
  var i: int;
  i, s := 0, 0;
  while (i < n)
    invariant 0 <= i;
  {
    s := s + i;
    i := i + 1;
  }
  assert s >= 0;
}

procedure GotoLoop()
{
  var x: int;
  Start:
    x := 0;
    goto Head, Dead;
  Dead:
    x := 7;
    assume false;
    x := 8;
    goto Head;
  Head:
    goto Body, Exit;
  Body:
    x := x + 1;
    goto Head;
  Exit:
    return;
}

procedure Nested()
{
  var i, j: int;
  i := 0;
  while (i < 2)
  {
    j := 0;
    while (j < 2)
    {
      j := j + 1;
    }
    i := i + 1;
  }
}

procedure IntoTheMiddle(b: bool)
{
  var x: int;
  Entry:
    x := 0;
    goto A, B;
  A:
    x := x + 1;
    goto B;
  B:
    x := x + 2;
    goto A, Out;
  Out:
    return;
}
