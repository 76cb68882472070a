// ==> is right-associative, <== left-associative; mixing them needs parentheses.
axiom true ==> false <== true;
