// For tests/vcs_cores.rs with the fake solver tests/fake_solvers/selective.sh, which dies on
// a VC that mentions `boom` and goes silent on one that mentions `silent`: each fault is an
// outcome of that implementation only. (The variables are assigned expressions, not copies:
// a copy makes no incarnation, and the VC would not mention them.)

procedure A(x: int) { assert x == x; }
procedure Boom(x: int) { var boom: int; boom := x + 1; assert boom == x + 1; }
procedure B(x: int) { assert x == x; }
procedure Silent(x: int) { var silent: int; silent := x + 1; assert silent == x + 1; }
procedure C(x: int) { assert x == x; }
procedure D(x: int) { assert x == x; }
