// OPTIONS: /timeLimit:30
// Wrong claims about strings and sequences: each marked assertion fails, and nothing else.
type {:builtin "Seq"} Seq _;
function {:builtin "seq.empty"} Nil(): Seq int;
function {:builtin "seq.unit"} One(i: int): Seq int;
function {:builtin "seq.++"} Cat(a: Seq int, b: Seq int): Seq int;
function {:builtin "seq.len"} Length(a: Seq int): int;

function {:builtin "str.++"} Join(a: string, b: string): string;
function {:builtin "str.len"} Size(s: string): int;
function {:builtin "str.prefixof"} Starts(p: string, s: string): bool;

procedure Numbers(x: int)
{
  assert Length(Cat(One(x), Nil())) == 1;
  assert Cat(One(x), One(1)) == Cat(One(1), One(x));  // error: only when x == 1
}

procedure Text(w: string)
{
  assert Starts("ab", Join("ab", w));
  assert Size(Join(w, w)) > 0;  // error: w may be empty
  assert "a\"b" == "a\"b";
  assert "a\"b" == "a\"\"b";  // error: two quotes against one
}

// A builtin type that names no SMT-LIB sort rboogie knows: Boogie would send an undeclared
// sort the solver rejects; rboogie refuses the implementation (inconclusive).
type {:builtin "Weird"} W;
procedure UsesW(w: W)
{
  assert w == w;
}
