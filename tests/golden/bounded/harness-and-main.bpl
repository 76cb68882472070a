// OPTIONS: /main:main
// EXIT: 1
// A harness of threads ({:thread}) is an entry point of its own: it cannot go with /main.
var x: int;
procedure {:thread} Worker() { x := 1; }
procedure main() { call Worker(); }
