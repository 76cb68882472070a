// rboogie-options: /lib:havoc /prune:1 /vcsSplitOnEveryAssert
// allocator with a bug: the splitting case shrinks the free block but returns its front,
// ((unsigned int) cursor) + sizeof(RegionHeader), instead of its tail: the returned bytes are
// the first n of those the header still owns. The assertion of (iii) at the end is reported.
// ERROR AT: 104
// Otherwise as allocator.bpl:
// HAVOC's allocator (section 7): a first-fit allocator like Calcagno et al.'s
// malloc_firstfit_acyclic. The free blocks lie in one large object, the arena, each right
// after its header; the headers form a NULL-terminated list from the global freelist (R_0).
//   typedef struct RegionHeader {
//     struct RegionHeader *next;   // offset 0
//     unsigned int size;           // offset 4: bytes of the free block after the header
//   } RegionHeader;                // sizeof(RegionHeader) == 8
//   RegionHeader *freelist;        // its address is taken: &freelist is FL = Ptr(fl, 0)
//   void *alloc(unsigned int n) {
//     RegionHeader **prev = &freelist;
//     RegionHeader *cursor = freelist;
//     while (cursor != NULL && cursor->size < n) {
//       prev = &cursor->next;                           // cursor + 0
//       cursor = cursor->next;
//     }
//     if (cursor == NULL) return NULL;
//     if (cursor->size < n + sizeof(RegionHeader)) {    // too small to split: take it whole
//       *prev = cursor->next;
//       return ((unsigned int) cursor) + sizeof(RegionHeader);
//     }
//     cursor->size = cursor->size - n;                  // keep the front, return the tail
//     return ((unsigned int) cursor) + sizeof(RegionHeader) + cursor->size;
//   }
// The headers of the free list are list(FL, 0) without FL: the x with R_0[FL, x], x != FL.
// Header x owns the bytes [x, x + 8 + size(x)) of the arena. FreeList: the list ends at NULL
// (B_0[FL] == NULL: it is acyclic), its headers lie in the arena with integer sizes >= 0, and
// no two of them own a common byte. Preconditions: FreeList, n > 0. Proved: every dereference
// of cursor reads a header in the arena (not NULL or another integer); (i) a non-null result
// r starts n bytes within the free block [x + 8, x + 8 + size(x)) of some header x of the
// input list; (ii) FreeList of the output list, so its free blocks do not overlap; also
// (iii) the n bytes at a non-null r are owned by no header of the output list, and only the
// next fields of FL and of the input list and the size fields of the input list are written.
// Workarounds: the library's NULL axiom is restated, since /prune:1 drops an axiom without
// triggers; FreeList and (iii) are asserted before each return as well (see below).

axiom {:include_dep} NULL == Ptr(null, 0);
const fl, arena: ref;
axiom {:include_dep} fl != null && arena != null && fl != arena;
const FL: ptr;
axiom {:include_dep} FL == Ptr(fl, 0);

// The size field of header x; x is a header of the free list.
function {:inline} size(M: [ptr]ptr, x: ptr): int { Off(M[INCR(x, 4)]) }
function {:inline} InList(R: [int, ptr, ptr]bool, x: ptr): bool { R[0, FL, x] && x != FL }

function {:inline} FreeList(M: [ptr]ptr, R: [int, ptr, ptr]bool, B: [int, ptr]ptr): bool {
  B[0, FL] == NULL
  && (forall x: ptr :: { R[0, FL, x] } InList(R, x) ==>
        Obj(x) == arena && Obj(M[INCR(x, 4)]) == null && size(M, x) >= 0)
  && (forall x, y: ptr :: { R[0, FL, x], R[0, FL, y] } InList(R, x) && InList(R, y) && x != y ==>
        Off(x) + 8 + size(M, x) <= Off(y) || Off(y) + 8 + size(M, y) <= Off(x))
}
// (iii): no header owns a byte of [r, r + n).
function {:inline} NotFree(M: [ptr]ptr, R: [int, ptr, ptr]bool, r: ptr, n: int): bool {
  (forall x: ptr :: { R[0, FL, x] } InList(R, x) ==> Off(r) + n <= Off(x) || Off(x) + 8 + size(M, x) <= Off(r))
}

procedure alloc(n: ptr) returns (r: ptr)
  requires Obj(n) == null && Off(n) > 0;
  requires FreeList(Mem, Reach, Block);
  modifies Mem;
  // (i)
  ensures r == NULL || (exists x: ptr :: { old(Reach)[0, FL, x] } InList(old(Reach), x)
    && Obj(r) == Obj(x) && Off(x) + 8 <= Off(r) && Off(r) + Off(n) <= Off(x) + 8 + size(old(Mem), x));
  // (ii)
  ensures FreeList(Mem, Reach, Block);
  // (iii)
  ensures r == NULL || NotFree(Mem, Reach, r, Off(n));
  // modifies union(list(FL, 0), incr(difference(list(FL, 0), {FL}), 4))
  ensures (forall p: ptr :: { Mem[p] } Mem[p] == old(Mem)[p] || old(Reach)[0, FL, p] || InList(old(Reach), DECR(p, 4)));
{
  var prev, cursor: ptr;
  prev := FL;
  cursor := Mem[FL];
  while (cursor != NULL && size(Mem, cursor) < Off(n))
    invariant Reach[0, FL, prev] && cursor == Mem[prev] && (cursor == NULL || Reach[0, FL, cursor]);
  {
    assert Obj(cursor) == arena;                   // cursor->size and cursor->next read a header
    prev := cursor;
    cursor := Mem[cursor];
  }
  if (cursor == NULL) {
    r := NULL;
    return;
  }
  assert Obj(cursor) == arena;                     // cursor->size reads a header
  if (size(Mem, cursor) < Off(n) + 8) {
    Mem[prev] := Mem[cursor];                      // *prev = cursor->next;
    r := INCR(cursor, 8);                          // ((unsigned int) cursor) + sizeof(RegionHeader)
    // Workaround: the postconditions on Reach and Block are checked here, before the return
    // paths join; the ground instantiation makes no instances for the copies of Reach and
    // Block that the join defines, so it cannot prove them after it.
    assert FreeList(Mem, Reach, Block) && NotFree(Mem, Reach, r, Off(n));
    return;
  }
  Mem[INCR(cursor, 4)] := INT(size(Mem, cursor) - Off(n));  // cursor->size = cursor->size - n;
  r := INCR(cursor, 8);  // BUG: the front of the block, which stays free
  assert FreeList(Mem, Reach, Block) && NotFree(Mem, Reach, r, Off(n));
}
