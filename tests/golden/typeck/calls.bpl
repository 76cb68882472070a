// Function applications, procedure calls and implementations against their procedures.
function F(x: int, y: bool): int;
function Id<T>(x: T): T;
function Pair<A, B>(a: A, b: B): bool;
axiom F(true, 1) == 0;
axiom F(1) == 0;
axiom Id(3) == true;
axiom Pair(Id(1), Id(false));
procedure Q(x: int) returns (y: bool);
procedure R<T>(x: T, y: T) returns (z: T);
procedure Caller() {
  var a: int;
  var b: bool;
  call b := Q(true);
  call a := Q(0);
  call a := R(1, 2);
  call b := R(1, false);
}
procedure S(x: int) returns (y: bool);
implementation S(x: bool) returns (y: bool) { }
implementation S(z: int) returns (y: int) { }
procedure T<a>(x: a);
implementation T(x: int) { }
