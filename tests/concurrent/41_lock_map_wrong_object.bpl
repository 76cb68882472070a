// 40 with the second thread locking another object than the one it updates: the lock
// protects nothing and an update is lost with two rounds.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 36,3 needing /k:2
// RUN: /k:3 => bug at 36,3 needing /k:2
var Lock: [int]bool;
var Field: [int]int;
var done: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure update(locked: int, o: int)
{
  var t: int;
  call corral_atomic_begin();
  assume !Lock[locked];
  Lock[locked] := true;
  call corral_atomic_end();
  t := Field[o];
  Field[o] := t + 1;
  Lock[locked] := false;
  call corral_atomic_begin();
  done := done + 1;
  call corral_atomic_end();
}

procedure main()
{
  Lock[1] := false;
  Lock[2] := false;
  Field[1] := 0;
  done := 0;
  async call update(1, 1);
  async call update(2, 1);
  assume done == 2;
  assert Field[1] == 2;
}
