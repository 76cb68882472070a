// A thread calls a procedure whose precondition reads shared state; main makes it false
// after the spawn. The precondition is checked at the call, in the thread's round.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 15,3 needing /k:2
// RUN: /k:3 => bug at 15,3 needing /k:2
var x: int;

procedure use()
  requires x >= 0;
{
}

procedure child()
{
  call use();
}

procedure main()
{
  x := 0;
  async call child();
  x := -1;
}
