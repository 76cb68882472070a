// 15 with the check and the subtraction in one atomic block: correct at every bound.
// RUN: /k:2 => no bugs
// RUN: /k:3 => no bugs
var balance: int;
var done: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure withdraw()
  modifies balance, done;
{
  call corral_atomic_begin();
  if (balance >= 10) {
    balance := balance - 10;
  }
  call corral_atomic_end();
  call corral_atomic_begin();
  done := done + 1;
  call corral_atomic_end();
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
