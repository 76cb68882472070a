// OPTIONS: /contractInfer /printAssignment /inlineDepth:1
// Under /inlineDepth:1 Houdini inlines every call one level deep: the callee's body replaces
// the call, its postconditions are assumed and its preconditions checked at the call (a
// refuted one is a refuted precondition); calls inside the inlined body stay calls.
const {:existential true} small: bool;
const {:existential true} large: bool;
const {:existential true} stepUp: bool;

var g: int;

procedure step()
  modifies g;
  ensures stepUp ==> g > old(g);
{
  g := g + 1;
}

procedure work(x: int)
  requires small ==> x < 5;
  requires large ==> x > 100;
  modifies g;
{
  call step();
  call step();
}

procedure main()
  modifies g;
{
  g := 0;
  call work(3);
  assert g > 1;
}
