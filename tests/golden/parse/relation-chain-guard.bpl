// The condition of `if ... then ... else` ends at the second relation: `then` is expected there.
axiom if x != c != y then b else c;
