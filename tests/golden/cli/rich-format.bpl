// OPTIONS: /noVerify --format rich
// rboogie's rich diagnostics (no colour when stdout is not a terminal).
procedure P()
{
  assert true
}
