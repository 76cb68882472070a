// Misplaced measures: type-checking errors of Boogie's measure checker, at Boogie's tokens
// (the column is counted from 0, as Boogie prints these).
procedure TwoClauses(k: int)
  measure k;
  measure k + 1;  // error: a second measure clause
{
}

procedure InBody()
{
  var n: int;
  n := 3;
  while (n > 0)
    measure n;
  {
    n := n - 1;
    measure n;  // error: not in a loop head
  }
}

procedure Unstructured()
{
  var n: int;
  start:
    n := 5;
    goto head;
  head:           // error: two measures in one loop head
    measure n;
    n := n - 1;
    measure n + 1;  // error: after an assignment
    goto head, done;
  done:
    return;
}

procedure Caller(k: int)
  measure k;
{
  call Callee(k, k);  // error: the callee's measure has another length
}

procedure Callee(a: int, b: int)
  measure a, b;
{
  call Caller(a);  // error: the same, seen from here
}
