// A string that starts an attribute parameter is the whole parameter, so the `:` after it is
// out of place (not a coercion). Like Boogie, rboogie then carries on as if the `}` it wanted
// had been there, keeps quiet until two more tokens are read (`: int`, taken as the result
// type), and reports the function's missing body where the stray `}` stands.
function {:smtname "plus" : int} Plus(int, int): int;
