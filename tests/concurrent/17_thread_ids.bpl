// Thread ids: each spawned thread gets an id larger than every id given before, and the
// parent learns its last child's id through corral_getChildThreadID.
// RUN: /k:2 => no bugs
var seen: int;
procedure corral_getThreadID() returns (t: int);
procedure corral_getChildThreadID() returns (t: int);

procedure child()
  modifies seen;
{
  var me: int;
  call me := corral_getThreadID();
  seen := me;
}

procedure main()
  modifies seen;
{
  var me, c: int;
  call me := corral_getThreadID();
  async call child();
  call c := corral_getChildThreadID();
  assert c > me;
}
