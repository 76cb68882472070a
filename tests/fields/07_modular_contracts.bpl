// Modular checking with contracts. Status is in Reset's postcondition, so it is always
// tracked: an implementation's postcondition reads the state its body wrote. Main's branch
// on Owner[o] (set to 1 just before) cannot set Status[o] := 7, but with Owner abstracted it
// can: a spurious counterexample, after which Owner is tracked. Log0 and Log1 never reach a
// check. Both implementations verify, with and without abstraction; from Main as entry point
// (Reset inlined) too.
// RUN: => 2 verified, 0 errors tracking Status, Owner
// RUN: /main:Main => no bugs tracking Status, Owner
var Status: [int]int;
var Owner: [int]int;
var Log0: [int]int;
var Log1: [int]int;

procedure Reset(o: int)
  modifies Status, Log0;
  ensures Status[o] == 0;
{
  Log0[o] := Log0[o] + 1;
  Status[o] := 0;
}

procedure Main(o: int)
  modifies Status, Owner, Log0, Log1;
{
  call Reset(o);
  Owner[o] := 1;
  Log1[o] := Log0[o];
  if (Owner[o] == 2) {
    Status[o] := 7;
  }
  assert Status[o] == 0;
}
