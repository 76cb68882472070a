// An unstructured loop (gotos) that runs 3 times: as 03, leaving it after 3 iterations
// needs bound 4.
// RUN: /recursionBound:3 => no bugs within the bound
// RUN: /recursionBound:4 => bug at 19,5
procedure main()
{
  var i: int;
  start:
    i := 0;
    goto head;
  head:
    goto body, done;
  body:
    assume i < 3;
    i := i + 1;
    goto head;
  done:
    assume !(i < 3);
    assert i != 3; // @BUG
    return;
}
