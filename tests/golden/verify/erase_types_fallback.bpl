// OPTIONS: /timeLimit:30
// Polymorphism the monomorphizer cannot instantiate (a map whose type parameter occurs only in
// its result) is erased instead; programs it can instantiate keep their array encoding.
type ref;
const null: ref;
var p: <a>[]a;

procedure P()
  modifies p;
{
  p[] := 12;
  p[] := true;
  assert p[];
  p := p[:= null];
  assert p[] == null;
}

procedure Q()
  modifies p;
{
  p[] := 3;
  assert p[] < 3;                 // error
}
