// Guards are checked as Boogie checks the blocks it makes of them: `assume g` before the
// branch, `assume !g` (negated comparison, operands swapped) before the else branch.
procedure P(x: int, y: real) {
  if (x < y) { } else { }
  while (x) { }
  if (x) { } else if (y) { }
  if (!x) { }
}
