// OPTIONS: /noVerify
// A missing semicolon: reported at the next token, then the per-file count; exit code 0.
procedure P()
{
  assert true
}
