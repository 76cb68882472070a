// OPTIONS: -bogus /noVerify:1 -ignoredAfterTheCountError
// EXIT: 1
// Boogie reports every unknown switch and stops at an argument-count error; the messages go
// to stderr (which the harness shows when the command line is refused), the exit code is 1.
