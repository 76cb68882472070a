// OPTIONS: /noTypecheck
// One-state and state-less contexts.
var G: int;
const C: int;

axiom G == C;
axiom old(C) == 0;
function F(x: int): int { x + G }
function {:inline} I(x: int): int { old(x) }

procedure P(x: int where old(x) > 0) returns (y: int);
  requires old(G) == 0;
  ensures old(G) == G;

pure procedure Pure(x: int) returns (y: int)
  requires x > G;
{
  y := G;
  call Impure();
}

procedure Impure();
