//! Pool-based quantifier instantiation (Boogie's `QuantifierInstantiationEngine`): a bound
//! variable's `{:pool "L"}` says which terms to instantiate its quantifier with, and
//! `{:add_to_pool "L", e...}` on an assertion, an assumption or a quantifier puts terms in the
//! pool `L`.
//!
//! Expects the VC of [`super::wlp`] whose terms [`super::encode`] annotated: a quantifier's
//! pools as `(! body :rboogie-pools (("L") ()) ...)`, one list of labels per bound variable,
//! and pool terms as `:rboogie-add-to-pool ("L" (sort term) ...)`, on the quantifier or on the
//! whole term of a command (`(! term :rboogie-add-to-pool ...)`). Guarantees the same VC
//! without those annotations, instantiated as Boogie does it when the implementation has a
//! pool term for a pool some `{:pool}` variable of its sort names (else only the annotations
//! go), and the declarations of the skolem constants first.
//!
//! Why here, on the SMT-LIB text of the VC: Boogie instantiates the VC after passification,
//! where a command's pool terms are in the incarnations current at the command, and where
//! the polarity of every quantifier is known (a `forall` to prove can be skolemized, one
//! assumed can be instantiated). The encoder knows the incarnations, this pass the polarities:
//! the annotations carry the one to the other, so no earlier stage needs to know about pools.
//! The VC is parsed into s-expressions (no library parses SMT-LIB terms the way this needs:
//! keeping the text of every atom), rewritten, and printed again.
//!
//! How (Boogie's three phases): the command pool terms are collected; the VC is skolemized
//! (a `forall` where the VC's truth needs it, an `exists` where it is assumed, when the
//! quantifier mentions no variable bound around it: sound, the solver refutes the negated VC);
//! the quantifiers outside any other quantifier whose every bound variable has a pool are set
//! aside. Then, until no pool grows: every such quantifier is instantiated with every
//! combination of its pools' terms (of the right sort), each instance skolemized in turn (its
//! skolemized quantifiers' own pool terms join the pools). Last, each quantifier set aside is
//! replaced by its instances: their conjunction for a `forall` that is assumed, their
//! disjunction for an `exists` to prove (Boogie's default without `/keepQuantifier`: a weaker
//! assumption, a stronger goal, both sound). Where Boogie would do the same to a quantifier of
//! the other or of unknown polarity (under `=` or `ite`, or not skolemized because it mentions
//! an enclosing bound variable), which would be unsound, the quantifier stays beside its
//! instances, and its instances are skolemized only as far as their polarity allows.
//!
//! Lambdas (Boogie's `BindLambdaFunction`): the definition axiom of a lifted lambda whose own
//! variables all have pools comes from the encoder ([`super::encode::Encoder::
//! lambda_definitions`]). Every application `lambda#N(args)` in the VC or in an instance
//! whose arguments mention no quantified variable (let-bound ones replaced by their terms)
//! is recorded; each round instantiates the axiom at every such `args` and every
//! combination of the pools' terms, and the instances are assumed beside the VC (asserted:
//! instances of an axiom, so sound whatever they are).

use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;

use super::wlp::Vc;

/// At most this many instances per VC, and this many rounds of the fixpoint: pools can grow
/// without end (an instance's skolem constants joining the pool it was instantiated from),
/// where Boogie would not terminate. Fewer instances are still sound.
const MAX_INSTANCES: usize = 10_000;
const MAX_ROUNDS: usize = 64;

#[derive(Clone, Debug, PartialEq)]
enum Sx {
    /// A symbol, keyword, literal or string, as written.
    Atom(String),
    List(Vec<Sx>),
    /// A quantifier set aside for instantiation, by its index in [`Engine::bound`].
    Bound(usize),
}

/// Where a subterm occurs in the VC (which the solver is asked to refute the negation of).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Polarity {
    /// Its truth makes the VC true: something to prove (Boogie's `Negative`).
    Goal,
    /// Assumed (Boogie's `Positive`).
    Hypothesis,
    Unknown,
}

impl Polarity {
    fn flip(self) -> Polarity {
        match self {
            Polarity::Goal => Polarity::Hypothesis,
            Polarity::Hypothesis => Polarity::Goal,
            Polarity::Unknown => Polarity::Unknown,
        }
    }

    fn join(self, other: Polarity) -> Polarity {
        if self == other { self } else { Polarity::Unknown }
    }
}

/// Skolemizes `vc` alone (no pools): each quantifier whose truth the VC needs (a `forall` to
/// prove, an `exists` assumed) gives way to fresh constants, so that its variables are ground
/// terms for an instantiation that works on ground terms ([`super::reach_ground`]). Sound, as
/// in [`run`]: the solver refutes the negated VC.
pub fn skolemize(mut vc: Vc) -> Vc {
    let text = if vc.defs.is_empty() { vc.commands.clone() } else { vc.define_funs() };
    let Some(commands) = parse(&text) else {
        return vc;
    };
    let mut engine = Engine::new();
    let commands: Vec<Sx> = commands.iter().map(|c| engine.skolemize_command(c)).collect();
    if engine.skolems.is_empty() {
        return vc;
    }
    let mut out = String::new();
    for (name, sort) in &engine.skolems {
        let _ = writeln!(out, "(declare-fun {name} () {})", print(sort));
    }
    for c in &commands {
        let _ = writeln!(out, "{}", print(&strip(c)));
    }
    vc.commands = out;
    vc
}

/// Whether SMT-LIB `text` carries the encoder's pool annotations (`:rboogie-pools`,
/// `:rboogie-add-to-pool`), which [`run`] reads and removes before a solver sees them.
pub fn annotated(text: &str) -> bool {
    text.contains(":rboogie-")
}

/// Instantiates the pool quantifiers of `vc` (see the module header). `registered` holds the
/// pools `{:pool}` variables name, with their sorts, as string literals.
pub fn run(mut vc: Vc, registered: &FxHashMap<String, FxHashSet<String>>, lambdas: &[String]) -> Vc {
    if !annotated(&vc.commands) {
        return vc;
    }
    // The engine reads and writes one `define-fun` per block (pool programs are small).
    let text = if vc.defs.is_empty() { vc.commands.clone() } else { vc.define_funs() };
    let Some(commands) = parse(&text) else {
        return vc;
    };
    let mut engine = Engine::new();
    let mut out = String::new();
    if has_sources(&commands, registered) {
        for (function, def) in lambdas.iter().filter_map(|text| LambdaDef::parse(text)) {
            engine.lambda_index.insert(function, engine.lambdas.len());
            engine.lambdas.push(def);
        }
        for c in &commands {
            collect_command_terms(c, false, &mut engine.fresh);
            engine.collect_applications(c, &mut Vec::new(), &mut FxHashMap::default());
        }
        let commands: Vec<Sx> = commands.iter().map(|c| engine.skolemize_command(c)).collect();
        engine.saturate();
        for (name, sort) in &engine.skolems {
            let _ = writeln!(out, "(declare-fun {name} () {})", print(sort));
        }
        for c in &commands {
            let _ = writeln!(out, "{}", print(&strip(&engine.expand(c))));
        }
        // The instances of lambda definitions are assumed (Boogie's `lambdaAxioms ==> VC`).
        for d in &engine.lambdas {
            for inst in &d.instances {
                let _ = writeln!(out, "(assert {})", print(&strip(&engine.expand(inst))));
            }
        }
    } else {
        for c in &commands {
            let _ = writeln!(out, "{}", print(&strip(c)));
        }
    }
    vc.commands = out;
    vc
}

// ---------------------------------------------------------------------------------------------
// S-expressions

fn parse(text: &str) -> Option<Vec<Sx>> {
    let bytes = text.as_bytes();
    let mut stack: Vec<Vec<Sx>> = vec![Vec::new()];
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'(' => {
                stack.push(Vec::new());
                i += 1;
            }
            b')' => {
                let list = stack.pop()?;
                stack.last_mut()?.push(Sx::List(list));
                i += 1;
            }
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ if c.is_ascii_whitespace() => i += 1,
            _ => {
                let start = i;
                if c == b'|' {
                    i += 1 + text[i + 1..].find('|')? + 1;
                } else if c == b'"' {
                    i += 1;
                    loop {
                        i += text[i..].find('"')? + 1;
                        if bytes.get(i) != Some(&b'"') {
                            break;
                        }
                        i += 1;
                    }
                } else {
                    while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !matches!(bytes[i], b'(' | b')') {
                        i += 1;
                    }
                }
                stack.last_mut()?.push(Sx::Atom(text[start..i].to_string()));
            }
        }
    }
    if stack.len() == 1 { stack.pop() } else { None }
}

fn print(sx: &Sx) -> String {
    fn go(sx: &Sx, out: &mut String) {
        match sx {
            Sx::Atom(a) => out.push_str(a),
            Sx::List(items) => {
                out.push('(');
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        out.push(' ');
                    }
                    go(item, out);
                }
                out.push(')');
            }
            Sx::Bound(i) => {
                let _ = write!(out, "<bound {i}>");
            }
        }
    }
    let mut out = String::new();
    go(sx, &mut out);
    out
}

fn head(items: &[Sx]) -> Option<&str> {
    match items.first() {
        Some(Sx::Atom(a)) => Some(a),
        _ => None,
    }
}

fn atom(s: impl Into<String>) -> Sx {
    Sx::Atom(s.into())
}

/// Whether `sx` uses any of `names`.
fn mentions(sx: &Sx, names: &[String]) -> bool {
    match sx {
        Sx::Atom(a) => names.iter().any(|n| n == a),
        Sx::List(items) => items.iter().any(|i| mentions(i, names)),
        Sx::Bound(_) => false,
    }
}

/// The `:key value` pairs of `attrs` (what follows the term in `(! term ...)`).
fn attributes(attrs: &[Sx]) -> Vec<(&str, Option<&Sx>)> {
    let items = attrs;
    let mut out = Vec::new();
    let mut k = 0;
    while k < items.len() {
        if let Sx::Atom(key) = &items[k]
            && key.starts_with(':')
        {
            let value = items.get(k + 1).filter(|v| !matches!(v, Sx::Atom(a) if a.starts_with(':')));
            out.push((key.as_str(), value));
            k += if value.is_some() { 2 } else { 1 };
        } else {
            k += 1;
        }
    }
    out
}

/// `("L" (sort term) ...)`: the label and the sorted terms.
fn pool_terms(value: &Sx) -> Option<(&str, Vec<(&Sx, &Sx)>)> {
    let Sx::List(items) = value else { return None };
    let Some(Sx::Atom(label)) = items.first() else { return None };
    let terms = items[1..]
        .iter()
        .filter_map(|t| match t {
            Sx::List(pair) if pair.len() == 2 => Some((&pair[0], &pair[1])),
            _ => None,
        })
        .collect();
    Some((label, terms))
}

/// A quantifier: `(forall ((x S) ...) body)` or `(forall (...) (! body attrs...))`.
struct Quant<'s> {
    forall: bool,
    binders: Vec<(&'s str, &'s Sx)>,
    body: &'s Sx,
    /// The attributes of `!` (patterns, pools, pool terms), as written.
    attrs: &'s [Sx],
}

impl<'s> Quant<'s> {
    fn of(items: &'s [Sx]) -> Option<Quant<'s>> {
        let forall = match head(items)? {
            "forall" => true,
            "exists" => false,
            _ => return None,
        };
        let [_, Sx::List(binders), body] = items else { return None };
        let binders = binders
            .iter()
            .map(|b| match b {
                Sx::List(pair) => match &pair[..] {
                    [Sx::Atom(name), sort] => Some((name.as_str(), sort)),
                    _ => None,
                },
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        let (body, attrs) = match body {
            Sx::List(inner) if head(inner) == Some("!") && inner.len() >= 2 => (&inner[1], &inner[2..]),
            _ => (body, &[][..]),
        };
        Some(Quant { forall, binders, body, attrs })
    }

    fn attributes(&self) -> Vec<(&'s str, Option<&'s Sx>)> {
        attributes(self.attrs)
    }

    /// Each bound variable's pools, when every one has some.
    fn pools(&self) -> Option<Vec<Vec<String>>> {
        self.pools_by_binder().filter(|pools| pools.iter().all(|p| !p.is_empty()))
    }

    /// Each bound variable's pools, when the quantifier has the annotation.
    fn pools_by_binder(&self) -> Option<Vec<Vec<String>>> {
        let (_, value) = self.attributes().into_iter().find(|(k, _)| *k == ":rboogie-pools")?;
        let Some(Sx::List(lists)) = value else { return None };
        let pools: Vec<Vec<String>> = lists
            .iter()
            .map(|l| match l {
                Sx::List(labels) => labels
                    .iter()
                    .filter_map(|a| match a {
                        Sx::Atom(a) => Some(a.clone()),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        (pools.len() == self.binders.len()).then_some(pools)
    }

    fn pool_terms(&self) -> Vec<(&'s str, Vec<(&'s Sx, &'s Sx)>)> {
        self.attributes()
            .into_iter()
            .filter(|(k, _)| *k == ":rboogie-add-to-pool")
            .filter_map(|(_, v)| pool_terms(v?))
            .collect()
    }
}

/// The polarity of each argument of `(op args...)` occurring with polarity `p`.
fn argument_polarity(op: Option<&str>, p: Polarity, k: usize, n: usize) -> Polarity {
    match op {
        Some("not") => p.flip(),
        Some("and" | "or") => p,
        Some("=>") if k < n => p.flip(),
        Some("=>") => p,
        Some("!") if k == 1 => p,
        _ => Polarity::Unknown,
    }
}

/// The polarity of the occurrences of `name` in `sx`, `None` when it does not occur.
fn occurrence_polarity(sx: &Sx, p: Polarity, name: &str) -> Option<Polarity> {
    match sx {
        Sx::Atom(a) => (a == name).then_some(p),
        Sx::Bound(_) => None,
        Sx::List(items) => {
            if let Some(q) = Quant::of(items) {
                return occurrence_polarity(q.body, p, name);
            }
            let op = head(items);
            let mut result: Option<Polarity> = None;
            for (k, item) in items.iter().enumerate().skip(1) {
                let arg = if op == Some("let") { p } else { argument_polarity(op, p, k, items.len() - 1) };
                if let Some(q) = occurrence_polarity(item, arg, name) {
                    result = Some(result.map_or(q, |r| r.join(q)));
                }
            }
            result
        }
    }
}

/// Whether the implementation has a pool term for a pool some `{:pool}` variable of the
/// term's sort names (Boogie's `InstantiationSourceChecker`): only then is the VC instantiated.
fn has_sources(commands: &[Sx], registered: &FxHashMap<String, FxHashSet<String>>) -> bool {
    match commands {
        [] => false,
        [Sx::Atom(_), rest @ ..] => has_sources(rest, registered),
        [Sx::Bound(_), rest @ ..] => has_sources(rest, registered),
        [Sx::List(items), rest @ ..] => {
            let found = items.windows(2).any(|w| match (&w[0], &w[1]) {
                (Sx::Atom(k), value) if k == ":rboogie-add-to-pool" => {
                    pool_terms(value).is_some_and(|(label, terms)| {
                        registered.get(label).is_some_and(|sorts| terms.iter().any(|(s, _)| sorts.contains(&print(s))))
                    })
                }
                _ => false,
            });
            found || has_sources(items, registered) || has_sources(rest, registered)
        }
    }
}

/// The pool terms of the commands: `(! term :rboogie-add-to-pool ...)` not the body of a
/// quantifier.
fn collect_command_terms(sx: &Sx, quantifier_body: bool, out: &mut Vec<(String, Sx, Sx)>) {
    let Sx::List(items) = sx else { return };
    if head(items) == Some("!") && !quantifier_body {
        for (key, value) in attributes(&items[2.min(items.len())..]) {
            if key == ":rboogie-add-to-pool"
                && let Some((label, terms)) = value.and_then(pool_terms)
            {
                out.extend(terms.into_iter().map(|(s, t)| (label.to_string(), s.clone(), t.clone())));
            }
        }
    }
    let is_quant = Quant::of(items).is_some();
    for (k, item) in items.iter().enumerate() {
        collect_command_terms(item, is_quant && k == 2, out);
    }
}

/// `sx` without this pass's annotations.
fn strip(sx: &Sx) -> Sx {
    let Sx::List(items) = sx else { return sx.clone() };
    if head(items) == Some("!") && items.len() >= 2 {
        let mut kept = vec![atom("!"), strip(&items[1])];
        let mut k = 2;
        while k < items.len() {
            match &items[k] {
                Sx::Atom(a) if a.starts_with(":rboogie-") => k += 2,
                other => {
                    kept.push(strip(other));
                    k += 1;
                }
            }
        }
        return if kept.len() == 2 { kept.pop().unwrap_or_else(|| atom("true")) } else { Sx::List(kept) };
    }
    Sx::List(items.iter().map(strip).collect())
}

// ---------------------------------------------------------------------------------------------
// The engine

/// A quantifier set aside, and its instances so far.
struct BoundQuant {
    forall: bool,
    binders: Vec<(String, Sx)>,
    pools: Vec<Vec<String>>,
    body: Sx,
    polarity: Polarity,
    /// The quantifier itself, for where it must stay.
    quant: Sx,
    instances: Vec<Sx>,
    done: FxHashSet<String>,
}

struct Engine {
    /// Skolem constants and their sorts.
    skolems: Vec<(String, Sx)>,
    /// Pool terms found and not yet in `pools`: label, sort, term.
    fresh: Vec<(String, Sx, Sx)>,
    pools: FxHashMap<String, Pool>,
    bound: Vec<BoundQuant>,
    /// The lambda definitions, and their indexes by function name.
    lambdas: Vec<LambdaDef>,
    lambda_index: FxHashMap<String, usize>,
    /// Whether an application was found since the last round.
    new_applications: bool,
}

/// A lifted lambda's definition axiom with pools (Boogie's `lambdaDefinition`), the
/// applications of its function found so far, and its instances.
struct LambdaDef {
    /// The holes (the function's parameters), then the lambda's own variables.
    binders: Vec<(String, Sx)>,
    holes: usize,
    /// The pools of the lambda's own variables.
    pools: Vec<Vec<String>>,
    /// `(= (select (lambda#N holes..) vars..) body)`.
    body: Sx,
    applications: Vec<Vec<Sx>>,
    seen: FxHashSet<String>,
    instances: Vec<Sx>,
    done: FxHashSet<String>,
}

impl LambdaDef {
    /// Reads a definition as [`super::encode::Encoder::lambda_definitions`] writes it: the
    /// function's name and the definition, when each of the lambda's own variables has a pool.
    fn parse(text: &str) -> Option<(String, LambdaDef)> {
        let [Sx::List(items)] = &parse(text)?[..] else { return None };
        let q = Quant::of(items)?;
        let pools = q.pools_by_binder()?;
        let (_, Some(Sx::List(pattern))) = q.attributes().into_iter().find(|(k, _)| *k == ":pattern")? else {
            return None;
        };
        let [Sx::List(select)] = &pattern[..] else { return None };
        let [_, Sx::List(application), ..] = &select[..] else { return None };
        let Some(Sx::Atom(function)) = application.first() else { return None };
        let holes = application.len() - 1;
        let own = pools.get(holes..)?;
        if q.forall && !own.is_empty() && own.iter().all(|p| !p.is_empty()) {
            let def = LambdaDef {
                binders: q.binders.iter().map(|(n, s)| (n.to_string(), (*s).clone())).collect(),
                holes,
                pools: own.to_vec(),
                body: q.body.clone(),
                applications: Vec::new(),
                seen: FxHashSet::default(),
                instances: Vec::new(),
                done: FxHashSet::default(),
            };
            return Some((function.clone(), def));
        }
        None
    }
}

/// A pool's terms with their sorts.
#[derive(Default)]
struct Pool {
    terms: Vec<(Sx, Sx)>,
    /// The printed sorts and terms, for deduplication.
    seen: FxHashSet<String>,
}

/// What [`Engine::skolemize`] carries down a term.
struct Scope {
    /// Variables bound around the current subterm (quantifiers and lets).
    binders: Vec<String>,
    /// Skolemized variables and instantiated ones, by their constants or terms.
    subst: FxHashMap<String, Sx>,
}

impl Engine {
    fn new() -> Engine {
        Engine {
            skolems: Vec::new(),
            fresh: Vec::new(),
            pools: FxHashMap::default(),
            bound: Vec::new(),
            lambdas: Vec::new(),
            lambda_index: FxHashMap::default(),
            new_applications: false,
        }
    }

    fn skolemize_command(&mut self, c: &Sx) -> Sx {
        match c {
            Sx::List(items) if head(items) == Some("define-fun") && items.len() == 5 => {
                let mut items = items.clone();
                let mut scope = Scope { binders: Vec::new(), subst: FxHashMap::default() };
                items[4] = self.skolemize(&items[4], Polarity::Goal, &mut scope, true);
                Sx::List(items)
            }
            other => other.clone(),
        }
    }

    fn fresh_skolem(&mut self, sort: &Sx) -> Sx {
        let name = format!("|skolem@!{}|", self.skolems.len());
        self.skolems.push((name.clone(), sort.clone()));
        atom(name)
    }

    /// Boogie's `Skolemizer` then `Factorizer`: skolemizes `sx`, occurring with polarity `p`,
    /// and (when `outside` no quantifier) sets aside the quantifiers with pools.
    fn skolemize(&mut self, sx: &Sx, p: Polarity, scope: &mut Scope, outside: bool) -> Sx {
        let items = match sx {
            Sx::Atom(a) => return scope.subst.get(a).cloned().unwrap_or_else(|| sx.clone()),
            Sx::Bound(_) => return sx.clone(),
            Sx::List(items) => items,
        };
        if let Some(q) = Quant::of(items) {
            let skolemizable = match p {
                Polarity::Goal => q.forall,
                Polarity::Hypothesis => !q.forall,
                Polarity::Unknown => false,
            } && !mentions(sx, &scope.binders);
            if skolemizable {
                let mut saved = Vec::new();
                for (name, sort) in &q.binders {
                    let k = self.fresh_skolem(sort);
                    saved.push((name.to_string(), scope.subst.insert(name.to_string(), k)));
                }
                let body = self.skolemize(q.body, p, scope, outside);
                for (label, terms) in q.pool_terms() {
                    for (sort, term) in terms {
                        let term = substitute(term, &scope.subst);
                        // A term of a variable bound around the quantifier has no meaning
                        // outside it.
                        if !mentions(&term, &scope.binders) {
                            self.fresh.push((label.to_string(), sort.clone(), term));
                        }
                    }
                }
                restore(scope, saved);
                return body;
            }
            let mut saved = Vec::new();
            for (name, _) in &q.binders {
                scope.binders.push(name.to_string());
                saved.push((name.to_string(), scope.subst.remove(*name)));
            }
            let body = self.skolemize(q.body, p, scope, false);
            let attrs: Vec<Sx> = q.attrs.iter().map(|a| substitute(a, &scope.subst)).collect();
            scope.binders.truncate(scope.binders.len() - q.binders.len());
            restore(scope, saved);
            let Sx::List(rebuilt) = sx else { unreachable!() };
            let mut rebuilt = rebuilt.clone();
            rebuilt[2] = if attrs.is_empty() {
                body.clone()
            } else {
                Sx::List([atom("!"), body.clone()].into_iter().chain(attrs).collect())
            };
            let rebuilt = Sx::List(rebuilt);
            if outside && let Some(pools) = q.pools() {
                self.bound.push(BoundQuant {
                    forall: q.forall,
                    binders: q.binders.iter().map(|(n, s)| (n.to_string(), (*s).clone())).collect(),
                    pools,
                    body,
                    polarity: p,
                    quant: rebuilt,
                    instances: Vec::new(),
                    done: FxHashSet::default(),
                });
                return Sx::Bound(self.bound.len() - 1);
            }
            return rebuilt;
        }
        let op = head(items);
        if op == Some("let")
            && let [_, Sx::List(bindings), body] = &items[..]
        {
            let names: Vec<String> = binder_names(bindings).into_iter().map(str::to_string).collect();
            // A bound term has the polarity of its uses (Boogie's `VisitAfterBinding`).
            let mut new_bindings = Vec::new();
            scope.binders.extend(names.iter().cloned());
            for b in bindings {
                match b {
                    Sx::List(pair) if pair.len() == 2 => {
                        let use_polarity = match &pair[0] {
                            Sx::Atom(n) => occurrence_polarity(body, p, n).unwrap_or(Polarity::Unknown),
                            _ => Polarity::Unknown,
                        };
                        let rhs = self.skolemize(&pair[1], use_polarity, scope, outside);
                        new_bindings.push(Sx::List(vec![pair[0].clone(), rhs]));
                    }
                    other => new_bindings.push(other.clone()),
                }
            }
            let saved: Vec<(String, Option<Sx>)> = names.iter().map(|n| (n.clone(), scope.subst.remove(n))).collect();
            let body = self.skolemize(body, p, scope, outside);
            restore(scope, saved);
            scope.binders.truncate(scope.binders.len() - names.len());
            return Sx::List(vec![items[0].clone(), Sx::List(new_bindings), body]);
        }
        let n = items.len() - 1;
        let mut out = Vec::with_capacity(items.len());
        for (k, item) in items.iter().enumerate() {
            if k == 0 && op.is_some() {
                out.push(item.clone());
            } else if op == Some("!") && k > 1 {
                out.push(substitute(item, &scope.subst));
            } else {
                out.push(self.skolemize(item, argument_polarity(op, p, k, n), scope, outside));
            }
        }
        Sx::List(out)
    }

    /// Boogie's fixpoint: pools and lambda applications to instances, instances to skolem
    /// constants and applications, those to pools.
    fn saturate(&mut self) {
        let mut budget = MAX_INSTANCES;
        for _ in 0..MAX_ROUNDS {
            if self.fresh.is_empty() && !std::mem::take(&mut self.new_applications) {
                break;
            }
            for (label, sort, term) in std::mem::take(&mut self.fresh) {
                let pool = self.pools.entry(label).or_default();
                if pool.seen.insert(format!("{} {}", print(&sort), print(&term))) {
                    pool.terms.push((sort, term));
                }
            }
            let mut i = 0;
            while i < self.bound.len() {
                self.instantiate(i, &mut budget);
                i += 1;
            }
            for i in 0..self.lambdas.len() {
                self.instantiate_lambda(i, &mut budget);
            }
        }
    }

    /// The terms each variable may be instantiated with: those of its pools of its sort.
    /// `None` when a variable has none.
    fn choices(&self, binders: &[(String, Sx)], pools: &[Vec<String>]) -> Option<Vec<Vec<Sx>>> {
        let mut choices: Vec<Vec<Sx>> = Vec::new();
        for ((_, sort), labels) in binders.iter().zip(pools) {
            let mut seen = FxHashSet::default();
            let mut terms = Vec::new();
            for l in labels {
                for (s, t) in self.pools.get(l).map(|p| &p.terms[..]).unwrap_or(&[]) {
                    // A pool can hold terms of several sorts: only those of the variable's.
                    if s == sort && seen.insert(print(t)) {
                        terms.push(t.clone());
                    }
                }
            }
            if terms.is_empty() {
                return None;
            }
            choices.push(terms);
        }
        Some(choices)
    }

    /// Instantiates quantifier `i` with every combination of its pools' terms.
    fn instantiate(&mut self, i: usize, budget: &mut usize) {
        let b = &self.bound[i];
        let Some(choices) = self.choices(&b.binders, &b.pools) else { return };
        for instance in combinations(&choices) {
            let key = instance.iter().map(print).collect::<Vec<_>>().join(" ");
            if self.bound[i].done.contains(&key) {
                continue;
            }
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            let b = &self.bound[i];
            let subst: FxHashMap<String, Sx> = b.binders.iter().map(|(n, _)| n.clone()).zip(instance).collect();
            let (body, p) = (substitute(&b.body, &subst), b.polarity);
            let inst = self.skolemize_instance(&body, p);
            let b = &mut self.bound[i];
            b.done.insert(key);
            b.instances.push(inst);
        }
    }

    /// Instantiates lambda definition `i` at every application of its function met so far and
    /// every combination of its pools' terms (Boogie's `InstantiateLambdaDefinition`).
    fn instantiate_lambda(&mut self, i: usize, budget: &mut usize) {
        let d = &self.lambdas[i];
        if d.applications.is_empty() {
            return;
        }
        let Some(choices) = self.choices(&d.binders[d.holes..], &d.pools) else { return };
        let applications = d.applications.clone();
        for args in &applications {
            for terms in combinations(&choices) {
                let instance: Vec<Sx> = args.iter().cloned().chain(terms).collect();
                let key = instance.iter().map(print).collect::<Vec<_>>().join(" ");
                if self.lambdas[i].done.contains(&key) {
                    continue;
                }
                if *budget == 0 {
                    return;
                }
                *budget -= 1;
                let d = &self.lambdas[i];
                let subst: FxHashMap<String, Sx> = d.binders.iter().map(|(n, _)| n.clone()).zip(instance).collect();
                let body = substitute(&d.body, &subst);
                // An instance of the definition axiom is assumed.
                let inst = self.skolemize_instance(&body, Polarity::Hypothesis);
                let d = &mut self.lambdas[i];
                d.done.insert(key);
                d.instances.push(inst);
            }
        }
    }

    /// An instance (its variables already replaced), skolemized as far as its polarity `p`
    /// allows, its lambda applications collected first (Boogie's `Skolemize` on an instance).
    fn skolemize_instance(&mut self, instance: &Sx, p: Polarity) -> Sx {
        self.collect_applications(instance, &mut Vec::new(), &mut FxHashMap::default());
        let mut scope = Scope { binders: Vec::new(), subst: FxHashMap::default() };
        self.skolemize(instance, p, &mut scope, true)
    }

    /// Boogie's `LambdaInstanceCollector`: records the argument lists of the applications of
    /// lambda functions with a definition to instantiate, let-bound variables replaced by
    /// their terms, unless they mention a variable a quantifier binds (`quantified`).
    fn collect_applications(&mut self, sx: &Sx, quantified: &mut Vec<String>, lets: &mut FxHashMap<String, Sx>) {
        let Sx::List(items) = sx else { return };
        if let Some(q) = Quant::of(items) {
            let n = quantified.len();
            quantified.extend(q.binders.iter().map(|(name, _)| name.to_string()));
            let saved: Vec<(String, Option<Sx>)> =
                q.binders.iter().map(|(name, _)| (name.to_string(), lets.remove(*name))).collect();
            self.collect_applications(q.body, quantified, lets);
            restore_map(lets, saved);
            quantified.truncate(n);
            return;
        }
        if head(items) == Some("let")
            && let [_, Sx::List(bindings), body] = &items[..]
        {
            let mut defined = Vec::new();
            for b in bindings {
                if let Sx::List(pair) = b
                    && let [Sx::Atom(name), rhs] = &pair[..]
                {
                    self.collect_applications(rhs, quantified, lets);
                    defined.push((name.clone(), substitute(rhs, lets)));
                }
            }
            let saved: Vec<(String, Option<Sx>)> =
                defined.into_iter().map(|(name, term)| (name.clone(), lets.insert(name, term))).collect();
            self.collect_applications(body, quantified, lets);
            restore_map(lets, saved);
            return;
        }
        if let Some(f) = head(items)
            && let Some(&i) = self.lambda_index.get(f)
        {
            let args: Vec<Sx> = items[1..].iter().map(|a| substitute(a, lets)).collect();
            let d = &mut self.lambdas[i];
            if args.len() == d.holes
                && !args.iter().any(|a| mentions(a, quantified))
                && d.seen.insert(args.iter().map(print).collect::<Vec<_>>().join(" "))
            {
                d.applications.push(args);
                self.new_applications = true;
            }
        }
        for item in items {
            self.collect_applications(item, quantified, lets);
        }
    }

    /// `sx` with each quantifier set aside replaced by its instances.
    fn expand(&self, sx: &Sx) -> Sx {
        match sx {
            Sx::Atom(_) => sx.clone(),
            Sx::List(items) => Sx::List(items.iter().map(|i| self.expand(i)).collect()),
            Sx::Bound(i) => {
                let b = &self.bound[*i];
                let mut parts: Vec<Sx> = b.instances.iter().map(|x| self.expand(x)).collect();
                let proper = match b.polarity {
                    Polarity::Hypothesis => b.forall,
                    Polarity::Goal => !b.forall,
                    Polarity::Unknown => false,
                };
                if !proper {
                    parts.insert(0, b.quant.clone());
                }
                let op = if b.forall { "and" } else { "or" };
                match parts.len() {
                    0 => atom(if b.forall { "true" } else { "false" }),
                    1 => parts.pop().unwrap_or_else(|| atom("true")),
                    _ => Sx::List([atom(op)].into_iter().chain(parts).collect()),
                }
            }
        }
    }
}

fn restore(scope: &mut Scope, saved: Vec<(String, Option<Sx>)>) {
    restore_map(&mut scope.subst, saved);
}

fn restore_map(map: &mut FxHashMap<String, Sx>, saved: Vec<(String, Option<Sx>)>) {
    for (name, old) in saved.into_iter().rev() {
        match old {
            Some(t) => map.insert(name, t),
            None => map.remove(&name),
        };
    }
}

/// Every combination of one term from each of `choices`, the first varying fastest.
fn combinations(choices: &[Vec<Sx>]) -> impl Iterator<Item = Vec<Sx>> + '_ {
    let mut index = vec![0usize; choices.len()];
    let mut finished = choices.iter().any(|c| c.is_empty());
    std::iter::from_fn(move || {
        if finished {
            return None;
        }
        let combination = index.iter().zip(choices).map(|(&k, c)| c[k].clone()).collect();
        finished = true;
        for (d, c) in choices.iter().enumerate() {
            index[d] += 1;
            if index[d] < c.len() {
                finished = false;
                break;
            }
            index[d] = 0;
        }
        Some(combination)
    })
}

/// The variables `((x t) ...)` binds (a quantifier's sorted variables, a let's bindings).
fn binder_names(bindings: &[Sx]) -> Vec<&str> {
    bindings
        .iter()
        .filter_map(|b| match b {
            Sx::List(pair) => match pair.first() {
                Some(Sx::Atom(n)) => Some(n.as_str()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// `sx` with the variables of `subst` replaced, respecting the binders inside.
fn substitute(sx: &Sx, subst: &FxHashMap<String, Sx>) -> Sx {
    if subst.is_empty() {
        return sx.clone();
    }
    let items = match sx {
        Sx::Atom(a) => return subst.get(a).cloned().unwrap_or_else(|| sx.clone()),
        Sx::Bound(_) => return sx.clone(),
        Sx::List(items) => items,
    };
    let (Some(binder @ ("forall" | "exists" | "let")), Some(Sx::List(bindings))) = (head(items), items.get(1)) else {
        return Sx::List(items.iter().map(|i| substitute(i, subst)).collect());
    };
    let names = binder_names(bindings);
    let shadowing;
    let inner = if names.iter().any(|n| subst.contains_key(*n)) {
        shadowing =
            subst.iter().filter(|(k, _)| !names.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect();
        &shadowing
    } else {
        subst
    };
    // A let's right-hand sides are outside its scope; sorts have no variables.
    let bindings = bindings
        .iter()
        .map(|b| match b {
            Sx::List(pair) if binder == "let" && pair.len() == 2 => {
                Sx::List(vec![pair[0].clone(), substitute(&pair[1], subst)])
            }
            other => other.clone(),
        })
        .collect();
    let mut out = vec![items[0].clone(), Sx::List(bindings)];
    out.extend(items[2..].iter().map(|i| substitute(i, inner)));
    Sx::List(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vc(commands: &str) -> Vc {
        Vc {
            commands: commands.to_string(),
            defs: Vec::new(),
            block_ids: Vec::new(),
            checks: Vec::new(),
            check_ids: Vec::new(),
            assertions: 0,
        }
    }

    fn registered(label: &str, sort: &str) -> FxHashMap<String, FxHashSet<String>> {
        let mut map: FxHashMap<String, FxHashSet<String>> = FxHashMap::default();
        map.entry(label.to_string()).or_default().insert(sort.to_string());
        map
    }

    #[test]
    fn parse_and_print_keep_atoms() {
        let text = r#"(define-fun |a b| () Bool (! (f "x""y" |c d|) :pattern ((g 1))))"#;
        let parsed = parse(text).unwrap();
        assert_eq!(print(&parsed[0]), text);
        assert!(parse("(f (g)").is_none());
    }

    #[test]
    fn annotations_go_without_sources() {
        let out = run(
            vc("(define-fun |B| () Bool (=> (forall ((|k!1| Int)) (! (|F| |k!1|) :rboogie-pools ((\"L\")))) true))\n"),
            &registered("\"M\"", "Int"),
            &[],
        );
        assert_eq!(out.commands, "(define-fun |B| () Bool (=> (forall ((|k!1| Int)) (|F| |k!1|)) true))\n");
    }

    #[test]
    fn assumed_forall_becomes_its_instances() {
        let out = run(
            vc(concat!(
                "(define-fun |B| () Bool (=> (forall ((|k!1| Int)) (! (|F| |k!1|) :rboogie-pools ((\"L\")))) ",
                "(! (|F| 3) :rboogie-add-to-pool (\"L\" (Int 3)))))\n"
            )),
            &registered("\"L\"", "Int"),
            &[],
        );
        assert_eq!(out.commands, "(define-fun |B| () Bool (=> (|F| 3) (|F| 3)))\n");
    }

    #[test]
    fn forall_to_prove_is_skolemized() {
        let out = run(
            vc(
                "(define-fun |B| () Bool (forall ((|k!1| Int)) (! (|F| |k!1|) :rboogie-add-to-pool (\"L\" (Int |k!1|)))))\n",
            ),
            &registered("\"L\"", "Int"),
            &[],
        );
        assert_eq!(out.commands, "(declare-fun |skolem@!0| () Int)\n(define-fun |B| () Bool (|F| |skolem@!0|))\n");
    }

    #[test]
    fn lambda_definition_is_instantiated_at_applications() {
        let definition = concat!(
            "(forall ((|h| Int) (|x| Int)) (! (= (select (|lambda#0| |h|) |x|) (+ |h| |x|)) ",
            ":pattern ((select (|lambda#0| |h|) |x|)) :rboogie-pools (() (\"L\"))))"
        );
        let out = run(
            vc(concat!(
                "(define-fun |B| () Bool (=> (= |m| (let ((|a| 1)) (|lambda#0| |a|))) ",
                "(! (select |m| 5) :rboogie-add-to-pool (\"L\" (Int 5)))))\n"
            )),
            &registered("\"L\"", "Int"),
            &[definition.to_string()],
        );
        assert_eq!(
            out.commands,
            concat!(
                "(define-fun |B| () Bool (=> (= |m| (let ((|a| 1)) (|lambda#0| |a|))) (select |m| 5)))\n",
                "(assert (= (select (|lambda#0| 1) 5) (+ 1 5)))\n"
            )
        );
    }

    #[test]
    fn polarity_of_implications_and_lets() {
        let t = parse("(=> a b (let ((x c)) (not x)))").unwrap().pop().unwrap();
        assert_eq!(occurrence_polarity(&t, Polarity::Goal, "a"), Some(Polarity::Hypothesis));
        assert_eq!(occurrence_polarity(&t, Polarity::Goal, "x"), Some(Polarity::Hypothesis));
        let t = parse("(and a (= a b))").unwrap().pop().unwrap();
        assert_eq!(occurrence_polarity(&t, Polarity::Goal, "a"), Some(Polarity::Unknown));
    }
}
