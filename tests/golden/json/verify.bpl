// OPTIONS: /timeLimit:30 --format json
// --format json on a program that verifies: one `verdict` event per implementation, in program
// order (`order` 0, 1), then the `finished` event; every line is a JSON object.
// Worked out by hand: Inc verifies (r = x + 1 > x). Twice verifies: the first call gives
// r1 > x, the second r2 > r1, so r2 >= x + 2 > x + 1. Twice's {:msg_if_verifies} is its
// verdict's `message` (without a position) and its `text`. Closing counts: 2 verified,
// 0 errors, `implementations` 2, shard 1/1.
procedure Inc(x: int) returns (r: int)
  ensures r > x;
{
  r := x + 1;
}

procedure {:msg_if_verifies "Twice verified"} Twice(x: int) returns (r: int)
  ensures r > x + 1;
{
  call r := Inc(x);
  call r := Inc(r);
}
