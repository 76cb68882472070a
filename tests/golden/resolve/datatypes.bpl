// OPTIONS: /noTypecheck
// Datatypes: constructors are functions, resolved like any other.
datatype List<a> { Nil(), Cons(head: a, tail: List a) }

procedure P(l: List int) returns (n: int)
{
  var h: int;
  var t: List int;
  Cons(h, t) := l;
  Snoc(h, t) := l;
  n := if l is Nil then 0 else l->head;
}
