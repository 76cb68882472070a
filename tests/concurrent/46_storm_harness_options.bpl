// STORM's harness from the command line: /init:Setup, then the threads Reader and Writer in
// that order. Writer's argument is arbitrary but satisfies its precondition (v > 0), so the
// reader's first assertion holds whatever it reads: 0 (Setup's) or v.
// The second assertion fails when Reader reads v. The rounds run the threads in the order they
// are named: in round 0 Reader runs before Writer, so with one round per thread it reads 0;
// with two it can skip round 0 (a switch before its read) and read, in round 1, what Writer
// wrote in round 0.
// RUN: /init:Setup /thread:Reader /thread:Writer /k:1 => no bugs
// RUN: /init:Setup /thread:Reader /thread:Writer /k:2 => bug at 27,3 needing /k:2
// Named the other way round, Writer runs first: one round suffices.
// RUN: /init:Setup /thread:Writer /thread:Reader /k:2 => bug at 27,3 needing /k:1
var x: int;

procedure Setup() { x := 0; }

procedure Writer(v: int)
  requires v > 0;
{
  x := v;
}

procedure Reader()
{
  var a: int;
  a := x;
  assert a >= 0;
  assert a == 0;
}
