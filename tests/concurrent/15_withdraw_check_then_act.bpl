// Atomicity violation: each withdrawal checks the balance, then subtracts. Both may pass the
// check on 10 before either subtracts (two rounds), leaving -10.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 28,3 needing /k:2
// RUN: /k:3 => bug at 28,3 needing /k:2
var balance: int;
var done: int;

procedure withdraw()
  modifies balance, done;
{
  var b: int;
  b := balance;
  if (b >= 10) {
    balance := balance - 10;
  }
  done := done + 1;
}

procedure main()
  modifies balance, done;
{
  balance := 10;
  done := 0;
  async call withdraw();
  async call withdraw();
  assume done == 2;
  assert balance >= 0;
}
