// OPTIONS: /noVerify --print-after=inline
// --print-after prints the program after the pass (here: Inc inlined into Main, and marked
// {:verify false}), then the run goes on; tests/pipeline_options.rs parses such output again.
var g: int;

procedure {:inline 1} Inc(n: int)
  modifies g;
  ensures g == old(g) + n;
{
  g := g + n;
}

procedure Main()
  modifies g;
{
  call Inc(2);
  assert g >= old(g);
}
