// OPTIONS: /inline:spec /print:- /env:0 /printInlined
// An inlined callee's ensures is Boogie's AssertEnsuresCmd: when it fails in the caller, the
// error is a postcondition's, on the return path that ends in the goto out of the inlined
// `Return` block (which Boogie makes without a token; /printInlined printed it, so it is at
// its place in the print of `caller`), and the related location is the callee's ensures where
// the first print put it. The callee verifies (its free requires is assumed there, and
// dropped where it is inlined): 1 verified, 1 error.
procedure {:inline 1} bump(x: int) returns (y: int)
  free requires x > 0;
  ensures y > 1;
{
  y := x + 1;
}

procedure caller()
{
  var r: int;
  call r := bump(0);
}
