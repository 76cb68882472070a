// OPTIONS: /thread:Missing /k:2
// EXIT: 1
// A thread of STORM's harness must name a procedure of the program.
var x: int;
procedure Worker() { x := 1; }
