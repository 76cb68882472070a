// 44 with the request read under the lock: whichever copy takes the lock first completes the
// request and clears it before releasing; the other reads 0. No context bound shows a double
// completion.
// RUN: /bounded /k:2 => no bugs
// RUN: /bounded /k:3 => no bugs
var Request: [int]int;
var Completed: [int]int;
var Lock: [int]bool;
var DE: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure acquire(o: int) { call corral_atomic_begin(); assume !Lock[o]; Lock[o] := true; call corral_atomic_end(); }
procedure release(o: int) { Lock[o] := false; }

procedure {:init} Init(de: int, irp: int)
  requires irp > 0;
{
  DE := de;
  Request[de] := irp;
  Completed[irp] := 0;
  Lock[de] := false;
}

procedure {:thread 2} Complete()
{
  var r: int;
  call acquire(DE);
  r := Request[DE];
  if (r != 0) {
    Completed[r] := Completed[r] + 1;
    assert Completed[r] <= 1;
    Request[DE] := 0;
  }
  call release(DE);
}
