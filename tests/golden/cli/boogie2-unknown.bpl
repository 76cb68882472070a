// OPTIONS: -z3opt:X -doNotUseLabels
// EXIT: 1
// Boogie 2 options with no meaning today stay unknown switches, in Boogie's words.
procedure P() { }
