// OPTIONS: /infer:j
// Loops without written invariants, checked with the interval invariants /infer:j finds at
// their heads. Worked out by hand:
// - Count: the head's state joins i == 0 with i + 1 under i < 100; widening rounds the upper
//   bound up to the threshold 101 (from `i < 100`), so 0 <= i < 101 holds at the head; after
//   the loop !(i < 100) leaves i == 100: the assertion holds.
// - Down: j starts at 10 and decreases while 0 < j; widening lowers the lower bound to the
//   thresholds 1, then 0 (from `0 < j`), so 0 <= j < 11 at the head; after the loop j <= 0,
//   so j == 0.
// - TooWeak: intervals cannot relate k and n; the head knows only 0 <= k, so k == n after the
//   loop is not proved (an error, as without inference).
// - Unbounded: m grows without a literal bound; widening drops the upper bound, keeps
//   1 <= m, which proves the assertion.
// Expected: 3 verified, 1 error (TooWeak's assertion).

procedure Count()
{
  var i: int;
  i := 0;
  while (i < 100)
  {
    i := i + 1;
  }
  assert i == 100;
}

procedure Down()
{
  var j: int;
  j := 10;
  while (0 < j)
  {
    j := j - 1;
  }
  assert j == 0;
}

procedure TooWeak(n: int)
  requires 0 <= n;
{
  var k: int;
  k := 0;
  while (k < n)
  {
    k := k + 1;
  }
  assert k == n;
}

procedure Unbounded()
{
  var m: int;
  m := 1;
  while (*)
  {
    m := m + m;
  }
  assert 1 <= m;
}
