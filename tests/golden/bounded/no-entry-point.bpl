// OPTIONS: /bounded
// EXIT: 1
// /bounded without /main needs a procedure marked {:entrypoint}: Corral's error.
procedure p() { assert true; }
