// OPTIONS: /printModel:2
// EXIT: 1
// `/printModel` takes 0 or 1: anything else is Boogie's error for the option, and nothing
// is checked.
procedure P() { assert false; }
