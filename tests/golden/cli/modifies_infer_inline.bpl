// OPTIONS: /doModSetAnalysis %s
// GPUVerify's pattern: `{:inline 1}` procedures that log accesses into globals, and no
// modifies clause anywhere. Modifies inference gives Log and Kernel their frames (count,
// last); inlining then copies Log's body into Kernel twice, with `old(count)` taken at each
// call. Log itself is not verified on its own (it is inlined), so one implementation is
// checked: both calls' `ensures` hold, count is 2 and last is x + 1 after them, and the last
// assertion fails (the second call logged x + 1, not x): 0 verified, 1 error.
var count: int;
var last: int;

procedure {:inline 1} Log(v: int)
  ensures count == old(count) + 1;
{
  count := count + 1;
  last := v;
}

procedure Kernel(x: int)
  requires count == 0;
{
  call Log(x);
  call Log(x + 1);
  assert count == 2;
  assert last == x + 1;
  assert last == x;  // error
}
