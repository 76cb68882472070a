// OPTIONS: /timeLimit:30
// EXIT: 1
// Bad input for monomorphization: depth<T> calls itself at Box T, so instantiating it never
// ends. Boogie refuses the whole program with its message (an expanding type cycle).
datatype Box<T> { Box(contents: T) }

function depth<T>(x: T): int {
  depth(Box(x)) - 1
}

procedure p() {
  assert depth(3) == depth(Box(3)) - 1;
}
