// OPTIONS: /lib:havoc --print-after=reach --check-passes
// The reach pass before a heap write: the well-foundedness assertion for offset 0 (the only
// offset the program reads Reach or Block at), the exact updates of Reach and Block as a call
// of reach$update (its ReachStep is instantiated on the VC's terms, and the library's
// quantified axioms are dropped), and the theory assumed of the new state; at the start of the body and after the
// call too. The procedure may now modify Reach and Block. The printed program is parsed and
// checked again (--check-passes). The write closes a cycle when p reaches q: reported at it.
procedure link(p: ptr, q: ptr)
  requires Block[0, q] == NULL;
  modifies Mem;
{
  Mem[q] := p;
  call touch();
}
procedure touch();
