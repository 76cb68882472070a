// OPTIONS: /trace /silent /quiet
// `/trace`, `/quiet` and `/silent` set one setting in Boogie (`Verbosity`): the last one given
// wins. Here `/quiet`: the error and its trace are printed, with no progress lines (`/trace`
// lost to `/silent`, which lost to `/quiet`) and no closing line. Worked out by hand: the
// assertion `1 == 2` fails on the one path, through block anon0.
procedure Fails()
{
  assert 1 == 2;
}
