// OPTIONS: /timeLimit:30
// Calls: preconditions checked, modifies havocked, postconditions assumed with `old`; {:msg}.
var g: int;
var m: [int]int;

procedure Inc(k: int) returns (r: int);
  requires k > 0;
  modifies g;
  ensures g == old(g) + k && r == old(g);

procedure Caller() modifies g; {
  var r: int;
  g := 5;
  call r := Inc(2);
  assert r == 5 && g == 7;
  call r := Inc(0);
}

procedure Frame() modifies g, m; {
  var r: int;
  m[1] := 3;
  call r := Inc(1);
  assert m[1] == 3;
  assert g == 0;
}

procedure Message(x: int)
  ensures {:msg "x must stay positive"} x > 0;
{
}
