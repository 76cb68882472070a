// OPTIONS: --print-after=inlining
// EXIT: 1
// An unknown pass name is a command-line error that lists the passes.
procedure P() { }
