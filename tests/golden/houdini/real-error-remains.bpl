// OPTIONS: /contractInfer /printAssignment
// Every candidate holds, but an assertion that is no candidate fails: Houdini's assignment
// keeps them all and the error is reported as plain verification reports it.
const {:existential true} keeps: bool;
const {:existential true} alsoKeeps: bool;

var g: int;

procedure set(v: int)
  modifies g;
  ensures keeps ==> g == v;
  ensures alsoKeeps ==> g >= v;
{
  g := v;
}

procedure use()
  modifies g;
{
  call set(3);
  assert g == 4;
}
