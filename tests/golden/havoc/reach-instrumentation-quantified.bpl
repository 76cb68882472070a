// OPTIONS: /lib:havoc /reachAxioms:quantified --print-after=reach --check-passes
// As reach-instrumentation.bpl, with the theory as quantified axioms: the updates of Reach and
// Block are two lambdas, and the library's quantified axioms stay. The reach pass before a
// heap write: the well-foundedness assertion for offset 0, the updates, and the theory assumed of the new state; at the start of the body and after the
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
