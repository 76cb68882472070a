// OPTIONS: /proverOpt:O:smt.qi.eager_threshold=100 /vcsCores:2
// As z3_options_act_in_every_session.bpl, with two sessions at a time: 3 verified.
// Z3 options given on the command line act in every session in-process, the first as the
// later ones, as they do in the z3 binary, which makes its solver after the preamble's options.
//
// The axiom proves P(n) from P(0) by n instantiations of one quantifier, each a generation
// deeper than the one before. Z3 instantiates eagerly up to its eager threshold (10 by
// default) and, at the final check, up to its lazy threshold (20): a chain of 25 is beyond
// both, so without the option every assertion here fails (z3_options_default_chain.bpl).
// With the threshold at 100 every one is proved, so each procedure verifies: 3 verified.
// (libz3 4.8.12 takes this option when a context's interpreter is made; a `set-option`
// afterwards does not make it act. rboogie once made the first context of a process under
// Z3's defaults and the later ones under what earlier sessions left: First failed here and
// Second and Third verified.)

function P(x: int): bool;
axiom (forall x: int :: {P(x)} P(x) ==> P(x + 1));

procedure First()
{
  assume P(0);
  assert P(25);
}

procedure Second()
{
  assume P(0);
  assert P(25);
}

procedure Third(n: int)
{
  assume P(n);
  assert P(n + 25);
}
