// OPTIONS: /timeLimit:30 --format json --shard 2/2
// --shard 2/2: only the second shard's implementations are checked and reported, each with its
// place in the program order of all of them.
// Worked out by hand: sizes are 1 + the commands of the body: A 2, B 4, C 3. Largest first onto
// the least-loaded shard: B to shard 1 (load 4), C to shard 2 (load 3), A to shard 2 (3 < 4).
// So this shard reports A (`order` 0, verifies) and C (`order` 2, fails: x is not 2). The
// `finished` event counts this shard only (1 verified, 1 error) but names the whole program's 3
// implementations and the shard {index 2, count 2}.
procedure A() { assert true; }
procedure B(x: int) { assert x == x; assert x + 0 == x; assert 0 + x == x; }
procedure C(x: int) { assert x >= x; assert x == 2; }
