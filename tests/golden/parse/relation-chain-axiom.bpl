// Relations do not chain: after `b >= a` the expression is over, and the axiom wants its `;`.
axiom b >= a == c;
