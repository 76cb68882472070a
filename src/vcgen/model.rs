//! Counterexample models as Boogie shows them (`/printModel:1`, `/mv:FILE`): the solver's
//! model read into Boogie's `Model` (functions of elements), the states that
//! `{:captureState}` marks along the failing path, and Boogie's `Model.Write` text.
//!
//! Expects the answer to `(get-model)` after `sat`. z3 4.8.12, under Boogie's `model.v2`
//! option, answers a string in its old model format (`x -> 5`, `f -> { 1 2 -> 3 else -> 0 }`),
//! which is what Boogie's `ParserZ3` reads; an answer in SMT-LIB's `define-fun` form (cvc5,
//! newer z3) is first turned into that format for its constants and for functions whose
//! body is a chain of `ite` on argument equalities, as Boogie's `SMTErrorModelConverter`
//! does. Names are mapped back to Boogie's (`x` for a variable's value at the entry, `x@N`
//! for its incarnations) through the names the VC declared.
//!
//! Written by hand: the format is Boogie's, element by element (`(- 8)` for a negative
//! number, `(_ (as-array) (k!0))` for an array given as a function), and the order of the
//! lines is .NET's culture-aware string order, which [`culture_cmp`] approximates (case and
//! punctuation weigh less than letters, lower case before upper case).

use std::cmp::Ordering;

use rustc_hash::FxHashMap;

use super::passify::{CapturePoint, ModelValue};

/// A function of the model (arity 0: a constant).
#[derive(Debug, Default)]
struct Func {
    name: String,
    arity: Option<usize>,
    constant: Option<String>,
    apps: Vec<(Vec<String>, String)>,
    default: Option<String>,
}

/// A captured state: its name and bindings (a variable without a value shows empty).
#[derive(Debug)]
struct State {
    name: String,
    bindings: Vec<(String, Option<String>)>,
}

/// Boogie's `Model`.
#[derive(Debug, Default)]
pub struct Model {
    funcs: Vec<Func>,
    by_name: FxHashMap<String, usize>,
    initial: Vec<(String, Option<String>)>,
    states: Vec<State>,
}

impl Model {
    fn func(&mut self, name: &str) -> &mut Func {
        let i = match self.by_name.get(name) {
            Some(&i) => i,
            None => {
                self.funcs.push(Func { name: name.to_string(), ..Func::default() });
                self.by_name.insert(name.to_string(), self.funcs.len() - 1);
                self.funcs.len() - 1
            }
        };
        &mut self.funcs[i]
    }

    /// `GetModelValue`: the constant's value, the constant made (without one) if the model
    /// has no such name.
    fn constant(&mut self, name: &str) -> Option<String> {
        let f = self.func(name);
        f.arity.get_or_insert(0);
        f.constant.clone()
    }

    /// Boogie's `ApplyRedirections`: under the type-erasing encodings, the elements that
    /// `U_2_bool` and `U_2_int` map are shown as what they map to.
    fn apply_redirections(&mut self) {
        let mut mapping: FxHashMap<String, String> = FxHashMap::default();
        for name in ["U_2_bool", "U_2_int"] {
            if let Some(&i) = self.by_name.get(name)
                && self.funcs[i].arity == Some(1)
            {
                for (args, result) in &self.funcs[i].apps {
                    mapping.insert(args[0].clone(), result.clone());
                }
            }
        }
        if mapping.is_empty() {
            return;
        }
        let sub = |e: &mut String| {
            if let Some(r) = mapping.get(e.as_str()) {
                *e = r.clone();
            }
        };
        for f in &mut self.funcs {
            f.constant.as_mut().map(sub);
            f.default.as_mut().map(sub);
            for (args, result) in &mut f.apps {
                args.iter_mut().for_each(sub);
                sub(result);
            }
        }
    }

    /// Boogie's `Model.Write`.
    pub fn write(&self) -> String {
        let mut out = String::from("*** MODEL\n");
        let mut order: Vec<&Func> = self.funcs.iter().collect();
        order.sort_by(|a, b| culture_cmp(&a.name, &b.name));
        for f in order.iter().filter(|f| f.arity == Some(0)) {
            out.push_str(&format!("{} -> {}\n", f.name, f.constant.as_deref().unwrap_or("")));
        }
        for f in order.iter().filter(|f| f.arity != Some(0)) {
            out.push_str(&format!("{} -> {{\n", f.name));
            let mut entries: Vec<(String, &str)> =
                f.apps.iter().map(|(args, r)| (args.iter().map(|a| format!("{a} ")).collect(), r.as_str())).collect();
            entries.sort_by(|a, b| culture_cmp(&a.0, &b.0));
            for (args, result) in entries {
                out.push_str(&format!("  {args}-> {result}\n"));
            }
            if let Some(d) = &f.default {
                out.push_str(&format!("  else -> {d}\n"));
            }
            out.push_str("}\n");
        }
        let states = std::iter::once(("<initial>", &self.initial))
            .chain(self.states.iter().map(|s| (s.name.as_str(), &s.bindings)));
        for (k, (name, bindings)) in states.enumerate() {
            if k == 0 && bindings.is_empty() {
                continue;
            }
            out.push_str(&format!("*** STATE {name}\n"));
            let mut sorted: Vec<&(String, Option<String>)> = bindings.iter().collect();
            sorted.sort_by(|a, b| culture_cmp(&a.0, &b.0));
            for (v, value) in sorted {
                out.push_str(&format!("  {v} -> {}\n", value.as_deref().unwrap_or("")));
            }
            out.push_str("*** END_STATE\n");
        }
        out.push_str("*** END_MODEL\n");
        out
    }
}

/// What the states of a model need to know of the implementation and its failing path.
pub struct Path<'p> {
    /// Every variable Boogie's `ModelViewInfo` lists (globals, formals, locals), each with the
    /// Boogie name of its value at the entry.
    pub variables: &'p [(String, String)],
    /// The `{:captureState}` points of the failing path, in order, up to the failure.
    pub points: Vec<&'p CapturePoint>,
    /// The variables' names by id.
    pub names: &'p FxHashMap<crate::typeck::VarId, String>,
}

/// The model the solver gave (`answer` to `(get-model)`) with the states along `path`, as
/// Boogie writes it; `rename` maps the VC's names (as the solver prints them) to Boogie's.
pub fn render(answer: &str, rename: &FxHashMap<String, String>, path: &Path) -> Option<String> {
    let text = model_text(answer)?;
    let mut model = parse(&text, rename)?;
    model.apply_redirections();
    // Boogie's `PopulateModelWithStates`.
    for (name, entry) in path.variables {
        let value = model.constant(entry);
        model.initial.push((name.clone(), value));
    }
    let mut previous: FxHashMap<crate::typeck::VarId, u32> = FxHashMap::default();
    for point in &path.points {
        let mut bindings = Vec::new();
        for (v, id, value) in &point.values {
            if previous.get(v) == Some(id) {
                continue;
            }
            let shown = match value {
                ModelValue::Constant(c) => model.constant(c),
                ModelValue::Literal(l) => Some(element(l).unwrap_or_else(|| l.to_string())),
            };
            bindings.push((path.names.get(v).cloned().unwrap_or_default(), shown));
        }
        model.states.push(State { name: point.name.clone(), bindings });
        previous = point.values.iter().map(|(v, id, _)| (*v, *id)).collect();
    }
    Some(model.write())
}

/// The model in z3's old format: z3 4.8.12's string answer unquoted, or a `define-fun` answer
/// converted.
fn model_text(answer: &str) -> Option<String> {
    let answer = answer.trim();
    if let Some(inner) = answer.strip_prefix('"').and_then(|a| a.strip_suffix('"')) {
        return Some(inner.replace("\"\"", "\""));
    }
    convert_define_funs(answer)
}

/// SMT-LIB's model answer (`((define-fun x () Int 5) ...)`) in z3's old format, as Boogie's
/// `SMTErrorModelConverter` writes it: constants as `x -> v`, functions as a table of the
/// argument values their `ite` chain compares against.
fn convert_define_funs(answer: &str) -> Option<String> {
    use crate::smt::sexpr::{self, SExpr};
    let parsed = sexpr::parse(answer)?;
    let SExpr::List(items) = parsed else { return None };
    // cvc5 wraps the definitions in `(model ...)` in older versions.
    let items: Vec<SExpr> = match items.first() {
        Some(SExpr::Atom(a)) if a == "model" => items.into_iter().skip(1).collect(),
        _ => items,
    };
    let mut out = String::new();
    for item in items {
        let SExpr::List(parts) = item else { continue };
        let [SExpr::Atom(kw), SExpr::Atom(name), SExpr::List(params), _sort, body] = &parts[..] else { continue };
        if kw != "define-fun" {
            continue;
        }
        let name = name.trim_matches('|');
        if params.is_empty() {
            out.push_str(&format!("{name} -> {body}\n"));
            continue;
        }
        let params: Vec<String> = params
            .iter()
            .filter_map(|p| match p {
                SExpr::List(pv) => pv.first().map(|x| x.to_string()),
                _ => None,
            })
            .collect();
        out.push_str(&format!("{name} -> {{\n"));
        let mut rest = body.clone();
        loop {
            match &rest {
                SExpr::List(ite) if ite.len() == 4 && matches!(&ite[0], SExpr::Atom(a) if a == "ite") => {
                    let Some(args) = condition_args(&ite[1], &params) else { break };
                    out.push_str(&format!("  {} -> {}\n", args.join(" "), ite[2]));
                    rest = ite[3].clone();
                }
                _ => break,
            }
        }
        out.push_str(&format!("  else -> {rest}\n}}\n"));
    }
    Some(out)
}

/// The argument values an `ite` condition tests (`(= x!0 1)`, `(and (= x!0 1) (= x!1 2))`),
/// in parameter order.
fn condition_args(cond: &crate::smt::sexpr::SExpr, params: &[String]) -> Option<Vec<String>> {
    use crate::smt::sexpr::SExpr;
    let mut values: Vec<Option<String>> = vec![None; params.len()];
    let mut eqs = Vec::new();
    match cond {
        SExpr::List(l) if matches!(l.first(), Some(SExpr::Atom(a)) if a == "and") => eqs.extend(l[1..].iter()),
        other => eqs.push(other),
    }
    for eq in eqs {
        let SExpr::List(e) = eq else { return None };
        let [SExpr::Atom(op), a, b] = &e[..] else { return None };
        if op != "=" {
            return None;
        }
        let (var, value) = if params.contains(&a.to_string()) { (a, b) } else { (b, a) };
        let k = params.iter().position(|p| *p == var.to_string())?;
        values[k] = Some(value.to_string());
    }
    values.into_iter().collect()
}

// ---------------------------------------------------------------------------------------------
// Boogie's `ParserZ3`

/// A token of a model line: a word or a parenthesized list.
#[derive(Clone, Debug)]
enum Token {
    Word(String),
    List(Vec<Token>),
}

/// Boogie's `GetFunctionTokens` on one line, names mapped back.
fn tokens(line: &str, rename: &FxHashMap<String, String>) -> Option<Vec<Token>> {
    let line = bit_vectors(line);
    let spaced = line.replace('(', " ( ").replace(')', " ) ");
    let mut stack: Vec<Vec<Token>> = vec![Vec::new()];
    for word in spaced.split(' ').filter(|w| !w.is_empty()) {
        match word {
            "(" => stack.push(Vec::new()),
            ")" => {
                let list = stack.pop()?;
                stack.last_mut()?.push(Token::List(list));
            }
            w => stack.last_mut()?.push(Token::Word(display_name(w, rename))),
        }
    }
    if stack.len() != 1 {
        return None;
    }
    stack.pop()
}

/// `DisplayName`: the Boogie name of a VC name (rboogie's `q@` prefix for names a solver
/// reserves taken off).
fn display_name(word: &str, rename: &FxHashMap<String, String>) -> String {
    let word = word.trim_matches('|');
    if let Some(name) = rename.get(word) {
        return name.clone();
    }
    bit_vectors(word.strip_prefix("q@").unwrap_or(word))
}

/// Boogie's rewriting of bit-vector sorts and values: `(_ BitVec 8)` is `bv8`, `(_ bv5 8)` is
/// `bv5[8]`, `(_ FloatingPoint 8 24)` is `float24e8`.
fn bit_vectors(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find("(_ ") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 3..];
        let Some(close) = after.find(')') else {
            out.push_str(&rest[i..]);
            return out;
        };
        let words: Vec<&str> = after[..close].split(' ').collect();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        match &words[..] {
            ["BitVec", n] if digits(n) => out.push_str(&format!("bv{n}")),
            [bv, n] if bv.starts_with("bv") && digits(&bv[2..]) && digits(n) => out.push_str(&format!("{bv}[{n}]")),
            ["FloatingPoint", e, s] if digits(e) && digits(s) => out.push_str(&format!("float{s}e{e}")),
            _ => {
                out.push_str("(_ ");
                rest = after;
                continue;
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// How Boogie shows an element named `name` (`Model.TryMkElement`); `None` for a name that is
/// no element.
fn element(name: &str) -> Option<String> {
    if name.eq_ignore_ascii_case("true") {
        return Some("true".into());
    }
    if name.eq_ignore_ascii_case("false") {
        return Some("false".into());
    }
    let mut name = name;
    if name.starts_with("bv") && name.len() > 4 && name.as_bytes()[2].is_ascii_digit() {
        name = &name[2..];
    }
    let first = name.chars().next()?;
    let numeric = first.is_ascii_digit() || (first == '-' && name[1..].starts_with(|c: char| c.is_ascii_digit()));
    if numeric {
        let mut n = name.strip_suffix(":int").unwrap_or(name);
        let mut size = None;
        if let Some(col) = n.find("bv").filter(|&c| c > 0) {
            size = Some(n[col + 2..].parse::<u32>().ok().filter(|&s| s > 0)?);
            n = &n[..col];
        } else if n.ends_with(']') {
            let col = n.find('[').filter(|&c| c > 0)?;
            size = Some(n[col + 1..n.len() - 1].parse::<u32>().ok().filter(|&s| s > 0)?);
            n = &n[..col];
        }
        let integer = n.strip_prefix('-').unwrap_or(n).bytes().all(|b| b.is_ascii_digit());
        return Some(match size {
            Some(s) if integer => format!("{n}bv{s}"),
            _ => n.to_string(),
        });
    }
    if first == '*' || name.starts_with("val!") || name.contains("!val!") {
        return Some(name.to_string());
    }
    if let Some(f) = name.strip_prefix("as-array[").and_then(|n| n.strip_suffix(']')) {
        return Some(format!("as-array[{f}]"));
    }
    Some(format!("({name})"))
}

/// `GetElt`: a word is an element, a list a constructor applied to elements (a list that does
/// not start with a word gets `_`).
fn element_of(token: &Token) -> Option<String> {
    match token {
        Token::Word(w) => element(w),
        Token::List(items) => {
            let (head, args): (String, &[Token]) = match items.first() {
                Some(Token::Word(w)) => (w.clone(), &items[1..]),
                _ => ("_".to_string(), &items[..]),
            };
            let mut out = format!("({head}");
            for a in args {
                out.push(' ');
                out.push_str(&element_of(a)?);
            }
            out.push(')');
            Some(out)
        }
    }
}

fn is_arrow(t: Option<&Token>) -> bool {
    matches!(t, Some(Token::Word(w)) if w == "->")
}

/// Boogie's `ParserZ3.Run` on one model.
fn parse(text: &str, rename: &FxHashMap<String, String>) -> Option<Model> {
    let mut model = Model::default();
    let mut lines = text.lines();
    // A line and, while its parentheses are open, the lines after it (`GetFunctionTokens`).
    let next = |lines: &mut std::str::Lines| -> Option<Option<Vec<Token>>> {
        let first = lines.next()?;
        let mut line = first.to_string();
        let mut open = count_parens(first, 0);
        if !first.contains('}') {
            while open > 0 {
                let Some(more) = lines.next() else { return Some(None) };
                line.push_str(more);
                open = count_parens(more, open);
            }
        }
        Some(tokens(&line, rename))
    };
    while let Some(words) = next(&mut lines) {
        let words = words?;
        if words.is_empty() {
            continue;
        }
        if words.len() == 3 && is_arrow(words.get(1)) {
            let Token::Word(name) = &words[0] else { return None };
            if matches!(&words[2], Token::Word(w) if w == "{") {
                // A function table, up to `}`.
                let skip = name == "array-ext";
                let mut entries = Vec::new();
                let mut default = None;
                loop {
                    let tuple = next(&mut lines)??;
                    if tuple.is_empty() {
                        continue;
                    }
                    if tuple.len() == 1 {
                        if matches!(&tuple[0], Token::Word(w) if w == "}") {
                            break;
                        }
                        default = Some(element_of(&tuple[0])?);
                        continue;
                    }
                    if tuple.len() == 2 || !is_arrow(tuple.get(tuple.len() - 2)) {
                        return None;
                    }
                    let result = &tuple[tuple.len() - 1];
                    if matches!(&tuple[0], Token::Word(w) if w == "else") {
                        if !matches!(result, Token::Word(w) if w == "#unspecified") {
                            default = Some(element_of(result)?);
                        }
                        continue;
                    }
                    let args = tuple[..tuple.len() - 2].iter().map(element_of).collect::<Option<Vec<_>>>()?;
                    entries.push((args, element_of(result)?));
                }
                if skip {
                    continue;
                }
                let f = model.func(name);
                if let Some((args, _)) = entries.first() {
                    f.arity = Some(args.len());
                }
                f.apps.extend(entries);
                if default.is_some() {
                    f.default = default;
                }
            } else {
                if name.starts_with("aux$$") {
                    continue;
                }
                let value = element_of(&words[2])?;
                let f = model.func(name);
                f.arity = Some(0);
                f.constant = Some(value);
            }
        } else if words.len() == 2 && is_arrow(words.get(1)) {
            // A name without a value.
        } else {
            return None;
        }
    }
    Some(model)
}

fn count_parens(s: &str, n: i64) -> i64 {
    s.chars().fold(n, |n, c| match c {
        '(' => n + 1,
        ')' => n - 1,
        _ => n,
    })
}

// ---------------------------------------------------------------------------------------------
// .NET's culture-aware string order

/// Where a character sorts first (ICU's root collation, which .NET's default string order
/// uses on Linux): spaces, then punctuation and symbols (in ICU's order), then digits, then
/// letters, case aside.
fn primary(c: char) -> (u8, u32) {
    const SYMBOLS: &str = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
    if c.is_whitespace() {
        return (0, c as u32);
    }
    if let Some(i) = SYMBOLS.find(c) {
        return (1, i as u32);
    }
    if c.is_ascii_digit() {
        return (2, c as u32);
    }
    if c.is_alphabetic() {
        return (3, c.to_lowercase().next().unwrap_or(c) as u32);
    }
    (1, 1000 + c as u32)
}

/// .NET's `string.Compare` in the invariant culture, as far as model names need it: letters
/// compared without case first, then lower case before upper case.
pub fn culture_cmp(a: &str, b: &str) -> Ordering {
    let pa = a.chars().map(primary);
    let pb = b.chars().map(primary);
    pa.cmp(pb)
        .then_with(|| {
            let case = |s: &str| s.chars().map(|c| c.is_uppercase()).collect::<Vec<_>>();
            case(a).cmp(&case(b))
        })
        .then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z3_old_format_as_boogie_writes_it() {
        let answer = "\"null -> T@ref!val!0\ns -> T@ref!val!0\nHeap -> (_ as-array k!0)\nm -> (- 8)\nControlFlow -> {\n  0 2 -> (- 1)\n  0 0 -> 3\n  else -> (- 1)\n}\ntickleBool -> {\n  true -> true\n  false -> true\n  else -> true\n}\"";
        let path = Path { variables: &[], points: Vec::new(), names: &FxHashMap::default() };
        let text = render(answer, &FxHashMap::default(), &path).expect("a model");
        assert_eq!(
            text,
            "*** MODEL\nHeap -> (_ (as-array) (k!0))\nm -> (- 8)\nnull -> T@ref!val!0\ns -> T@ref!val!0\nControlFlow -> {\n  0 0 -> 3\n  0 2 -> (- 1)\n  else -> (- 1)\n}\ntickleBool -> {\n  false -> true\n  true -> true\n  else -> true\n}\n*** END_MODEL\n"
        );
    }

    #[test]
    fn culture_order_puts_case_and_symbols_second() {
        let mut names = vec!["ControlFlow", "bool_2_U", "Ctor", "int_2_U", "Length", "k!0", "x@0", "x", "F", "Heap"];
        names.sort_by(|a, b| culture_cmp(a, b));
        assert_eq!(names, ["bool_2_U", "ControlFlow", "Ctor", "F", "Heap", "int_2_U", "k!0", "Length", "x", "x@0"]);
    }

    #[test]
    fn define_fun_models_are_converted() {
        let answer = "((define-fun x () Int 5) (define-fun f ((x!0 Int)) Int (ite (= x!0 1) 2 0)))";
        let path = Path { variables: &[], points: Vec::new(), names: &FxHashMap::default() };
        let text = render(answer, &FxHashMap::default(), &path).expect("a model");
        assert_eq!(text, "*** MODEL\nx -> 5\nf -> {\n  1 -> 2\n  else -> 0\n}\n*** END_MODEL\n");
    }
}
