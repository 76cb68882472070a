//! Ground instantiation of HAVOC's reachability theory (seed 002: the axioms of Fig. 7 and
//! the updates of §4) on the terms of one VC, so that a program whose annotations are
//! quantifier-free gets a quantifier-free VC.
//!
//! Expects the VC of [`super::wlp`] for a program the `reach` pass instrumented with
//! `/reachAxioms:ground` (`crate::passes` `reach`, library `prelude/havoc.bpl`):
//! `(|ReachState| n M bs R B)` assumed of every state, `(|ReachStep| n R' B' R B bs a y)`
//! assumed of every update (`Mem[a + n] := y` turned the predicates R, B into R', B'), and
//! neither given a quantified meaning. Guarantees the same VC preceded by instances of the
//! theory, each under the application it is an instance of, `(=> (|ReachState| ...) fact)`:
//! an instance of a true universal statement, so asserting it is sound whatever else the VC
//! says. Sharing: every compound pointer term, every `R[n][u][v]`, `B[n][u]` and
//! `Blocks(bs, u)` gets a name (a constant with its defining equation), so each instance is a
//! few symbols long and a chain of U updates costs polynomially many symbols, never the
//! 5^U of substituting the updates into one another.
//!
//! Which instances (demand-driven, as the paper's "terms of each state" closed under one
//! unfolding):
//! - the pairs `R[n][u][v]` and arguments `B[n][u]` the VC mentions (outside quantifiers) are
//!   demanded; for a demanded pair at a state, the pair's terms join the state's terms;
//! - at a state (M, bs, R, B, n): for each demanded pair (u, v) with u a VC term, the
//!   unfolding axioms of Fig. 7 (R[u, v] by M[u + n], and R[M[u + n], v] by R[u, v]), which
//!   demand (M[u + n], v); for every demanded pair, "a blocking pointer is reached only from
//!   itself" and "reachable pointers have the same block" (which demands their blocks); for
//!   each term, reflexivity and "u = M[u + n] only if u blocks"; transitivity over every
//!   triple of the state's VC terms (not of the unfoldings: through M[u + n] the unfolding
//!   axiom already gives it); B[u] by M[u + n] for a demanded block;
//! - at an update R', B' of offset n from R, B: each demanded R'[n][u][v] and B'[n][u] by the
//!   exact update of §4, which demands the pairs and blocks it reads in R, B (so demands flow
//!   backwards through the heap versions); another offset's slices equal the old ones.
//!
//! M[u + n] is unfolded only for terms of the VC, never for an unfolding: the VC's terms are
//! finitely many, so the demands are too (at most T² pairs for T terms, per state). Which
//! fragment this decides is said in the README: ground instances over these terms are
//! complete for what the program's quantifier-free annotations need when every list step the
//! proof uses is one the VC names; a quantified annotation is left to the solver's matching
//! on the instances' terms.
//!
//! Why on SMT-LIB text, after passification: the terms of each state are incarnations there
//! (`Reach@2`, `Mem@1`), and a term of one state can be instantiated in another, which no
//! program-level rewriting could name.

use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;

use super::wlp::Vc;
use crate::smt::sexpr::{self, SExpr};

/// The library's names, as the encoder writes them.
const STATE: &str = "|ReachState|";
const STEP: &str = "|ReachStep|";
const OBJ: &str = "|obj#Ptr|";
const OFF: &str = "|off#Ptr|";
const PTR: &str = "|Ptr|";
const NULL_REF: &str = "|null|";

/// At most this many instances per VC (fewer are still sound: the VC only gets weaker).
const MAX_INSTANCES: usize = 400_000;

/// Transitivity is instantiated with the conclusions the VC names and those up to two updates
/// of their offset back (what a loop body's writes need of the state before them); deeper,
/// the updates' own instances say what the pairs are. Without the bound, a chain of U writes costs U⁴
/// transitivity instances (U states × U² pairs × U middle terms).
const TRANSITIVE_DEPTH: u8 = 2;

/// Whether the program declares the library's predicates: its VCs may then need [`run`],
/// which reads and writes the library's maps of several arguments as nested arrays
/// (`(select (select (select R n) u) v)`) and their slices `(select R n)`.
pub fn declares_library(typed: &crate::typeck::TypedProgram) -> bool {
    let names = &typed.symbols().functions_by_name;
    [STATE, STEP].iter().any(|quoted| names.contains_key(&crate::ast::Symbol::intern(quoted.trim_matches('|'))))
}

/// Whether `vc` uses the library's theory (what [`run`] instantiates).
pub fn applies(vc: &Vc) -> bool {
    vc.commands.contains(STATE) || vc.commands.contains(STEP)
}

/// Adds the theory's instances to `vc` (see the module header); a VC without the library's
/// applications, or one that does not parse, comes back as it was.
pub fn run(mut vc: Vc) -> Vc {
    if !applies(&vc) {
        return vc;
    }
    let Some(SExpr::List(commands)) = sexpr::parse(&format!("({})", vc.commands)) else {
        return vc;
    };
    let mut g = Ground::default();
    let mut bound = Vec::new();
    for c in &commands {
        g.collect(c, &mut bound);
    }
    if g.states.is_empty() && g.steps.is_empty() {
        return vc;
    }
    g.start();
    g.saturate();
    while g.retry() && g.instances < MAX_INSTANCES {
        g.saturate();
    }
    // After the VC's own declarations (skolem constants among them), which the instances use.
    vc.commands.push_str(&g.output());
    vc
}

/// A state `(|ReachState| n M bs R B)`.
struct State {
    n: String,
    m: String,
    bs: String,
    r: String,
    b: String,
    guard: String,
    /// Its terms (of demanded pairs), and which of them are VC terms, in order.
    registered: FxHashSet<usize>,
    own: Vec<usize>,
    /// M[u + n] by u.
    unfold: FxHashMap<usize, usize>,
    /// Its primary pairs, the conclusions transitivity is instantiated for.
    primaries: Vec<(usize, usize)>,
}

/// An update `(|ReachStep| n R' B' R B bs a y)`.
struct Step {
    n: String,
    r_new: String,
    b_new: String,
    r_old: String,
    b_old: String,
    bs: String,
    a: usize,
    y: usize,
    guard: String,
    /// The other offsets whose slices were said to be unchanged.
    slices: FxHashSet<String>,
}

struct Term {
    /// What the instances write for it: the term itself if it is a symbol, else its name.
    name: String,
    /// An unfolding M[u + n] made here (never unfolded again).
    generated: bool,
}

enum Demand {
    /// A pair, and whether it is primary: demanded by the VC or by an instance other than a
    /// transitivity premise (see [`Ground::pair`]).
    Pair {
        r: String,
        n: String,
        u: usize,
        v: usize,
        primary: Option<u8>,
    },
    Block {
        b: String,
        n: String,
        u: usize,
    },
}

#[derive(Default)]
struct Ground {
    states: Vec<State>,
    steps: Vec<Step>,
    /// The VC's `(select (select (select X n) u) v)` and `(select (select X n) u)` outside
    /// quantifiers, as texts.
    triples: Vec<(String, String, String, String)>,
    /// The VC's `(= x y)` of two symbols (the copies passification makes where paths join),
    /// and its `(select m i)` (what may be a state's unfolding).
    equalities: Vec<(String, String)>,
    reads: Vec<(String, SExpr, String)>,
    /// Symbols equal to a state's or update's predicate (`Reach@3` = `Reach@1` at a join):
    /// demands on the one are demands on the other.
    aliases: FxHashMap<String, Vec<String>>,
    /// VC terms that are a state's unfolding M[u + n] of a term u, by state and term.
    unfolded_from: FxHashMap<(usize, usize), usize>,
    doubles: Vec<(String, String, String)>,
    terms: Vec<Term>,
    term_ids: FxHashMap<String, usize>,
    /// Declarations and defining equations, in order.
    decls: String,
    defs: String,
    names: usize,
    r_atoms: FxHashMap<(String, String, usize, usize), String>,
    /// Pairs queued as primary, processed, and instantiated as transitivity's conclusion.
    primary_queued: FxHashMap<(String, String, usize, usize), u8>,
    processed: FxHashSet<(String, String, usize, usize)>,
    concluded: FxHashSet<(String, String, usize, usize)>,
    /// Whether the pair being processed is primary (what it demands is, too), and whether its
    /// instances were given already (it is processed again only to pass on its primacy).
    deriving: Option<u8>,
    muted: bool,
    /// Transitivity's triples given, and those waiting for a premise ([`Ground::transitivity`]).
    triples_done: FxHashSet<(usize, usize, usize, usize)>,
    waiting: Vec<(usize, usize, usize, usize)>,
    b_atoms: FxHashMap<(String, String, usize), String>,
    blocks: FxHashMap<(String, usize), String>,
    guards: FxHashMap<String, String>,
    facts: Vec<(String, Vec<String>)>,
    fact_index: FxHashMap<String, usize>,
    instances: usize,
    queue: std::collections::VecDeque<Demand>,
    ptr_sort: String,
}

fn text(sx: &SExpr) -> String {
    sx.to_string()
}

/// u, when `index` is how the encoder writes u + n: u itself at offset 0, else
/// `(|Ptr| (|obj#Ptr| u) (+ (|off#Ptr| u) n))`.
fn unfolding_index(index: &SExpr, n: &str) -> Option<String> {
    if n == "0" {
        return Some(text(index));
    }
    let SExpr::List(ptr) = index else { return None };
    let [head, SExpr::List(obj), SExpr::List(sum)] = &ptr[..] else { return None };
    let ([oh, u1], [plus, SExpr::List(off), k]) = (&obj[..], &sum[..]) else { return None };
    let [fh, u2] = &off[..] else { return None };
    (head.is_atom(PTR) && oh.is_atom(OBJ) && plus.is_atom("+") && fh.is_atom(OFF) && u1 == u2 && text(k) == n)
        .then(|| text(u1))
}

impl Ground {
    /// Records the library's applications and the select chains of `sx`; whether `sx`
    /// mentions no variable bound around it.
    fn collect(&mut self, sx: &SExpr, bound: &mut Vec<String>) -> bool {
        match sx {
            SExpr::Atom(a) => !bound.iter().any(|b| b == a),
            SExpr::List(items) => {
                if let Some(SExpr::Atom(h)) = items.first()
                    && matches!(h.as_str(), "forall" | "exists" | "lambda" | "let")
                {
                    let depth = bound.len();
                    if let Some(SExpr::List(binders)) = items.get(1) {
                        if h == "let" {
                            for b in binders {
                                if let SExpr::List(pair) = b
                                    && let Some(value) = pair.get(1)
                                {
                                    self.collect(value, bound);
                                }
                            }
                        }
                        for b in binders {
                            if let SExpr::List(pair) = b
                                && let Some(SExpr::Atom(name)) = pair.first()
                            {
                                bound.push(name.clone());
                            }
                        }
                    }
                    for body in items.iter().skip(2) {
                        self.collect(body, bound);
                    }
                    bound.truncate(depth);
                    return false;
                }
                let mut ground = true;
                for i in items {
                    ground &= self.collect(i, bound);
                }
                if ground {
                    self.record(items);
                }
                ground
            }
        }
    }

    fn record(&mut self, items: &[SExpr]) {
        let Some(SExpr::Atom(head)) = items.first() else { return };
        match head.as_str() {
            STATE if items.len() == 6 => {
                let app = text(&SExpr::List(items.to_vec()));
                let guard = self.guard(app);
                self.states.push(State {
                    n: text(&items[1]),
                    m: text(&items[2]),
                    bs: text(&items[3]),
                    r: text(&items[4]),
                    b: text(&items[5]),
                    guard,
                    registered: FxHashSet::default(),
                    own: Vec::new(),
                    unfold: FxHashMap::default(),
                    primaries: Vec::new(),
                });
            }
            STEP if items.len() == 9 => {
                let app = text(&SExpr::List(items.to_vec()));
                let guard = self.guard(app);
                let a = self.term(text(&items[7]), false);
                let y = self.term(text(&items[8]), false);
                self.steps.push(Step {
                    n: text(&items[1]),
                    r_new: text(&items[2]),
                    b_new: text(&items[3]),
                    r_old: text(&items[4]),
                    b_old: text(&items[5]),
                    bs: text(&items[6]),
                    a,
                    y,
                    guard,
                    slices: FxHashSet::default(),
                });
            }
            "=" if items.len() == 3 => {
                if let (SExpr::Atom(x), SExpr::Atom(y)) = (&items[1], &items[2]) {
                    self.equalities.push((x.clone(), y.clone()));
                }
            }
            "select" if items.len() == 3 => {
                self.reads.push((text(&items[1]), items[2].clone(), text(&SExpr::List(items.to_vec()))));
                let SExpr::List(inner) = &items[1] else { return };
                if inner.len() != 3 || !inner[0].is_atom("select") {
                    return;
                }
                match &inner[1] {
                    SExpr::List(innermost) if innermost.len() == 3 && innermost[0].is_atom("select") => {
                        self.triples.push((text(&innermost[1]), text(&innermost[2]), text(&inner[2]), text(&items[2])));
                    }
                    _ => {}
                }
                self.doubles.push((text(&inner[1]), text(&inner[2]), text(&items[2])));
            }
            _ => {}
        }
    }

    /// A Bool name for an application of the library.
    fn guard(&mut self, app: String) -> String {
        if let Some(name) = self.guards.get(&app) {
            return name.clone();
        }
        let name = self.fresh("s", "Bool", &app);
        self.guards.insert(app, name.clone());
        name
    }

    fn fresh(&mut self, kind: &str, sort: &str, definition: &str) -> String {
        let name = format!("reach${kind}{}", self.names);
        self.names += 1;
        let _ = writeln!(self.decls, "(declare-fun {name} () {sort})");
        let _ = writeln!(self.defs, "(assert (= {name} {definition}))");
        name
    }

    fn term(&mut self, text: String, generated: bool) -> usize {
        if let Some(&id) = self.term_ids.get(&text) {
            return id;
        }
        let simple = !text.contains(['(', ' ']);
        let name = if simple {
            text.clone()
        } else {
            let sort = self.ptr_sort().to_string();
            self.fresh("p", &sort, &text)
        };
        let id = self.terms.len();
        self.terms.push(Term { name, generated });
        self.term_ids.insert(text, id);
        id
    }

    fn ptr_sort(&mut self) -> &str {
        if self.ptr_sort.is_empty() {
            self.ptr_sort = super::encode::sort_name("ptr");
        }
        &self.ptr_sort
    }

    /// The demands the VC makes: its chains on the states' and updates' predicates.
    fn start(&mut self) {
        let r_known: FxHashSet<String> = self
            .states
            .iter()
            .map(|s| s.r.clone())
            .chain(self.steps.iter().flat_map(|s| [s.r_new.clone(), s.r_old.clone()]))
            .collect();
        let b_known: FxHashSet<String> = self
            .states
            .iter()
            .map(|s| s.b.clone())
            .chain(self.steps.iter().flat_map(|s| [s.b_new.clone(), s.b_old.clone()]))
            .collect();
        // Copies of known predicates, to a fixpoint (a copy of a copy).
        let mut known: FxHashSet<String> = r_known.union(&b_known).cloned().collect();
        let equalities = std::mem::take(&mut self.equalities);
        loop {
            let before = known.len();
            for (x, y) in &equalities {
                if known.contains(x) || known.contains(y) {
                    known.insert(x.clone());
                    known.insert(y.clone());
                }
            }
            if known.len() == before {
                break;
            }
        }
        for (x, y) in &equalities {
            if known.contains(x) && x != y {
                self.aliases.entry(x.clone()).or_default().push(y.clone());
                self.aliases.entry(y.clone()).or_default().push(x.clone());
            }
        }
        let (r_known, b_known): (FxHashSet<String>, FxHashSet<String>) = {
            let alias_of = |set: &FxHashSet<String>| -> FxHashSet<String> {
                let mut out = set.clone();
                let mut stack: Vec<String> = set.iter().cloned().collect();
                while let Some(x) = stack.pop() {
                    for y in self.aliases.get(&x).into_iter().flatten() {
                        if out.insert(y.clone()) {
                            stack.push(y.clone());
                        }
                    }
                }
                out
            };
            (alias_of(&r_known), alias_of(&b_known))
        };
        // The VC's reads M[u] (offset 0) and M[Ptr(Obj(u), Off(u) + n)] of a state's heap are
        // its unfoldings of u: the unfolding axioms then speak of the VC's own terms.
        for (m, index, whole) in std::mem::take(&mut self.reads) {
            for s in 0..self.states.len() {
                if self.states[s].m != m {
                    continue;
                }
                let Some(u) = unfolding_index(&index, &self.states[s].n) else { continue };
                let w = self.term(whole.clone(), false);
                let u = self.term(u, false);
                if u != w && !self.states[s].unfold.contains_key(&u) {
                    self.states[s].unfold.insert(u, w);
                    self.unfolded_from.insert((s, w), u);
                }
            }
        }
        for (r, n, u, v) in std::mem::take(&mut self.triples) {
            if r_known.contains(&r) {
                let (u, v) = (self.term(u, false), self.term(v, false));
                self.atom(&r, &n, u, v, Some(0));
            }
        }
        for (b, n, u) in std::mem::take(&mut self.doubles) {
            if b_known.contains(&b) && !r_known.contains(&b) {
                let u = self.term(u, false);
                self.b(&b, &n, u);
            }
        }
    }

    /// The name of `R[n][u][v]`, demanded as primary as the pair being processed is.
    fn r(&mut self, r: &str, n: &str, u: usize, v: usize) -> String {
        self.atom(r, n, u, v, self.deriving)
    }

    fn atom(&mut self, r: &str, n: &str, u: usize, v: usize, primary: Option<u8>) -> String {
        let key = (r.to_string(), n.to_string(), u, v);
        let name = match self.r_atoms.get(&key) {
            Some(name) => name.clone(),
            None => {
                let def = format!("(select (select (select {r} {n}) {}) {})", self.terms[u].name, self.terms[v].name);
                let name = self.fresh("r", "Bool", &def);
                self.r_atoms.insert(key.clone(), name.clone());
                if primary.is_none() {
                    self.queue.push_back(Demand::Pair { r: r.to_string(), n: n.to_string(), u, v, primary });
                }
                name
            }
        };
        if let Some(d) = primary
            && self.primary_queued.get(&key).is_none_or(|&queued| d < queued)
        {
            self.primary_queued.insert(key, d);
            self.queue.push_back(Demand::Pair { r: r.to_string(), n: n.to_string(), u, v, primary });
        }
        name
    }

    /// The name of `B[n][u]`, demanded.
    fn b(&mut self, b: &str, n: &str, u: usize) -> String {
        let key = (b.to_string(), n.to_string(), u);
        if let Some(name) = self.b_atoms.get(&key) {
            return name.clone();
        }
        let def = format!("(select (select {b} {n}) {})", self.terms[u].name);
        let sort = self.ptr_sort().to_string();
        let name = self.fresh("b", &sort, &def);
        self.b_atoms.insert(key, name.clone());
        self.queue.push_back(Demand::Block { b: b.to_string(), n: n.to_string(), u });
        name
    }

    /// The name of `Blocks(bs, u)`: u is in bs or an integer.
    fn blocks(&mut self, bs: &str, u: usize) -> String {
        let key = (bs.to_string(), u);
        if let Some(name) = self.blocks.get(&key) {
            return name.clone();
        }
        let t = &self.terms[u].name;
        let def = format!("(or (select {bs} {t}) (= ({OBJ} {t}) {NULL_REF}))");
        let name = self.fresh("k", "Bool", &def);
        self.blocks.insert(key, name.clone());
        name
    }

    /// M[u + n] at state `s`.
    fn unfold(&mut self, s: usize, u: usize) -> usize {
        if let Some(&m) = self.states[s].unfold.get(&u) {
            return m;
        }
        let t = &self.terms[u].name;
        let (mem, n) = (&self.states[s].m, &self.states[s].n);
        let text = if n == "0" {
            format!("(select {mem} {t})")
        } else {
            format!("(select {mem} ({PTR} ({OBJ} {t}) (+ ({OFF} {t}) {n})))")
        };
        let m = self.term(text, true);
        self.states[s].unfold.insert(u, m);
        m
    }

    fn fact(&mut self, guard: &str, fact: String) {
        if self.muted {
            return;
        }
        self.instances += 1;
        let k = match self.fact_index.get(guard) {
            Some(&k) => k,
            None => {
                self.facts.push((guard.to_string(), Vec::new()));
                self.fact_index.insert(guard.to_string(), self.facts.len() - 1);
                self.facts.len() - 1
            }
        };
        self.facts[k].1.push(fact);
    }

    fn saturate(&mut self) {
        while let Some(d) = self.queue.pop_front() {
            if self.instances >= MAX_INSTANCES {
                break;
            }
            match d {
                Demand::Pair { r, n, u, v, primary } => {
                    let key = (r.clone(), n.clone(), u, v);
                    let first = self.processed.insert(key.clone());
                    if first || primary.is_some() {
                        // A pair processed before as a premise is processed again (muted) only
                        // so that what it demands becomes primary too.
                        self.deriving = primary;
                        self.muted = !first;
                        self.pair(&r, &n, u, v);
                        self.muted = false;
                    }
                    if primary.is_some_and(|d| d <= TRANSITIVE_DEPTH) && self.concluded.insert(key) {
                        self.conclusion(&r, &n, u, v);
                    }
                }
                Demand::Block { b, n, u } => {
                    self.deriving = None;
                    self.block(&b, &n, u);
                }
            }
        }
    }

    /// A pair's instances: the unfolding axioms at its states, and its update's definition.
    /// Transitivity is instantiated for primary pairs only, as the conclusion (with every term
    /// of the state in the middle: [`Ground::conclusion`]), its premises demanded as
    /// secondary: they get their own instances but are no conclusions. So transitivity costs
    /// (primary pairs) × (terms) per state, not (terms)³.
    fn pair(&mut self, r: &str, n: &str, u: usize, v: usize) {
        let atom = self.r(r, n, u, v);
        for other in self.aliases.get(r).cloned().unwrap_or_default() {
            self.r(&other, n, u, v);
        }
        let states: Vec<usize> =
            (0..self.states.len()).filter(|&s| self.states[s].r == r && self.states[s].n == n).collect();
        for s in states {
            self.register(s, u);
            self.register(s, v);
            // A pair from a VC term that is u's unfolding: the unfolding axioms of (u, v)
            // relate the two.
            if let Some(&from) = self.unfolded_from.get(&(s, u)) {
                self.r(r, n, from, v);
            }
            let (bs, b, guard) = (self.states[s].bs.clone(), self.states[s].b.clone(), self.states[s].guard.clone());
            let (tu, tv) = (self.terms[u].name.clone(), self.terms[v].name.clone());
            if !self.terms[u].generated {
                // R[u, v] <=> v = u || (!BS[M[u + n]] && R[M[u + n], v])
                // !BS[M[u + n]] ==> (R[M[u + n], v] <=> R[u, v] && v != u)
                let m = self.unfold(s, u);
                let bm = self.blocks(&bs, m);
                // The unfolding's pair is no conclusion of transitivity (its own unfolding
                // axiom relates it to this pair).
                let rmv = self.atom(r, n, m, v, None);
                if u != v {
                    self.fact(&guard, format!("(= {atom} (or (= {tv} {tu}) (and (not {bm}) {rmv})))"));
                }
                self.fact(&guard, format!("(=> (not {bm}) (= {rmv} (and {atom} (not (= {tv} {tu})))))"));
            }
            if u != v {
                // BS[v] && R[u, v] ==> u = v;  R[u, v] ==> B[u] = B[v]
                let bv = self.blocks(&bs, v);
                self.fact(&guard, format!("(=> (and {bv} {atom}) (= {tv} {tu}))"));
                let (bu_, bv_) = (self.b(&b, n, u), self.b(&b, n, v));
                self.fact(&guard, format!("(=> {atom} (= {bu_} {bv_}))"));
            }
        }
        // An unfolding's pair stays at its state: following it back through the updates would
        // bring every later state's unfoldings into every earlier one (U^5 instances for U
        // writes instead of U^3).
        let unfolding = self.terms[u].generated || self.terms[v].generated;
        let steps: Vec<usize> = (0..self.steps.len()).filter(|&k| !unfolding && self.steps[k].r_new == r).collect();
        // What an update's definition demands is one update further from the VC.
        let deriving = self.deriving;
        self.deriving = deriving.map(|d| d.saturating_add(1));
        for k in steps {
            let st = &self.steps[k];
            let (r_old, bs, guard, a, y) = (st.r_old.clone(), st.bs.clone(), st.guard.clone(), st.a, st.y);
            if st.n != n {
                // Another offset's update leaves this pair as it was: no further from the VC.
                self.slices(k, n);
                self.atom(&r_old, n, u, v, deriving);
                continue;
            }
            // R'[u, v] = R[u, a] ? (R[u, v] && !R[a, v]) || v = a || (!BS[y] && R[y, v]) : R[u, v]
            let rua = self.r(&r_old, n, u, a);
            let ruv = self.r(&r_old, n, u, v);
            let rav = self.r(&r_old, n, a, v);
            let ryv = self.r(&r_old, n, y, v);
            let by = self.blocks(&bs, y);
            let (tv, ta) = (self.terms[v].name.clone(), self.terms[a].name.clone());
            self.fact(
                &guard,
                format!(
                    "(= {atom} (ite {rua} (or (and {ruv} (not {rav})) (= {tv} {ta}) (and (not {by}) {ryv})) {ruv}))"
                ),
            );
        }
        self.deriving = deriving;
    }

    fn block(&mut self, b: &str, n: &str, u: usize) {
        let atom = self.b(b, n, u);
        for other in self.aliases.get(b).cloned().unwrap_or_default() {
            self.b(&other, n, u);
        }
        let states: Vec<usize> =
            (0..self.states.len()).filter(|&s| self.states[s].b == b && self.states[s].n == n).collect();
        for s in states {
            if self.terms[u].generated {
                continue;
            }
            // B[u] = BS[M[u + n]] ? M[u + n] : B[M[u + n]]
            let (bs, guard) = (self.states[s].bs.clone(), self.states[s].guard.clone());
            let m = self.unfold(s, u);
            let bm = self.blocks(&bs, m);
            let bmm = self.b(b, n, m);
            let tm = self.terms[m].name.clone();
            self.fact(&guard, format!("(= {atom} (ite {bm} {tm} {bmm}))"));
        }
        let unfolding = self.terms[u].generated;
        let steps: Vec<usize> = (0..self.steps.len()).filter(|&k| !unfolding && self.steps[k].b_new == b).collect();
        for k in steps {
            let st = &self.steps[k];
            let (r_old, b_old, bs, guard, a, y) =
                (st.r_old.clone(), st.b_old.clone(), st.bs.clone(), st.guard.clone(), st.a, st.y);
            if st.n != n {
                self.slices(k, n);
                self.b(&b_old, n, u);
                continue;
            }
            // B'[u] = R[u, a] ? (BS[y] ? y : B[y]) : B[u]
            let rua = self.r(&r_old, n, u, a);
            let by = self.blocks(&bs, y);
            let (bpy, bpu) = (self.b(&b_old, n, y), self.b(&b_old, n, u));
            let ty = self.terms[y].name.clone();
            self.fact(&guard, format!("(= {atom} (ite {rua} (ite {by} {ty} {bpy}) {bpu}))"));
        }
    }

    /// An update of offset n' leaves offset n's slices as they were.
    fn slices(&mut self, k: usize, n: &str) {
        if !self.steps[k].slices.insert(n.to_string()) {
            return;
        }
        let st = &self.steps[k];
        let fact = format!(
            "(and (= (select {} {n}) (select {} {n})) (= (select {} {n}) (select {} {n})))",
            st.r_new, st.r_old, st.b_new, st.b_old
        );
        let guard = st.guard.clone();
        self.fact(&guard, fact);
    }

    /// `t` joins state `s`'s terms: reflexivity, the cycle axiom, transitivity.
    fn register(&mut self, s: usize, t: usize) {
        if !self.states[s].registered.insert(t) {
            return;
        }
        let (r, n, bs, guard) = (
            self.states[s].r.clone(),
            self.states[s].n.clone(),
            self.states[s].bs.clone(),
            self.states[s].guard.clone(),
        );
        let refl = self.r(&r, &n, t, t);
        self.fact(&guard, refl);
        if self.terms[t].generated {
            return;
        }
        // u = M[u + n] ==> BS[u]
        let m = self.unfold(s, t);
        let bt = self.blocks(&bs, t);
        let (tt, tm) = (self.terms[t].name.clone(), self.terms[m].name.clone());
        self.fact(&guard, format!("(=> (= {tt} {tm}) {bt})"));
        // R[u, t] && R[t, w] ==> R[u, w] for every primary pair (u, w) of the state.
        for (u, w) in self.states[s].primaries.clone() {
            self.transitivity(s, u, t, w);
        }
        self.states[s].own.push(t);
    }

    /// A primary pair (u, w) at its states: R[u, t] && R[t, w] ==> R[u, w] for each term t.
    fn conclusion(&mut self, r: &str, n: &str, u: usize, w: usize) {
        let states: Vec<usize> =
            (0..self.states.len()).filter(|&s| self.states[s].r == r && self.states[s].n == n).collect();
        for s in states {
            self.states[s].primaries.push((u, w));
            for t in self.states[s].own.clone() {
                self.transitivity(s, u, t, w);
            }
        }
    }

    /// R[u, t] && R[t, w] ==> R[u, w] at state `s`, when one of the premises is a pair
    /// something else demanded already (else the triple waits: [`Ground::retry`]). A middle
    /// term that is on neither side's pairs is no step of a chain the VC speaks of; waiting
    /// keeps transitivity from costing (pairs) × (terms) per state.
    fn transitivity(&mut self, s: usize, u: usize, t: usize, w: usize) {
        if t == u || t == w || u == w {
            return;
        }
        let (r, n, guard) = (self.states[s].r.clone(), self.states[s].n.clone(), self.states[s].guard.clone());
        let key = (r.clone(), n.clone(), u, t);
        let other = (r.clone(), n.clone(), t, w);
        if !self.r_atoms.contains_key(&key) && !self.r_atoms.contains_key(&other) {
            self.waiting.push((s, u, t, w));
            return;
        }
        if !self.triples_done.insert((s, u, t, w)) {
            return;
        }
        let (ut, tw, uw) =
            (self.atom(&r, &n, u, t, None), self.atom(&r, &n, t, w, None), self.atom(&r, &n, u, w, None));
        self.fact(&guard, format!("(=> (and {ut} {tw}) {uw})"));
    }

    /// The waiting triples whose premises have become pairs since; whether any was given.
    fn retry(&mut self) -> bool {
        let waiting = std::mem::take(&mut self.waiting);
        let before = self.triples_done.len();
        for (s, u, t, w) in waiting {
            self.transitivity(s, u, t, w);
        }
        self.triples_done.len() > before
    }

    fn output(&self) -> String {
        let mut out = String::with_capacity(self.decls.len() + self.defs.len() + 64 * self.instances);
        let _ = writeln!(out, "; HAVOC's reachability theory on this VC's terms: {} instances", self.instances);
        out += &self.decls;
        out += &self.defs;
        for (guard, facts) in &self.facts {
            out += "(assert (=> ";
            out += guard;
            out += " (and";
            for f in facts {
                out.push(' ');
                out += f;
            }
            out += ")))\n";
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vc(commands: &str) -> Vc {
        Vc {
            commands: commands.into(),
            defs: Vec::new(),
            block_ids: Vec::new(),
            checks: Vec::new(),
            check_ids: Vec::new(),
            assertions: 0,
        }
    }

    #[test]
    fn leaves_other_vcs_alone() {
        let v = run(vc("(assert (not (= x x)))\n"));
        assert_eq!(v.commands, "(assert (not (= x x)))\n");
    }

    #[test]
    fn instantiates_on_the_vc_terms_without_quantifiers() {
        let text = "(assert (not (=> (|ReachState| 0 M bs R B) (select (select (select R 0) h) h))))\n";
        let v = run(vc(text));
        assert!(v.commands.starts_with(text));
        assert!(!v.commands.contains("forall"));
        // Reflexivity of the demanded pair's term, and the unfolding of h.
        assert!(v.commands.contains("(select M h)"), "{}", v.commands);
        assert!(v.commands.contains("(=> reach$s0 (and"), "{}", v.commands);
    }

    #[test]
    fn demands_flow_back_through_updates() {
        let text = "(assert (not (=> (and (|ReachState| 0 M0 bs R0 B0) (|ReachStep| 0 R1 B1 R0 B0 bs a y)) \
                    (select (select (select R1 0) h) z))))\n";
        let v = run(vc(text));
        // R1[h, z] is defined by R0 at (h, a), (h, z), (a, z), (y, z).
        for pair in [
            "(select (select (select R0 0) h) a)",
            "(select (select (select R0 0) a) z)",
            "(select (select (select R0 0) y) z)",
        ] {
            assert!(v.commands.contains(pair), "{pair} missing in {}", v.commands);
        }
    }

    #[test]
    fn terms_under_quantifiers_are_not_instantiated() {
        let text =
            "(assert (not (=> (|ReachState| 0 M bs R B) (forall ((x P)) (select (select (select R 0) h) x)))))\n";
        let v = run(vc(text));
        assert!(!v.commands.contains("reach$r"), "{}", v.commands);
    }
}
