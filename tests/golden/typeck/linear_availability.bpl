// OPTIONS: /lib:base
// Which linear variables are available where (Boogie's linear type checker, outside Civl):
// a {:linear} or {:linear_in} input is available at entry; moving a linear value (assigning
// it, packing it, passing it to a {:linear_in} parameter) makes its source unavailable and
// its target available; at a return every linear output, {:linear} input and linear global
// must be available. Errors worked out by hand: eight, one in each procedure so marked; Fine,
// Loop and Restores have none.

type Elem;
datatype Pair { Pair(a: One Elem, b: One Elem) }

// Moves through an assignment, a pack and an unpack: p is available at the return.
procedure Fine({:linear_in} x: One Elem, {:linear_in} y: One Elem) returns ({:linear} p: Pair)
{
  var u: One Elem;
  var v: One Elem;
  u := x;
  p := Pair(u, y);
  Pair(u, v) := p;
  p := Pair(v, u);
}

// Error: output variable r must be available at a return.
procedure NoOutput() returns ({:linear} r: One Elem)
{
}

// Error: x was moved to r, so s gets nothing and is not available at the return.
procedure Twice({:linear_in} x: One Elem) returns ({:linear} r: One Elem, {:linear} s: One Elem)
{
  r := x;
  s := x;
}

// Error: input variable x, {:linear}, must be available again at the return.
procedure Consumes({:linear} x: One Elem) returns ({:linear} r: One Elem)
{
  r := x;
}

procedure Take({:linear_in} x: One Elem);

// Error: unavailable source x for linear parameter at position 0 (the second call).
procedure Uses({:linear_in} x: One Elem)
{
  call Take(x);
  call Take(x);
}

// Error: r is available after the then branch only; paths join by intersection.
procedure Branch(b: bool, {:linear_in} x: One Elem) returns ({:linear} r: One Elem)
{
  if (b) {
    r := x;
  }
}

// Error: linear variable x can occur at most once as the source of an assignment.
procedure SameSource({:linear_in} x: One Elem) returns ({:linear} r: One Elem, {:linear} s: One Elem)
{
  r, s := x, x;
}

// A loop that moves nothing: r stays available.
procedure Loop({:linear_in} x: One Elem, n: int) returns ({:linear} r: One Elem)
{
  var i: int;
  r := x;
  i := 0;
  while (i < n) {
    i := i + 1;
  }
}

var {:linear} g: One Elem;

// Error: global variable g must be available at a return.
procedure UsesGlobal() returns ({:linear} r: One Elem)
  modifies g;
{
  r := g;
}

procedure Nothing();

// Error: global variable g must be available at a call (it is back by the return).
procedure CallsWithout()
  modifies g;
{
  var t: One Elem;
  t := g;
  call Nothing();
  g := t;
}

// g moved out and back: no error.
procedure Restores()
  modifies g;
{
  var t: One Elem;
  t := g;
  g := t;
}
