// For tests/vcs_cores.rs with the fake solver tests/fake_solvers/selective.sh, which dies on
// a VC that mentions `boom` and goes silent on one that mentions `silent`: each fault is an
// outcome of that implementation only.

procedure A(x: int) { assert x == x; }
procedure Boom(x: int) { var boom: int; boom := x; assert boom == x; }
procedure B(x: int) { assert x == x; }
procedure Silent(x: int) { var silent: int; silent := x; assert silent == x; }
procedure C(x: int) { assert x == x; }
procedure D(x: int) { assert x == x; }
