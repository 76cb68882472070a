// OPTIONS: /main:Main /k:1
// An inlined callee's `ensures` that fails in a spawned thread is reported at the `ensures`
// (line 8), in the error line and in the trace's last step, as bounded mode reports it in a
// sequential program. By hand: Main sets g to 0 and spawns T, which runs at once (K = 1) and
// calls Inc; Inc adds 1 where its `ensures` promises 2, so the `ensures` fails in thread 2.
var g: int;
procedure Inc() modifies g;
  ensures g == old(g) + 2;
{ g := g + 1; }
procedure T() modifies g; { call Inc(); }
procedure Main() modifies g; { g := 0; async call T(); }
