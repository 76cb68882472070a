// OPTIONS: /noTypecheck
// What a trigger may not be.
function f(int): int;
function g(int, int): int;
function p(int): bool;

axiom (forall x: int :: { f(x) == 0 } f(x) > 0);
axiom (forall x: int :: { f(x) < 0 } f(x) > 0);
axiom (forall x: int :: { p(x) && p(x) } p(x));
axiom (forall x: int :: { !p(x) } p(x));
axiom (forall x: int :: { x } p(x));
axiom (forall x, y: int :: { f(x) } g(x, y) > 0);
axiom (forall x: int :: { (forall y: int :: p(y)) } p(x));
axiom (forall x, y: int :: { f(x), f(y) } g(x, y) > 0);
axiom (forall x, y: int :: {:nopats f(x) } g(x, y) > 0);
