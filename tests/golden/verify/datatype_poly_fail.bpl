// OPTIONS: /timeLimit:30
// A polymorphic function over a polymorphic datatype, at two instances: the size of a
// one-node tree is 1, not 2, so the second assertion fails (1 verified, 1 error).
datatype Tree<E> { Leaf(), Node(left: Tree E, item: E, right: Tree E) }

type Synonym = Tree bool;

function size<E>(t: Tree E): int {
  if t == Leaf() then 0 else size(t->left) + 1 + size(t->right)
}

procedure holds() {
  assert size(Node(Leaf(), 3, Leaf())) == 1;
}

procedure fails(t: Synonym) {
  assert size(Node(Leaf(), true, Leaf())) == 2;
}
