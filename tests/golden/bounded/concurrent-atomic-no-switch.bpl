// OPTIONS: /main:Main /k:2 --print-after=sequentialize
// Inside an atomic block (between corral_atomic_begin and corral_atomic_end, in one block) a
// thread cannot switch, nor stop at an assumption: the sequentialization makes no switch
// point and no stopping branch there. The Worker's `assume !Lock; Lock := true;` read and
// write shared state inside its atomic block: they follow `seq$atomic := true` in one block,
// with only the switch at `call corral_atomic_begin()` before them and the one before
// `x := 1` after them.
// By hand: the Worker takes the lock atomically and sets x; Main's assertion that x is 0 or
// 1 holds in every interleaving: no bugs.
var Lock: bool;
var x: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure Worker()
  modifies Lock, x;
{
  call corral_atomic_begin();
  assume !Lock;
  Lock := true;
  call corral_atomic_end();
  x := 1;
}

procedure Main()
  modifies Lock, x;
{
  Lock := false;
  x := 0;
  async call Worker();
  assert x == 0 || x == 1;
}
