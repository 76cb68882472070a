// corral_assert_not_reachable() is `assert false`: reached when the child sees the flag its
// parent raises after spawning it (two rounds).
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 12,5 needing /k:2
// RUN: /k:3 => bug at 12,5 needing /k:2
var flag: bool;
procedure corral_assert_not_reachable();

procedure child()
{
  if (flag) {
    call corral_assert_not_reachable();
  }
}

procedure main()
  modifies flag;
{
  flag := false;
  async call child();
  flag := true;
}
