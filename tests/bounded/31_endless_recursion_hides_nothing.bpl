// `spin` never returns (it calls itself unconditionally), so the assertion after the
// call is unreachable: no bug, and the answer is within the bound (the recursion is cut).
// RUN: /recursionBound:1 => no bugs within the bound
// RUN: /recursionBound:3 => no bugs within the bound
procedure spin() { call spin(); }
procedure main()
{
  call spin();
  assert false;
}
