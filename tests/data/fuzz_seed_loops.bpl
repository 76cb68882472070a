// Seed program for tests/no_panic.rs: loops, invariants, labels and calls.
/* A block comment /* with a nested one */ still inside. */

var counter: int;
var total: int where total >= 0;

const unique LIMIT: int;
axiom LIMIT > 10 && LIMIT < 1000;

#if DEBUG
procedure Trace(x: int);
#else
procedure {:inline 1} Trace(x: int)
{
}
#endif

procedure SumUpTo(n: int) returns (s: int)
  requires n >= 0;
  free requires counter == 0;
  modifies counter;
  ensures s == n * (n + 1) div 2;
  ensures counter == old(counter) + n;
{
  var i: int;
  i := 0;
  s := 0;
  while (i < n)
    invariant 0 <= i && i <= n;
    invariant {:msg "partial sum"} s == i * (i + 1) div 2;
    free invariant counter == old(counter) + i;
  {
    i := i + 1;
    s := s + i;
    counter := counter + 1;
    call Trace(i);
  }
}

#line 100 "generated.c"
procedure Search(a: [int]int, len: int, key: int) returns (found: bool, at: int)
  requires len >= 0;
  ensures found ==> a[at] == key;
  ensures !found ==> (forall j: int :: 0 <= j && j < len ==> a[j] != key);
{
  var k: int;
  found, at := false, -1;
  k := 0;
  outer:
  while (k < len)
    invariant 0 <= k && k <= len;
    invariant (forall j: int :: { a[j] } 0 <= j && j < k ==> a[j] != key);
  {
    if (a[k] == key) {
      found := true;
      at := k;
      break outer;
    } else if (a[k] > key) {
      k := k + 1;
    } else {
      k := k + 1;
    }
  }
}

procedure Gotos(x: int) returns (y: int)
{
  start:
    havoc y;
    goto left, right;
  left:
    assume y > x;
    goto done;
  right:
    assume !(y > x);
    y := x - (-1);
    goto done;
  done:
    assert {:subsumption 0} y > x;
    return;
}

procedure Nondet();
  modifies total;
implementation Nondet()
{
  while (*)
    invariant total >= 0;
  {
    if (*) { total := total + 1; } else { break; }
  }
}
