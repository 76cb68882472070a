// OPTIONS: /noVerify %s %S/Inputs/bad.bpl
// Each file gets its own errors and count; a bad first file does not stop the second.
procedure P()
{
  assert true
}
