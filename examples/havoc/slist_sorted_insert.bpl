// rboogie-options: /lib:havoc /prune:1
// HAVOC's slist_sorted_insert (section 7): insert a node into an acyclic singly-linked list
// sorted by its data field; the search is a function of its own.
//   typedef struct node { struct node *next; int data; } node;   next at 0, data at 4
//   node *find_prev(node *hd, int d) {          // the last node whose data is < d
//     node *prev = hd, *curr = hd->next;
//     while (curr != NULL && curr->data < d) { prev = curr; curr = curr->next; }
//     return prev;
//   }
//   node *slist_sorted_insert(node *hd, node *n) {
//     node *prev;
//     if (hd == NULL || n->data <= hd->data) { n->next = hd; return n; }
//     prev = find_prev(hd, n->data);
//     n->next = prev->next;
//     prev->next = n;
//     return hd;
//   }
// An int is the pointer Ptr(null, k); a node's data is Off(Mem[x + 4]) (Data below).
// Preconditions: the list from hd (empty if hd is NULL) ends at NULL (its block B_0) and hd
// is not itself a blocking pointer; its nodes are node pointers (offset 0), each node's next
// is NULL or a node of the list, and each node's data is <= its successor's (sorted). The new
// node n (offset 0) is not in BS and not on the list.
// Proved: the result list ends at NULL, its nodes are the old ones and n, it is sorted (and
// keeps the other properties above), and only next fields of n and of old nodes change.
// find_prev: on a non-empty list ending at NULL with hd->data < d, it returns a node prev of
// the list with prev->data < d whose next is NULL or has data >= d, and writes nothing; its
// annotations are quantifier-free, and so is its VC.
function {:inline} Data(M: [ptr]ptr, x: ptr): int { Off(M[INCR(x, 4)]) }

procedure find_prev(hd: ptr, d: int) returns (prev: ptr)
  requires hd != NULL && Block[0, hd] == NULL && !Blocks(BS, hd);
  requires Data(Mem, hd) < d;
  ensures Reach[0, hd, prev] && prev != NULL && Data(Mem, prev) < d;
  ensures Mem[prev] == NULL || d <= Data(Mem, Mem[prev]);
{
  var curr: ptr;
  prev := hd;
  curr := Mem[hd];
  while (curr != NULL && Data(Mem, curr) < d)
    invariant Reach[0, hd, prev] && prev != NULL && curr == Mem[prev];
    invariant Data(Mem, prev) < d;
  {
    prev := curr;
    curr := Mem[curr];
  }
}

procedure slist_sorted_insert(hd: ptr, n: ptr) returns (r: ptr)
  requires Block[0, hd] == NULL && (hd == NULL || !Blocks(BS, hd));
  requires (forall x: ptr :: { Reach[0, hd, x] } hd != NULL && Reach[0, hd, x] ==> Off(x) == 0);
  requires (forall x: ptr :: { Reach[0, hd, x], Mem[x] } hd != NULL && Reach[0, hd, x] ==> Mem[x] == NULL || Reach[0, hd, Mem[x]]);
  requires (forall x: ptr :: { Reach[0, hd, x] } hd != NULL && Reach[0, hd, x] && Mem[x] != NULL ==> Data(Mem, x) <= Data(Mem, Mem[x]));
  requires Obj(n) != null && Off(n) == 0 && !BS[n] && (hd == NULL || !Reach[0, hd, n]);
  modifies Mem;
  ensures r != NULL && Block[0, r] == NULL;
  ensures (forall x: ptr ::
       (Reach[0, r, x] <==> (hd != NULL && old(Reach)[0, hd, x]) || x == n)
    && (Reach[0, r, x] ==> Off(x) == 0)
    && (Reach[0, r, x] ==> Mem[x] == NULL || Reach[0, r, Mem[x]])
    && (Reach[0, r, x] && Mem[x] != NULL ==> Data(Mem, x) <= Data(Mem, Mem[x]))
    && (Mem[x] == old(Mem)[x] || x == n || (hd != NULL && old(Reach)[0, hd, x])));
{
  var prev: ptr;
  if (hd == NULL || Data(Mem, n) <= Data(Mem, hd)) {
    Mem[n] := hd;
    r := n;
    return;
  }
  call prev := find_prev(hd, Data(Mem, n));
  Mem[n] := Mem[prev];
  Mem[prev] := n;
  r := hd;
}
