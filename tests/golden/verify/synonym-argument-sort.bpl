// OPTIONS: /timeLimit:10
// A type constructor applied to a synonym is the same type as applied to the synonym's
// expansion: `f` is declared with `Box (Set int)` and applied to a constant of type
// `Box [int]bool`, and the solver must get one sort for both (it once got two, and refused
// the query). The assertion holds: `f(c)` was assumed.
type Box _;
type Set T = [T]bool;
function f(b: Box (Set int)): bool;
const c: Box [int]bool;
procedure P()
{
  assume f(c);
  assert f(c);
}
