// OPTIONS: /timeLimit:30 --solver z3
// Constructors whose names SMT-LIB only takes between bars (`'` and `#` are no symbol
// characters). cvc5 1.0 finds no constructor in `(_ is |C'|)`, so rboogie tests such a
// constructor by rebuilding the value from its own fields; the verdicts are z3's.
// By hand: in Good, v is built by Node' so `v is Node'` holds, `v is Leaf#0` does not, and the
// field `val` (of Node' only) reads 7; the update keeps the constructor. Bad asserts that an
// arbitrary tree is a leaf: it fails. So 1 verified, 1 error.
datatype Tree { Leaf#0(), Node'(left: Tree, val: int, right: Tree) }

procedure Good()
{
  var v: Tree;
  v := Node'(Leaf#0(), 7, Leaf#0());
  assert v is Node';
  assert !(v is Leaf#0);
  assert v->val == 7;
  v := v->(val := 8);
  assert v is Node' && v->val == 8 && v->left is Leaf#0;
}

procedure Bad(t: Tree)
{
  assert t is Leaf#0;
}
