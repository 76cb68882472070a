// OPTIONS: /timeLimit:30
// A pool term must be a well-typed expression: an undeclared name is a resolution error.
procedure Bad(limit: int)
{
  var heavy: [int]bool;
  heavy := (lambda {:pool "Ints"} x: int :: x > limit);
  assert {:add_to_pool "Ints", missing} heavy[limit + 1];
}
