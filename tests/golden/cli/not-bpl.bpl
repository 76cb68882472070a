// OPTIONS: /noVerify %s %S/Inputs/notes.md
// EXIT: 1
// Every input must end in .bpl; Boogie checks them all before reading any.
