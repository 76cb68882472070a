// OPTIONS: /contractInfer /printAssignment
// Refutations travel both ways along the calls. `twice` is checked after `inc` (callees
// first) and refutes `argSmall`, `inc`'s precondition, at its call: `inc` is checked again
// without it and loses `incBounded`, which `twice` assumed; `twice` is checked again and loses
// `twiceBounded`, which `caller` assumed; `caller` is checked again and keeps what it can.
const {:existential true} argSmall: bool;
const {:existential true} incBounded: bool;
const {:existential true} incGrows: bool;
const {:existential true} twiceBounded: bool;
const {:existential true} twiceGrows: bool;
const {:existential true} callerSmall: bool;
const {:existential true} callerGrows: bool;

procedure inc(x: int) returns (y: int)
  requires argSmall ==> x < 10;
  ensures incBounded ==> y <= 10;
  ensures incGrows ==> y > x;
{
  y := x + 1;
}

procedure twice(x: int) returns (z: int)
  ensures twiceBounded ==> z <= 10;
  ensures twiceGrows ==> z > x;
{
  var t: int;
  call t := inc(x);
  call z := inc(t);
}

procedure caller(a: int) returns (b: int)
  ensures callerSmall ==> b <= 10;
  ensures callerGrows ==> b > a;
{
  call b := twice(a);
}
