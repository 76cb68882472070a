// OPTIONS: /timeLimit:30
// A polymorphic map used at its own type (`m[1]` is an `M`): one of its fields has type
// `[int]M` (as a datatype, which Boogie uses, it would not be well founded and Z3 would refuse
// it); its equality compares the fields (int and M).
// Worked out by hand:
// - `store_then_select`: m[2 := m] read at 2 (at type M) is m (verified);
// - `fields_decide_equality`: writing into m the int it holds at 0 gives m back: both
//   fields are unchanged (verified);
// - `not_itself`: nothing says m[1] is m (1 error, at the assertion).
type M = <a>[int]a;

procedure store_then_select(m: M)
{
  assert m[2 := m][2] == m;
}

procedure fields_decide_equality(m: M)
  requires m[0]: int == 5;
{
  assert m[0 := 5] == m;
}

procedure not_itself(m: M)
{
  assert m[1]: M == m;
}
