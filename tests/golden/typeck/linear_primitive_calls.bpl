// OPTIONS: /lib:base
// The checks Boogie's linear type checker makes of the linear primitives' calls: a path
// argument must be a variable or fields and map entries of one, never a field of a One nor a
// Map's dom; Move takes variables; Path_Load and Path_Store take ordinary values. Five errors
// here and three below (eight in all), each at its call.

type Elem;

procedure NotAPath()
{
  call Map_Put(Map_Empty(), 1, 2);
}

procedure FieldOfOne(o: One (Map int int))
{
  var p: One (Map int int);
  p := o;
  call Map_Put(p->val, 1, 2);
}

procedure MoveOfValues()
{
  call Move(1, 1);
}

procedure LoadOfLinear({:linear_in} l: One Elem) returns (v: One Elem)
{
  call v := Path_Load(l);
}

// A legal path: no error here.
procedure Legal(i: int)
{
  var mm: Map int (Map int int);
  call mm := Map_MakeEmpty();
  call Map_Put(mm->val[i], 1, 2);
}

var g: Map int int;

// A primitive assigns its path's variable: not an input, not one of the call's outputs, not
// a global the procedure does not modify. Three errors.
procedure AssignsInput(m: Map int int)
{
  call Map_Put(m, 1, 2);
}

procedure AssignsOutput() returns (m: Map int int)
{
  call m := Map_Split(m, MapConst(false));
}

procedure AssignsUnmodifiedGlobal()
{
  call Map_Put(g, 1, 2);
}

procedure AssignsModifiedGlobal()
  modifies g;
{
  call Map_Put(g, 1, 2);
}
