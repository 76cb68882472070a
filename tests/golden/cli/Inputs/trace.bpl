// Input of tests/pipeline_options.rs: every pass that /trace times has work to do.
var g: int;
procedure {:inline 1} Inc() modifies g; { g := g + 1; }

procedure Good(m: [int]int) returns (r: int)
  modifies g;
  ensures r == m[0] && g == old(g) + 1;
{
  r := (lambda i: int :: m[i])[0];
  call Inc();
}

procedure Bad() {
  assert false;
}
