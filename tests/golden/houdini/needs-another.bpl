// OPTIONS: /contractInfer /printAssignment
// `yPositive` is inductive only together with `xPositive`: both stay. `wPositive` holds on
// entry and is maintained only if `zPositive` holds, which fails on entry: the first round
// refutes `zPositive` alone (the maintenance check still assumes it), the next `wPositive`.
const {:existential true} xPositive: bool;
const {:existential true} yPositive: bool;
const {:existential true} zPositive: bool;
const {:existential true} wPositive: bool;

procedure p(n: int)
{
  var x, y, z, w: int;
  x := 1;
  y := 1;
  z := 0;
  w := 5;
  while (x < n)
    invariant xPositive ==> x > 0;
    invariant yPositive ==> y > 0;
    invariant zPositive ==> z > 0;
    invariant wPositive ==> w > 0;
  {
    y := y + x;
    x := x + x;
    w := w + z - 1;
  }
}
