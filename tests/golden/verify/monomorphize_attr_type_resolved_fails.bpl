// OPTIONS: /timeLimit:30
// The attribute's call is typed by its argument; the assertion is false (nothing says what
// Pick returns), so one error is reported.
function Pick<T>(s: [T]bool): T;

procedure PickFromAll()
{
  var all: [bool]bool;
  assume {:add_to_pool "Picks", Pick(all)} true;
  assert Pick(all);  // error
}
