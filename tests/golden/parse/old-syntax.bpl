// Boogie 2 syntax that older front ends still emit.
// OPTIONS: /noResolve
type name;
const unique T: name;
const unique Sub: name extends unique T complete;
const unique Leaf: name extends Sub, T;
axiom Sub <: T;
// Attribute-style datatypes and other attributes named by keywords.
type {:datatype} List;
function {:constructor} nil(): List;
function {:constructor} cons(head: int, tail: List): List;
procedure {:yield} {:async} P();
