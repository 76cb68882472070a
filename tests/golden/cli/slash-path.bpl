// OPTIONS: /noVerify /bogus %s
// EXIT: 1
// On Unix, Boogie takes an unknown /option for a file name, which then fails the .bpl check.
