// OPTIONS: /noVerify %S/Inputs/missing.bpl
// A file that cannot be read is reported (with .NET's wording, the full path); Boogie
// still exits 0.
