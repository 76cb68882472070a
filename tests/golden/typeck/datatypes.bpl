// Datatype fields and constructors: access on non-datatypes, unknown names, updates.
datatype Pair { Pair(first: int, second: bool) }
datatype Shape { Circle(r: int), Square(r: bool) }
procedure P(p: Pair, n: int) returns (q: Pair) {
  assert n->first == 0;
  assert p->third == 0;
  assert p is Triple;
  assert n is Pair;
  q := p->(first := true);
  q->second := 3;
}
