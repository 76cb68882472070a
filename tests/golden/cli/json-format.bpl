// OPTIONS: /noVerify --format json
// rboogie's JSON lines: one object per diagnostic, then the per-file summary.
procedure P()
{
  assert true
}
