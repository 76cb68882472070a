// OPTIONS: /timeLimit:10
// EXIT: 2
// Each code expression's calls are inlined by an inliner of its own that counts inlining
// depths afresh (as Boogie's does). So when Count's body holds a code expression that calls
// Count, inlining Count brings in that code expression, whose inliner inlines Count again,
// and so on without end: before, the pass recursed until the stack overflowed and the
// process aborted. Now the call that would start the second round is refused, at the call
// in the code expression, and the run ends with exit code 2. Worked out by hand: in Count's
// own implementation, its code expression's inliner inlines Count; the copy's code expression
// calls Count while Count is still being inlined: refused at that call, line 18 column 28
// (the first implementation the pass meets).

var g: int;

procedure {:inline 1} Count() returns (r: int)
{
  r := g;
  assert |{ var x: int; A: call x := Count(); return x == r; }|;
}

procedure Main()
{
  assert |{ var y: int; A: call y := Count(); return y == g; }|;
}
