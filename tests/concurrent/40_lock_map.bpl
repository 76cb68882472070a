// One lock per object in a map, taken atomically; two threads update the same object's field
// under its lock: no update is lost.
// RUN: /k:2 => no bugs
// RUN: /k:3 => no bugs
var Lock: [int]bool;
var Field: [int]int;
var done: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure update(o: int)
{
  var t: int;
  call corral_atomic_begin();
  assume !Lock[o];
  Lock[o] := true;
  call corral_atomic_end();
  t := Field[o];
  Field[o] := t + 1;
  Lock[o] := false;
  call corral_atomic_begin();
  done := done + 1;
  call corral_atomic_end();
}

procedure main()
{
  Lock[1] := false;
  Field[1] := 0;
  done := 0;
  async call update(1);
  async call update(1);
  assume done == 2;
  assert Field[1] == 2;
}
