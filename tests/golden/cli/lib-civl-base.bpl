// OPTIONS: /noVerify
// A declaration with a Civl attribute ({:layer}) brings in /lib:base without asking, as in
// Boogie: Set_Empty and Option resolve.
var {:layer 0, 1} pending: [int]bool;
const none: Option int;
axiom none == None();
function {:inline} Fresh(): [int]bool { Set_Empty() }
