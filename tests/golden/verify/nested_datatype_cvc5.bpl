// OPTIONS: --solver cvc5
// A datatype whose values hold maps of its own values is well-formed SMT-LIB, and z3 decides
// queries over it, but cvc5 will not ("Cannot handle nested-recursive datatype"). That is the
// solver's limit, not a malformed query: as for solver_limitation_cvc5.bpl, the solver's answer
// is printed as a prover error and the implementation is inconclusive, not rboogie's internal
// error. The next implementation, whose query does not declare the datatype, still verifies.
datatype Tree { Leaf(n: int), Node(children: [int]Tree) }

procedure Depth(t: Tree)
  requires t is Node;
{
  assert t->children[0] is Leaf || t->children[0] is Node;
}

procedure Plain(x: int)
{
  assert x + 1 > x;
}
