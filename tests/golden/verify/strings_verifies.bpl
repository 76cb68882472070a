// OPTIONS: /timeLimit:30
// Strings, regular expressions and sequences through SMT-LIB's theories: every assertion
// holds, so both procedures verify.
type {:builtin "Seq"} Seq _;
function {:builtin "seq.empty"} Nil(): Seq bool;
function {:builtin "seq.unit"} One(b: bool): Seq bool;
function {:builtin "seq.++"} Cat(a: Seq bool, b: Seq bool): Seq bool;
function {:builtin "seq.len"} Length(a: Seq bool): int;
function {:builtin "seq.nth"} At(a: Seq bool, i: int): bool;

function {:builtin "str.++"} Join(a: string, b: string): string;
function {:builtin "str.len"} Size(s: string): int;
function {:builtin "str.indexof"} Find(s: string, t: string): int;  // z3's two-argument form
function {:builtin "str.in.re"} Matches(s: string, r: regex): bool;
function {:builtin "str.to.re"} Exactly(s: string): regex;
function {:builtin "re.loop"} Repeat(r: regex, lo: int, hi: int): regex;

procedure Flags()
{
  var s: Seq bool;
  s := Cat(Cat(Nil(), One(true)), One(false));
  assert Length(s) == 2;
  assert At(s, 0) && !At(s, 1);
  assert Length(Nil()) == 0;
}

procedure Words(w: string)
  requires Size(w) == 2;
{
  // A quote inside a literal is one character.
  assert Size("say \"hi\"") == 8;
  assert Join("ab", w) != "ab";
  assert Find(Join("xy", w), "y") == 1;
  assert Matches("ababab", Repeat(Exactly("ab"), 2, 3));
  assert !Matches("ab", Repeat(Exactly("ab"), 2, 3));
}
