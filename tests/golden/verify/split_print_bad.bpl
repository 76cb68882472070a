// OPTIONS: /printSplit:%S/no-such-directory/split %s
// `/printSplit:FILE` writes each split to `FILE-NAME.spl`; a file that cannot be written is a
// warning on stderr (once per file), and the program is still checked: the assertion after
// the split fails (x is 1, not 2), one error.
procedure P()
{
  var x: int;
  x := 1;
  assert {:split_here} x == 2;
}
