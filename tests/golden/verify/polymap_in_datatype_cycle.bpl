// OPTIONS: /timeLimit:30
// A polymorphic map that holds, at type D, a datatype D whose field is the map again (had
// the map been a datatype, as in Boogie, the two would not be well founded: D needs the map,
// the map's field [int]D needs a D); D is a datatype over the map's type.
// Worked out by hand:
// - `stored_then_read`: x[0 := D(x)] read at 0 (at type D) is D(x) (verified);
// - `not_stored`: nothing says x[1] is D(x) (1 error, at the assertion).
type M = <a>[int]a;
datatype D { D(m: M) }

procedure stored_then_read(x: M)
{
  assert x[0 := D(x)][0]: D == D(x);
}

procedure not_stored(x: M)
{
  assert x[1]: D == D(x);
}
