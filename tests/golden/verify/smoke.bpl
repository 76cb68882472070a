// OPTIONS: /smoke
// Boogie's smoke test (/smoke): once an implementation verifies, `assert false` is tried at
// the end of each of its paths; where it verifies, the code there is unreachable and the path
// to it is printed (`found unreachable code:`), before the implementation's verdict.
// Worked out by hand:
// - Reachable: both arms of the `if` can run: nothing reported.
// - Narrowed: `requires a >= 10` makes the arm `a < 3` dead: reported (the entry, the block
//   that branches, the dead arm ending in the added `assert false`).
// - Intended: the dead arm already asserts `false`: the program expects it, nothing reported.
// - Doomed: with `m > 0` assumed, the arm `m < 0` is dead; its call of Stop (which ensures
//   false) is where Boogie tests it, with the commands before the call: reported.
// - Counted: inside the loop, `k > n` cannot hold right after `k := k + 1` under the guard
//   `k < n`: that arm is reported, with the loop as loop cutting left it.
// Every implementation verifies: 5 verified (Stop has no body, so it is not one).

procedure Reachable(a: int) returns (r: int)
{
  if (a < 0) { r := 0 - a; } else { r := a; }
}

procedure Narrowed(a: int) returns (r: int)
  requires a >= 10;
{
  if (a < 3) { r := 1; } else { r := 2; }
}

procedure Intended(a: int) returns (r: int)
  requires a >= 10;
{
  if (a < 3) { assert false; } else { r := 2; }
}

procedure Stop();
  ensures false;

procedure Doomed(m: int)
{
  assume m > 0;
  if (m < 0) { call Stop(); }
}

procedure Counted(n: int)
  requires n >= 0;
{
  var k: int;
  k := 0;
  while (k < n)
    invariant k <= n;
  {
    k := k + 1;
    if (k > n) { k := 0; }
  }
}
