// Corral does not interleave accesses to the allocator's counter `alloc`: two threads that
// each take `alloc` and bump it always get different addresses, at every bound.
// RUN: /k:2 => no bugs
// RUN: /k:3 => no bugs
var alloc: int;
var a, b: int;
var done: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure first()
{
  a := alloc;
  alloc := alloc + 1;
  call corral_atomic_begin();
  done := done + 1;
  call corral_atomic_end();
}

procedure second()
{
  b := alloc;
  alloc := alloc + 1;
  call corral_atomic_begin();
  done := done + 1;
  call corral_atomic_end();
}

procedure main()
{
  done := 0;
  async call first();
  async call second();
  assume done == 2;
  assert a != b;
}
