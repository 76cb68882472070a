// OPTIONS: /timeLimit:30
// Polymorphic datatypes, monomorphized: a synonym names one instance, and a polymorphic
// function's body (whose type parameter resolution binds again for the definition axiom) is
// instantiated at each type it is used at, `var` bindings in it included. Every assertion
// holds: 2 verified.
datatype Tree<E> { Leaf(), Node(left: Tree E, item: E, right: Tree E) }

type IntTree = Tree int;
type Pair a = Tree a;

function size<E>(t: Tree E): int {
  if t == Leaf() then 0 else size(t->left) + 1 + size(t->right)
}

function {:inline} rightItem<E>(t: Tree E): E {
  (var r := t->right; r->item)
}

type Color;
const red: Color;

procedure ints(t: IntTree) returns (n: int)
  ensures n == size(t);
{
  if (t is Leaf) {
    n := 0;
  } else {
    call n := ints(t->left);
    assert size(Node(Leaf(), 7, Leaf())) == 1;
    n := size(t);
  }
}

procedure colors(p: Pair Color)
{
  var q: Tree Color;
  q := Node(p, red, Leaf());
  assert q->item == red && size(q) == size(p) + 1;
  assert rightItem(Node(Leaf(), 1, Node(Leaf(), 2, Leaf()))) == 2;
  assert rightItem(Node(Leaf(), red, q)) == red;
}
