// STORM's harness: Init, then Dispatch || Cancel. Each routine updates its statistics
// fields, then, holding the lock, takes the pending request and completes it. The property
// (not completed twice) mentions Completed only; Request is the one other field whose values
// flow into it (r := Request[DE]), so the first abstraction tracks {Request, Completed}. With
// K = 1 the routines run one after the other, so the lock is not needed: that abstraction
// verifies at once. With K >= 2 Lock is abstracted, so both routines may take the pending
// request inside the "lock": spurious. The replay with Lock concrete is infeasible (the
// second acquire blocks), so refinement adds Lock, a field the property does not mention.
// With {Request, Completed, Lock} the program verifies at every K: the lock makes the
// take-and-clear atomic. The Stat fields never reach a check.
// RUN: /k:1 => no bugs tracking Request, Completed
// RUN: /k:2 => no bugs tracking Request, Completed, Lock
// RUN: /k:3 => no bugs tracking Request, Completed, Lock
var Request: [int]int;
var Completed: [int]bool;
var Lock: [int]bool;
var Stat0: [int]int;
var Stat1: [int]int;
var Stat2: [int]int;
var Stat3: [int]int;
var Stat4: [int]int;
var Stat5: [int]int;
var Stat6: [int]int;
var Stat7: [int]int;
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
  Completed[irp] := false;
  Lock[de] := false;
  Stat0[de] := 0;
  Stat1[de] := 0;
  Stat2[de] := 0;
  Stat3[de] := 0;
  Stat4[de] := 0;
  Stat5[de] := 0;
  Stat6[de] := 0;
  Stat7[de] := 0;
}

procedure {:thread} Dispatch()
{
  var r: int;
  Stat0[DE] := Stat0[DE] + 1;
  Stat2[DE] := Stat2[DE] + 1;
  Stat4[DE] := Stat4[DE] + 1;
  Stat6[DE] := Stat6[DE] + 1;
  call acquire(DE);
  r := Request[DE];
  if (r != 0) {
    Request[DE] := 0;
    call release(DE);
    assert !Completed[r];
    Completed[r] := true;
  } else {
    call release(DE);
  }
}

procedure {:thread} Cancel()
{
  var r: int;
  Stat1[DE] := Stat1[DE] + 1;
  Stat3[DE] := Stat3[DE] + 1;
  Stat5[DE] := Stat5[DE] + 1;
  Stat7[DE] := Stat7[DE] + 1;
  call acquire(DE);
  r := Request[DE];
  if (r != 0) {
    Request[DE] := 0;
    call release(DE);
    assert !Completed[r];
    Completed[r] := true;
  } else {
    call release(DE);
  }
}
