// OPTIONS: /mv:- /loopUnroll:1
// Names in models as Boogie gives them, worked out by hand:
// - Boogie's `/loopUnroll` renames every `{:captureState "s"}` of every implementation it
//   unrolls, loops or not, to `s$renamed$<implementation>$<n>`, n counting from 0 in block
//   order: here start$renamed$Twice$0, once$renamed$Twice$1, bumped$renamed$Twice$2.
// - A call's out-parameter is a temporary numbered after the callee's in-parameters and
//   `modifies` entries: Inc(x) returns (y) gives call1formal@y, Bump(x) returns (y) with
//   `modifies g` gives call2formal@y; havocked once, each is printed with incarnation @0.
//   The second call of Inc makes a second call1formal@y@0, printed call1formal@y@0@@0.
// - Values: u := 1 is a literal (no incarnation), Inc gives 2 then 3; g starts at 0 (assumed),
//   Bump makes it g@0 = 1 and returns 3 + 1 = 4. The assertion u == 5 fails with u = 4.
var g: int;

procedure Inc(x: int) returns (y: int);
  ensures y == x + 1;

procedure Bump(x: int) returns (y: int);
  modifies g;
  ensures g == old(g) + 1 && y == x + g;

procedure Twice()
  modifies g;
{
  var u: int;
  assume g == 0;
  u := 1;
  assume {:captureState "start"} true;
  call u := Inc(u);
  call u := Inc(u);
  assume {:captureState "once"} true;
  call u := Bump(u);
  assume {:captureState "bumped"} true;
  assert u == 5;
}
