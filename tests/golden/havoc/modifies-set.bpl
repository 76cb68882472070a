// OPTIONS: /lib:havoc /prune:1
// HAVOC's `modifies C` and `frees D` (Fig. 5) as {:modifies_set C} and {:frees_set D}.
// push: writes only n's link, inside its set: verifies; its callers keep every other
// location, and the lists that do not pass through n (free postconditions on Reach, Block).
// bad_push writes q's contents too, outside its set: its frame postcondition fails (reported
// at the return, the related location at the procedure's name, where the clause comes from). release frees p, in its
// set: verifies; bad_release frees p, not in its set ({q}): its frees postcondition fails.
procedure {:modifies_set singleton(n)} push(hd: ptr, n: ptr) returns (r: ptr)
  requires Block[0, hd] == NULL && (hd == NULL || !Blocks(BS, hd));
  requires Obj(n) != null && Off(n) == 0 && !Reach[0, hd, n];
  modifies Mem;
  ensures Block[0, r] == NULL && Reach[0, r, n] && r == n;
{
  Mem[n] := hd;
  r := n;
}

procedure {:modifies_set singleton(n)} bad_push(hd: ptr, n: ptr, q: ptr) returns (r: ptr)
  requires Block[0, hd] == NULL && (hd == NULL || !Blocks(BS, hd));
  requires Obj(n) != null && Off(n) == 0 && !Reach[0, hd, n];
  requires Alloc[Obj(q)] == ALLOCATED && q != n && Obj(q) != Obj(n);
  modifies Mem;
{
  Mem[n] := hd;
  Mem[INCR(q, 4)] := INT(7);
  r := n;
}

procedure caller(hd: ptr, n: ptr, q: ptr, other: ptr)
  requires Block[0, hd] == NULL && (hd == NULL || !Blocks(BS, hd));
  requires Obj(n) != null && Off(n) == 0 && !Reach[0, hd, n];
  requires Alloc[Obj(q)] != UNALLOCATED && q != n;
  requires Alloc[Obj(other)] != UNALLOCATED && !Reach[0, other, n];
  modifies Mem;
{
  var r, before: ptr;
  var reached: bool;
  before := Mem[q];
  reached := Reach[0, other, q];
  call r := push(hd, n);
  assert Mem[q] == before;
  assert Reach[0, other, q] == reached;
}

procedure {:frees_set singleton(p)} release(p: ptr)
  requires Alloc[Obj(p)] == ALLOCATED && Off(p) == 0;
  modifies Alloc;
{
  call dealloc(p);
}

procedure {:frees_set singleton(q)} bad_release(p: ptr, q: ptr)
  requires Alloc[Obj(p)] == ALLOCATED && Off(p) == 0 && Obj(q) != Obj(p);
  modifies Alloc;
{
  call dealloc(p);
}
