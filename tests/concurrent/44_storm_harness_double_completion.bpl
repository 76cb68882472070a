// STORM's harness (Init; T1 || T2) from attributes: Init, marked {:init}, stores a pending
// request (irp > 0, from its precondition) in the device extension DE; two copies of the
// completion routine ({:thread 2}) each read the pending request, take the lock, and complete
// it if there was one. The read happens before the lock is taken: both copies can read the
// request before either clears it (a switch between the read and the acquire, K = 2), and
// then the second completion finds Completed[r] = 2. With one round per thread the copies run
// one after the other: the second reads 0 and does nothing.
// RUN: /bounded /k:1 => no bugs
// RUN: /bounded /k:2 => bug at 37,5 needing /k:2
// RUN: /bounded /k:3 => bug at 37,5 needing /k:2
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
  r := Request[DE];
  call acquire(DE);
  if (r != 0) {
    Completed[r] := Completed[r] + 1;
    assert Completed[r] <= 1;
    Request[DE] := 0;
  }
  call release(DE);
}
