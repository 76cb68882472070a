// OPTIONS: /timeLimit:30
// What rboogie cannot encode yet is reported, never verified.
procedure Lambda() {
  var f: [int]int;
  f := (lambda x: int :: x + 1);
  assert f[1] == 2;
}

procedure Plain(x: int) {
  assert x == x;
}
