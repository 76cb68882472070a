// OPTIONS: /prune:1 /vcsSplitOnEveryAssert
// Bad input: `reveal` names no function of the program; nothing is verified.
function G(n: int): int;

procedure P()
{
  hide *;
  reveal Nonesuch;
  assert G(1) == G(1);
}
