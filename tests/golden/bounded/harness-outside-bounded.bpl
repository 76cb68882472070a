// OPTIONS:
// Outside bounded mode the harness's attributes are Boogie's unknown attributes: each
// procedure is verified on its own, as Boogie does (Worker's assertion fails for some x).
var x: int;
procedure {:init} Init() modifies x; { x := 0; }
procedure {:thread 2} Worker() { assert x == 0; }
