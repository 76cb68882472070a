// OPTIONS: --solver cvc5
// The maps of several arguments of multi_index_maps.bpl, given to cvc5, which reads arrays of
// one index only: nested arrays. The verdicts are the same by hand: Move fails (Grid[r, c] is 6
// after the stores), Frame verifies.
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
