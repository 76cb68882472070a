// rboogie's `set_size` library (`/lib:set_size`, used together with `/lib:base`): the number
// of elements of a finite set, as Boogie 3.5's library of the same name declares it.

function Set_Size<T>(a: [T]bool): int;

axiom (forall<T> a: [T]bool :: 0 <= Set_Size(a));
axiom (forall<T> :: Set_Size(Set_Empty(): [T]bool) == 0);

// Adding or removing one element changes the size by one, unless it changes nothing.
axiom (forall<T> a: [T]bool, t: T :: {Set_Add(a, t)}
  Set_Size(Set_Add(a, t)) == if Set_Contains(a, t) then Set_Size(a) else Set_Size(a) + 1);
axiom (forall<T> a: [T]bool, t: T :: {Set_Remove(a, t)}
  Set_Size(Set_Remove(a, t)) == if Set_Contains(a, t) then Set_Size(a) - 1 else Set_Size(a));

// |a| = |a \ b| + |a & b|, and |a | b| + |a & b| = |a| + |b|.
axiom (forall<T> a: [T]bool, b: [T]bool :: {Set_Size(Set_Difference(a, b))} {Set_Size(Set_Intersection(a, b))}
  Set_Size(a) == Set_Size(Set_Difference(a, b)) + Set_Size(Set_Intersection(a, b)));
axiom (forall<T> a: [T]bool, b: [T]bool :: {Set_Size(Set_Union(a, b))} {Set_Size(Set_Intersection(a, b))}
  Set_Size(Set_Union(a, b)) + Set_Size(Set_Intersection(a, b)) == Set_Size(a) + Set_Size(b));

// Lemmas to call.
pure procedure Lemma_SetSize_Add<T>(a: [T]bool, t: T) returns (b: [T]bool);
  requires !Set_Contains(a, t);
  ensures b == Set_Add(a, t);
  ensures Set_Size(b) == Set_Size(a) + 1;

pure procedure Lemma_SetSize_Remove<T>(a: [T]bool, t: T) returns (b: [T]bool);
  requires Set_Contains(a, t);
  ensures b == Set_Remove(a, t);
  ensures Set_Size(b) + 1 == Set_Size(a);

pure procedure Lemma_SetSize_Subset<T>(a: [T]bool, b: [T]bool);
  requires Set_IsSubset(a, b);
  ensures a == b || Set_Size(a) < Set_Size(b);
