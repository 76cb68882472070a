// OPTIONS: /lib:base /lib:set_size
// Library claims that do not hold: appending does not keep the length, Vec_Update out of
// range changes nothing (so the element read back need not be x), and removing an element
// that may be absent need not shrink the set. Three errors, one per procedure.
type Elem;

procedure SameLength(v: Vec Elem, e: Elem)
{
  assert Vec_Len(Vec_Append(v, e)) == Vec_Len(v);
}

procedure UpdateOutOfRange(v: Vec Elem, x: Elem)
{
  assert Vec_Nth(Vec_Update(v, Vec_Len(v), x), Vec_Len(v)) == x;
}

procedure Shrinks(s: [Elem]bool, e: Elem)
{
  assert Set_Size(Set_Remove(s, e)) < Set_Size(s);
}
