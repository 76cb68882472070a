// OPTIONS: /timeLimit:30
// Encoding details Boogie shares: a {:define} function may use one declared after it; a
// function named like an SMT-LIB operator (store) is renamed; a free requires is assumed at a
// call only under {:always_assume}, in its place in the list; a literal `assert false` cuts
// the edges after it, so the goto below is no loop.
function {:define} positive(x: int) returns (bool) { twice(x) > 0 }
function {:define} twice(x: int) returns (int) { x + x }
function store(m: [int]int, i: int, v: int) returns ([int]int) { m[i := v] }

procedure Callee()
  free requires {:always_assume} false;
  requires false;
  free requires false;
{
}

procedure Caller(x: int) returns (r: [int]int)
  requires positive(x);
  ensures r[x] == 1;
{
  r := store(r, x, 1);
  call Callee();
}

procedure TightLoop()
{
  L:
    assert false;
    goto L;
}
