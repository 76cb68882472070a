// OPTIONS: /timeLimit:30
// EXIT: 1
// Bad input: nothing fixes the type argument of Empty in the attribute. Boogie leaves it
// open and then refuses to monomorphize the program; so does rboogie, with Boogie's words.
function Empty<T>(): [T]bool;

procedure Open()
{
  assume {:add_to_pool "Sets", Empty()} true;
}
