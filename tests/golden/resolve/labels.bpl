// OPTIONS: /noTypecheck
// Block labels and statement ids.
procedure P(b: bool)
{
  A:
  assert {:id "s"} true;
  if (b) {
    A:
    assume {:id "t"} true;
  } else {
    B:
    assume {:id "s"} true;
  }
  B:
  call {:id "t"} P(b);
}

axiom (|{ L: goto M; }|);
