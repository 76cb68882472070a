// OPTIONS: /noTypecheck
// Where Boogie reports the same problem more than once, rboogie does too.
procedure WithBody(x: Undeclared) { }

procedure Guards(b: bool)
{
  if (nope) { } else { }
  while (never) { }
}

procedure Shared(x, y: int where z > 0);

procedure Attributes()
{
  assume {:note what} true;
  assert {:note who} true;
}
