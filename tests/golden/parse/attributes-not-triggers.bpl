// A trigger where only attributes may stand, and a bad {:nopats}.
function f(int): int;
procedure {f(0)} P();
axiom (forall x: int :: {:nopats "not an expression"} f(x) > 0);
procedure Q() { assert {:msg "fine"} {f(1)} true; }
