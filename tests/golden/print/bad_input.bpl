// OPTIONS: /print:- /env:0 /noVerify
// A program that does not parse is never printed: Boogie stops at the parse error, before
// /print, and reports it at its place in this file.
function f(x: int) : int { x + }
