// OPTIONS: /noTypecheck
// Attribute arguments are resolved; a few attributes count their arguments.
type {:source nowhere} T;
const {:comment C + K} K: int;
function {:note F(K)} F(int): int;
procedure {:note old(K)} P();

procedure Q()
{
  assert {:verified_under} true;
  assert {:minimize 1, 2} true;
  assume {:layer -1} true;
}
