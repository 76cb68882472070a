// As 03, but Cancel reads the request before taking the lock: with two contexts, Cancel
// reads Request[DE] (pending), a switch lets Dispatch take and complete it, and Cancel then
// completes it again: Cancel's assertion (line 75) fails. With K = 1 each routine runs to its
// end once started (Dispatch first): Cancel reads 0 and does nothing, so no bug, and the lock
// is not needed. The first abstraction tracks {Request, Completed} (as in 03), all the real
// bug needs; an earlier spurious path, both routines inside the lock, may add Lock.
// RUN: /k:1 => no bugs tracking Request, Completed
// RUN: /k:2 => bug at 75,5 needing /k:2 tracking Request, Completed +1
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
  r := Request[DE];
  call acquire(DE);
  if (r != 0) {
    Request[DE] := 0;
    call release(DE);
    assert !Completed[r];
    Completed[r] := true;
  } else {
    call release(DE);
  }
}
