// rboogie-options: /lib:havoc /prune:1
// array_iterate with a bug: the loop runs while i <= n, so its last write is a[n].data, one
// element past the end, which need not lie inside the object: the bounds check of the write
// fails (and so does the invariant i <= n).
// ERROR AT: 41
// Otherwise as array_iterate.bpl:
// HAVOC's array_iterate: Fig. 2's iteration over an array of objects instead of a list.
//   typedef struct { int data; LIST_ENTRY link; } A;   data at 0, link at 4, sizeof(A) == 12
//   void array_iterate(A *a, int n) {
//     int i;
//     for (i = 0; i < n; i++)
//       a[i].data = 42;                                 the int at a + 12 * i
//   }
// The data fields of the array are array(a, 12, n - 1): a, a + 12, ..., a + 12 * (n - 1).
// Preconditions: a points into an object (not an integer), at an offset >= 0, and the n
// elements fit in it (Size). Proved: every write is inside its object (no NULL dereference,
// no overflow); only the data fields change (modifies array(a, 12, n - 1)); each is 42.

// The library's `axiom NULL == Ptr(null, 0)`, restated: /prune:1 sends an axiom without
// triggers only if it has {:include_dep}.
axiom {:include_dep} NULL == Ptr(null, 0);

procedure array_iterate(a: ptr, n: int)
  requires Obj(a) != null && 0 <= Off(a);
  requires 0 <= n && Off(a) + 12 * n <= Size[Obj(a)];
  modifies Mem;
  // modifies array(a, 12, n - 1)
  ensures (forall x: ptr :: { Mem[x] } in(x, array(a, 12, n - 1)) || Mem[x] == old(Mem)[x]);
  ensures (forall x: ptr :: { Mem[x] } in(x, array(a, 12, n - 1)) ==> Mem[x] == INT(42));
{
  var i: int;
  var p: ptr;
  i := 0;
  while (i <= n)  // BUG: should be i < n
    invariant 0 <= i && i <= n;
    invariant (forall x: ptr :: { Mem[x] } in(x, array(a, 12, i - 1)) || Mem[x] == old(Mem)[x]);
    invariant (forall x: ptr :: { Mem[x] } in(x, array(a, 12, i - 1)) ==> Mem[x] == INT(42));
  {
    p := INCR(a, 12 * i);
    // The int written at p (4 bytes) lies inside p's object.
    assert Obj(p) != null && 0 <= Off(p) && Off(p) + 4 <= Size[Obj(p)];
    Mem[p] := INT(42);
    i := i + 1;
  }
}
