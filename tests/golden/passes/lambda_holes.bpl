// OPTIONS: %s
// Lambda lifting by maximal holes: a lambda becomes a function applied to its largest
// subexpressions that mention none of its bound variables, so lambdas that differ only in
// those parts share one function and are provably equal when the parts are; `old` moves
// onto the globals under it, so a lambda keeps its meaning in a two-state context.
var counter: int;

procedure SameShape(p: int, q: int)
{
  var f, h: [int]int;
  f := (lambda k: int :: p * q);
  h := (lambda n: int :: q * p);
  assert f == h;
  f := (lambda k: int :: k - p);
  h := (lambda n: int :: n - q);
  assert p == q ==> f == h;
  assert f == h;  // error: p and q may differ
}

procedure Extensional(p: int)
{
  var f, h: [int]int;
  f := (lambda k: int :: k * 2 + p);
  h := (lambda k: int :: p + 2 * k);
  assert f == h;
  assert f != h;  // error
}

procedure Bump()
  modifies counter;
  ensures (lambda k: int :: old(counter) + k)[1] == counter;
  ensures (lambda k: int :: counter - old(counter + k))[0] == 1;
{
  counter := counter + 1;
  assert (lambda k: int :: old(old(counter)) < counter)[7];
}

procedure BumpAndCompare()
  modifies counter;
{
  counter := counter + 1;
  assert (lambda k: int :: old(counter) == counter)[7];  // error
}

procedure BumpWrongly()
  modifies counter;
  ensures (lambda k: bool :: old(counter))[true] == counter;  // error
{
  counter := counter + 1;
}

procedure Attributes()
  modifies counter;
  ensures (lambda k: int :: {:note old(counter), counter} k < counter)[old(counter)];
{
  counter := counter + 1;
}

procedure Binders(c: int)
{
  var f: [int]bool;
  f := (lambda k: int :: (forall j: int :: {f0(j, c)} f0(j, c) ==> k < c));
  assume f0(0, c);
  assert f[c - 1] ==> c - 1 < c;
  assert f[c] ==> false;
  assert f[c];  // error
}

function f0(int, int): bool;
