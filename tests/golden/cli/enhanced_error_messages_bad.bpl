// OPTIONS: /enhancedErrorMessages:2
// EXIT: 1
// Boogie takes 0 or 1 only: 2 is refused before anything is read, as Boogie refuses it.
procedure P() { }
