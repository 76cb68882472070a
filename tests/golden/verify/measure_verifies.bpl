// OPTIONS: /timeLimit:30
// Termination measures that do decrease: every procedure verifies.
var fuel: int;

// A recursive procedure: the argument goes down and stays non-negative.
procedure Countdown(k: int)
  measure k;
{
  if (k > 0) {
    call Countdown(k - 1);
  }
}

// Mutual recursion with a lexicographic measure: the first component stays put while the
// second goes down, and a bool component counts false below true.
procedure Ping(a: int, b: bool)
  measure a, b;
{
  if (b && a >= 0) {
    call Pong(a, false);
  }
}

procedure Pong(a: int, b: bool)
  measure a, b;
{
  if (a > 0) {
    call Ping(a - 1, true);
  }
}

// A loop whose measure is a global it decrements. Its `fuel >= 0` is checked at the loop
// head like an invariant (so it needs the precondition) and assumed there.
procedure Burn()
  requires fuel >= 0;
  modifies fuel;
{
  while (fuel > 0)
    measure fuel;
  {
    fuel := fuel - 1;
  }
}

// Two components: the outer count goes down, or stays and the inner one goes down.
procedure Nested(n: int)
  requires n >= 0;
{
  var i: int;
  var j: int;
  i := n;
  j := n;
  while (i > 0)
    invariant i >= 0 && j >= 0;
    measure i, j;
  {
    if (j > 0) {
      j := j - 1;
    } else {
      i := i - 1;
      j := n;
    }
  }
}
