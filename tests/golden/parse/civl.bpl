// Civl declarations parse (later stages refuse them).
// OPTIONS: /noResolve
var {:layer 0, 1} count: int;
yield invariant {:layer 1} NonNeg(); preserves count >= 0;
pure action Noop() { }
atomic action {:layer 1} IncAction() modifies count; { count := count + 1; }
yield procedure {:layer 0} Inc(); refines IncAction;
yield procedure {:layer 1} Loop()
requires call NonNeg();
{
  while (*) invariant {:layer 1} call NonNeg(); { call Inc(); }
}
