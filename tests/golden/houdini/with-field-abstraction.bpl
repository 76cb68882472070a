// OPTIONS: /contractInfer /fieldAbstraction /main:Main
// EXIT: 1
// Houdini's assignment and field abstraction's refinement loop each decide what the program is
// checked under: rboogie refuses the two together.
const {:existential true} b: bool;
procedure Main() { assert b ==> true; }
