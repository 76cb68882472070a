// OPTIONS: /noTypecheck
// Commands that do not resolve.
var m: [int]int;
procedure Two(x: int) returns (a: int, b: int);

procedure P(i: int) returns (r: int)
  modifies m;
{
  var s, t: int;
  var {:assumption} ok: bool;
  r, s := 1;
  m[i], m[r] := 0, 1;
  call s := Two(1);
  call s, t := Two();
  call s, s := Two(1);
  ok := true;
  ok := ok && i > 0;
  ok := ok && i > 1;
  assert m[2+2:0] == 0;
}

var {:assumption} flag: bool where flag;
