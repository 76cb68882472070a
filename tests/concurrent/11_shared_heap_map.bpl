// A heap map shared by two threads: each adds to Mem[p] without a lock. As in 01, an update
// is lost with two rounds.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 26,3 needing /k:2
// RUN: /k:3 => bug at 26,3 needing /k:2
var Mem: [int]int;
var done: int;

procedure add(p: int, v: int)
  modifies Mem, done;
{
  var old_v: int;
  old_v := Mem[p];
  Mem[p] := old_v + v;
  done := done + 1;
}

procedure main()
  modifies Mem, done;
{
  Mem[3] := 0;
  done := 0;
  async call add(3, 10);
  async call add(3, 20);
  assume done == 2;
  assert Mem[3] == 30;
}
