// OPTIONS: /noTypecheck
// Top-level names declared twice, and the {:extern} escape hatch.
type Cell;
type Cell;
type bv8;
const k: int;
const k: int;
var g: int;
var g: bool;
function f(int): int;
function f(bool): bool;
procedure P();
procedure P(x: int);
axiom {:name "ax"} true;
axiom {:name "ax"} false;

// An {:extern} duplicate is dropped without a word, whichever comes first.
const {:extern} e: int;
const e: int;
function h(): int;
function {:extern} h(): bool;
procedure {:extern} Q(x: int);
procedure Q();

function twice<a, a>(x: a): a;
procedure Dup(x: int, x: bool) returns (x: int);
