// OPTIONS: /bounded
// EXIT: 1
// {:thread N} takes a number of copies.
var x: int;
procedure {:thread "two"} Worker() { x := 1; }
