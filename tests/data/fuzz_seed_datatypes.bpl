// Seed program for tests/no_panic.rs: datatypes, attributes, code expressions, Civl.
datatype List<T> { Nil(), Cons(head: T, tail: List T) }
datatype Color { Red(), Green(), Blue() }

function Length<T>(l: List T): int
{
  if l is Nil then 0 else 1 + Length(l->tail)
}

revealed function Twice(x: int): int uses {
  hideable axiom (forall y: int :: Twice(y) == 2 * y);
}

const c: int uses { axiom c == 3; }

procedure Lists(l: List int) returns (r: List int)
  ensures Length(r) == Length(l) + 1;
{
  var h: int, t: List int;
  r := Cons(0, l);
  if (l is Cons) {
    Cons(h, t) := l;
    r := r->(tail := Cons(h, t));
  }
  reveal Twice;
  hide *;
  assert Twice(2) == 4;
  push;
  pop;
}

procedure CodeExpr(x: int)
{
  assert |{
    var y: int;
    Entry: y := x + 1; goto Pos, Neg;
    Pos: assume y > 0; return y > x;
    Neg: assume y <= 0; return true;
  }|;
}

procedure {:entrypoint} {:timeLimit 10} Attrs({:linear} x: int, y: int where y > x)
  requires {:id "pre"} x < y;
{
  var {:ghost} z: int;
  z := {:msg "assign"} x;
  assert {:focus} z == x;
  call {:cost 3} Attrs(x, y);
}

var {:layer 0, 1} g: int;

yield invariant {:layer 1} Inv(x: int);
  preserves g >= 0;

atomic action {:layer 1} Incr()
  modifies g;
{
  g := g + 1;
}

yield procedure {:layer 0} IncrImpl();
  refines Incr;
  preserves call Inv(0);

yield procedure {:layer 1} Main()
  requires call Inv(1);
{
  async call IncrImpl();
  call IncrImpl() | IncrImpl();
}
