// OPTIONS: /timeLimit:30
// Pool instances of a lambda are facts about the lambda, never more: each assertion below
// is false in some model, and is reported.
type Key;
function Weight(Key): int;

// The instance at k says heavy[k] == (Weight(k) > limit); that does not decide Weight(k).
procedure Undecided(limit: int, k: Key)
{
  var heavy: [Key]bool;
  heavy := (lambda {:pool "Keys"} x: Key :: Weight(x) > limit);
  assert {:add_to_pool "Keys", k} heavy[k];  // error
}

// A term of a pool no variable of the lambda names gives no instance.
procedure WrongPool(limit: int, k: Key)
{
  var heavy: [Key]bool;
  heavy := (lambda {:pool "Keys"} x: Key :: Weight(x) > limit);
  assume (forall x: Key :: !heavy[x]);
  assert {:add_to_pool "Elsewhere", k} Weight(k) <= limit;  // error
}
