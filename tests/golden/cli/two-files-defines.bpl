// OPTIONS: /noVerify /print:- /env:0 %S/Inputs/defines.bpl %S/Inputs/defines.bpl
// Several files make one program, in order; the i-th file (from 0) has FILE_i defined.
