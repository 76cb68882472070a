// OPTIONS: /noVerify %S/Inputs/list.txt
// EXIT: 1
// A .txt input lists more input files; they are checked like the others.
