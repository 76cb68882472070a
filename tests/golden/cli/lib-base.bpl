// OPTIONS: /lib:base /lib:set_size
// A program using /lib:base and /lib:set_size: vectors, options, sets and finite maps from
// the libraries. Every contract follows from the library's definitions, so all three
// procedures verify.
type Elem;

procedure Push(v: Vec Elem, e: Elem) returns (w: Vec Elem, last: Option Elem)
  ensures Vec_Len(w) == Vec_Len(v) + 1;
  ensures last == Some(e);
{
  w := Vec_Append(v, e);
  last := Some(Vec_Nth(w, Vec_Len(v)));
}

procedure Grow(s: [Elem]bool, e: Elem) returns (t: [Elem]bool)
  requires !Set_Contains(s, e);
  ensures Set_Size(t) == Set_Size(s) + 1 && Set_IsSubset(s, t);
{
  t := Set_Add(s, e);
}

procedure Table(k: int, x: Elem) returns (m: Map int Elem)
  ensures Map_Contains(m, k) && Map_At(m, k) == x;
{
  m := Map_Update(Map_Empty(), k, x);
  assert MapConst(0)[k] + Id(1) == 1;
}
