// OPTIONS: /prune:2
// EXIT: 1
// `/prune` takes 0 or 1, as Boogie's integer flags do: anything else is a command-line error.
procedure P()
{
}
