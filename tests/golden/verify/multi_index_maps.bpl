// OPTIONS: /mv:-
// Maps of several arguments, written, read and updated: z3 gets them as arrays of several
// indexes, and the model shows a map as one table of index pairs. Worked out by hand:
// Grid[r, c] is 5 at (r, c) on entry; Move stores 6 there and 7 at (r, d) with d != c, so
// Grid[r, c] is 6 afterwards and the assertion Grid[r, c] == 5 fails. The values of r, c and
// d are the solver's; the stores are shown through the updated map's table.
type Row;
type Col;
var Grid: [Row, Col]int;

procedure Move(r: Row, c: Col, d: Col)
  requires Grid[r, c] == 5 && c != d;
  modifies Grid;
{
  var before: int;
  before := Grid[r, c];
  Grid[r, c] := before + 1;
  Grid := Grid[r, d := 7];
  assume {:captureState "moved"} true;
  assert Grid[r, c] == 5;
}

// Passes: two stores at different rows do not interfere, a store is read back, and a map
// equal to itself updated in place is unchanged.
procedure Frame(r: Row, s: Row, c: Col)
  requires r != s;
  modifies Grid;
{
  Grid[r, c] := 1;
  Grid[s, c] := 2;
  assert Grid[r, c] == 1 && Grid[s, c] == 2;
  assert Grid[r, c := Grid[r, c]] == Grid;
}
