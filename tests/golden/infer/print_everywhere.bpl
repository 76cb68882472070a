// OPTIONS: /infer:j /instrumentInfer:e /printInstrumented /noVerify
// Every block gets the interval invariant at its entry and at its exit, printed as Boogie
// prints them. Worked out by hand (variables in declaration order: the global g, the local x,
// then the in-parameter b, which Boogie copies after the locals of a procedure declared with
// its body):
// - anon0: true on entry; x == 5 after x := 5.
// - anon3_Then (b holds): x := 7, g := 7: g == 7 && x == 7 && b.
// - anon3_Else (b fails): x is havocked, then 0 <= x < 3: 0 <= x && x < 3 && !b.
// The blocks print in Boogie's order (a walk with a stack from the entry: the else branch
// first), the loop head of Loop marked as a cut point; its counter stays in [0, 11).

var g: int;

procedure Branch(b: bool)
  modifies g;
{
  var x: int;
  x := 5;
  if (b) {
    x := x + 2;
    g := x;
  } else {
    havoc x;
    assume x >= 0 && x < 3;
  }
}

procedure Loop()
{
  var i: int;
  i := 0;
  while (i < 10)
  {
    i := i + 1;
  }
}
