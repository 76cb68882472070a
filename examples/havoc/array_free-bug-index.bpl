// rboogie-options: /lib:havoc /prune:1
// array_free with a bug: each iteration tests and frees a[0] (`if (*a != NULL) free(*a);`)
// instead of a[i], so with n >= 2 and a[0] non-null the second iteration frees the object of
// a[0] again. The call of dealloc is reported (its precondition: the object is ALLOCATED),
// and so is the loop invariant that the objects of a[0..i) are freed.
// ERROR AT: 57
// Otherwise as array_free.bpl:
// HAVOC's array_free (section 7): free the non-null pointers of an array of pointers.
//   void array_free(void **a, int n) {        a[i] is *(a + i): the 4 bytes at a + 4 * i
//     int i = 0;
//     while (i < n) {
//       if (a[i] != NULL) free(a[i]);
//       i++;
//     }
//   }
// The entries are the set array(a, 4, n - 1) = { a, a + 4, ..., a + 4 * (n - 1) }.
// Preconditions: n >= 0; a points into an allocated object with room for n entries; each entry
// is NULL or points to the start of an allocated object other than the array's; and, the
// invariant section 7 needs, for i != j, a[i] and a[j] alias only if both are NULL.
// Proved: each read of a[i] is within the allocated array; no object is freed twice or at a
// nonzero offset (dealloc's precondition); at the end the object of every non-null entry is
// FREED, and every other object's allocation state is unchanged (frees deref(array(a, 4,
// n - 1)), translated as in Fig. 5).
// Workaround: the library's constant axioms are restated, since /prune:1 drops axioms
// without triggers.

axiom {:include_dep} NULL == Ptr(null, 0);
axiom {:include_dep} UNALLOCATED == 0 && ALLOCATED == 1 && FREED == 2;

procedure array_free(a: ptr, n: ptr)
  requires Obj(n) == null && Off(n) >= 0;
  requires Obj(a) != null && Alloc[Obj(a)] == ALLOCATED && Off(a) >= 0 && Off(a) + 4 * Off(n) <= Size[Obj(a)];
  requires (forall x: ptr :: { Mem[x] } in(x, array(a, 4, Off(n) - 1)) ==> Mem[x] == NULL
    || (Alloc[Obj(Mem[x])] == ALLOCATED && Off(Mem[x]) == 0 && Obj(Mem[x]) != Obj(a)));
  requires (forall x, y: ptr :: { Mem[x], Mem[y] } in(x, array(a, 4, Off(n) - 1)) && in(y, array(a, 4, Off(n) - 1))
    && x != y && Mem[x] == Mem[y] ==> Mem[x] == NULL);
  modifies Alloc;
  ensures (forall x: ptr :: { Mem[x] } in(x, array(a, 4, Off(n) - 1)) && Mem[x] != NULL ==> Alloc[Obj(Mem[x])] == FREED);
  ensures (forall o: ref :: { Alloc[o] } Alloc[o] == old(Alloc)[o]
    || (exists x: ptr :: { Mem[x] } in(x, array(a, 4, Off(n) - 1)) && Mem[x] == Ptr(o, 0)));
{
  var i: ptr;
  i := INT(0);
  while (Off(i) < Off(n))
    invariant Obj(i) == null && 0 <= Off(i) && Off(i) <= Off(n);
    invariant Alloc[Obj(a)] == ALLOCATED;
    // The objects of a[0..i) are freed, those of a[i..n) still allocated.
    invariant (forall x: ptr :: { Mem[x] } in(x, array(a, 4, Off(n) - 1)) && Mem[x] != NULL ==>
      Alloc[Obj(Mem[x])] == (if Off(x) < Off(a) + 4 * Off(i) then FREED else ALLOCATED));
    invariant (forall o: ref :: { Alloc[o] } Alloc[o] == old(Alloc)[o]
      || (exists x: ptr :: { Mem[x] } in(x, array(a, 4, Off(i) - 1)) && Mem[x] == Ptr(o, 0)));
  {
    // The read of a[i]: the array is allocated and a + 4 * i is within it.
    assert Obj(a) != null && Alloc[Obj(a)] == ALLOCATED && 0 <= Off(a) + 4 * Off(i) && Off(a) + 4 * Off(i) + 4 <= Size[Obj(a)];
    // BUG: a[0] instead of a[i].
    if (Mem[a] != NULL) {
      call dealloc(Mem[a]);
    }
    i := INT(Off(i) + 1);
  }
}
