// OPTIONS: --format json
// --format json on a program with a type error: a `diagnostic` event for `true` on line 7
// (column 3; phase typecheck, severity error), whose text is Boogie's
// `type_error.bpl(7,2): Error: ...` (Boogie counts that column from 0), and the `summary` event
// (1 type checking error); nothing is verified: no `verdict`, no `finished` event.
procedure P() { var x: int;
  x := true;
}
