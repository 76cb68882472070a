// OPTIONS: /timeLimit:10
// Expressions nested down one side are encoded front to back (a chain of unary operators,
// a right-nested chain of binary ones, an else-if chain), in one buffer rather than by
// nesting each operand's text in the next (quadratic). The text must mean the same: each
// assertion's verdict is worked out by hand. Chains verifies; Wrong fails at its second and
// fourth assertions (2 errors).

procedure Chains(x: int, y: real, b: bool)
{
  // Four negations: b itself.
  assert !!!!b ==> b;
  // Three negations of a negative number: its opposite.
  assert x < 0 ==> - - -x > 0;
  // Right-nested implications, the inner ones under the outer hypotheses.
  assert x > 0 ==> x > 1 ==> x > 2 ==> x >= 3;
  // `!=` and `/` of integers (a real) at the levels of a right-nested chain.
  assert x != 0 ==> x != 1 ==> x / 2 != -0.5 ==> x * x >= 4;
  // Right-nested conjunctions and disjunctions.
  assert (x == 1 && (x + 1 == 2 && (x + 2 == 3 && x + 3 == 4))) || (x != 1 || (y == y || b));
  // An else-if chain.
  assert (if x == 0 then 10 else if x == 1 then 11 else if x == 2 then 12 else 13) >= 10;
  assert x == 2 ==> (if x == 0 then 10 else if x == 1 then 11 else if x == 2 then 12 else 13) == 12;
}

procedure Wrong(x: int, b: bool)
{
  assert !!!!!b ==> !b;
  // Error: three negations of b are !b.
  assert !!!b ==> b;
  assert x > 0 ==> x > 1 ==> x >= 2;
  // Error: x = 1 satisfies the first hypothesis and not the second's conclusion.
  assert x > 0 ==> x > 1;
}
