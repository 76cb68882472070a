//! Civl's linear primitives as the commands they stand for: Boogie's `LinearRewriter`, which
//! Boogie applies to every implementation but yield procedures' (rboogie refuses those, in
//! [`super::civl`]) of a program it monomorphizes.
//!
//! Expects a type-checked program. Guarantees one in which no implementation calls the
//! library's (`/lib:base`) polymorphic `Move`, `One_Get`, `One_Put`, `Map_Get`, `Map_Put`,
//! `Map_Split`, `Map_Join`, `Path_Load` or `Path_Store`: these procedures have no body, and a
//! call of one changes its first argument in place, a path (a variable, or fields and map
//! entries of one). As calls of bodiless procedures they left that path as it was and asserted
//! nothing: `call Map_Put(m, k, v)` kept `m`, and `call v := Map_Get(m, k)` held for a `k`
//! outside `m`'s domain (errors Boogie reports, missed).
//!
//! How, for a call at position `c` whose first argument is the path `p` (`p := e` assigns the
//! path's variable, the selected part replaced, as any assignment through a field does):
//! - first the path's own checks, outermost part first: `x->val[i]` of a `Map` asserts
//!   `Map_Contains(x, i)` ("map lookup failed"), and `x->f` of a datatype with several
//!   constructors asserts that `x` is one that has `f` ("field lookup failed"), at `[` and at
//!   `f` respectively;
//! - `Move(u, v)`: `assert u == v` ("Move failed");
//! - `One_Get(p, l)`: `assert Set_Contains(p->dom, l)` ("One_Get failed"),
//!   `p->dom := Set_Remove(p->dom, l)`; `One_Put(p, l)`: `p->dom := Set_Add(p->dom, l)`;
//! - `v := Map_Get(p, k)`: `assert Map_Contains(p, k)` ("Map_Get failed"),
//!   `v := Map_At(p, k)`, `p := Map_Remove(p, k)`;
//! - `Map_Put(p, k, v)`: `assume !Map_Contains(p, k)` when `k` is a variable of a linear type
//!   (a linear value is in one place only), then `p := Map_Update(p, k, v)`;
//! - `l := Map_Split(p, k)`: `assert Set_IsSubset(k, p->dom)` ("Map_Split failed"),
//!   `l := Map_Extract(p, k)`, `p := Map_Exclude(p, k)`; `Map_Join(p, l)`:
//!   `p := Map_Union(p, l)`;
//! - `v := Path_Load(p)`: `v := p`; `Path_Store(p, v)`: `p := v`.
//!
//! Each assertion fails with its message at the call, as Boogie's `FailureOnlyDescription`
//! does. The functions named are the library's; a program that declares the primitives without
//! them is refused. A type is linear (Boogie's `LinearTypeCollector`) when it is `One T`, a
//! `Map K V` whose `K` is a `One _` or whose `V` is linear, or a datatype with a field of a
//! linear type.

use rustc_hash::FxHashMap;

use super::{Pass, PassCx, PassError, rewrite};
use crate::ast::{
    AssignLhs, AttrParam, Attribute, BinaryOp, CallCmd, Cmd, CmdKind, Expr, ExprKind, Ident, NodeId, Program, Span,
    Symbol, UnaryOp,
};
use crate::typeck::linear::{Primitive, datatype, datatype_named, is_linear, primitives};
use crate::typeck::{ProcedureId, Ref, TypedProgram, VarKind};

/// The pass: `enabled` when the program is monomorphized (Boogie rewrites only then).
pub struct LinearPrimitives {
    pub enabled: bool,
}

impl Pass for LinearPrimitives {
    fn name(&self) -> &'static str {
        "linear"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut PassCx) -> Result<Option<Program>, PassError> {
        if !self.enabled {
            return Ok(None);
        }
        let primitives = primitives(typed.symbols());
        if primitives.is_empty() {
            return Ok(None);
        }
        // The library declares them in every program that uses it; few programs call them:
        // look before copying.
        struct Find<'a>(&'a TypedProgram, &'a FxHashMap<ProcedureId, Primitive>, bool);
        impl crate::walk::Visitor for Find<'_> {
            fn cmd(&mut self, c: &Cmd) {
                if let CmdKind::Call(call) = &c.kind
                    && let Some(Ref::Procedure(id)) = self.0.referent(&call.callee)
                {
                    self.2 |= self.1.contains_key(&id);
                }
            }
        }
        let mut find = Find(typed, &primitives, false);
        for d in &typed.program.decls {
            crate::walk::decl(&mut find, d);
        }
        if !find.2 {
            return Ok(None);
        }
        let mut r = Rewrite { typed, primitives, changed: false, missing: None };
        let decls = rewrite::bodies(&mut r, &typed.program.decls);
        if let Some((span, what)) = r.missing {
            return Err(PassError::Unsupported { span: Some(span), what });
        }
        Ok(r.changed.then_some(Program { decls }))
    }
}

struct Rewrite<'a> {
    typed: &'a TypedProgram,
    primitives: FxHashMap<ProcedureId, Primitive>,
    changed: bool,
    /// A call this pass cannot rewrite, and why (the first).
    missing: Option<(Span, String)>,
}

impl rewrite::Rewriter for Rewrite<'_> {
    fn cmd(&mut self, c: &Cmd) -> Option<Vec<Cmd>> {
        let CmdKind::Call(call) = &c.kind else { return None };
        if call.is_async {
            return None;
        }
        let Some(Ref::Procedure(id)) = self.typed.referent(&call.callee) else { return None };
        let primitive = *self.primitives.get(&id)?;
        self.changed = true;
        let symbols = self.typed.symbols();
        if let Some(f) =
            functions(primitive).iter().find(|f| !symbols.functions_by_name.contains_key(&Symbol::intern(f)))
        {
            self.missing.get_or_insert((
                c.span,
                format!("the linear primitive {} without the library's function {f}", primitive.name()),
            ));
            return None;
        }
        if primitive == Primitive::Move {
            let equal = bin(BinaryOp::Eq, call.args[0].clone(), call.args[1].clone(), c.span);
            return Some(vec![assert(c.span, equal, "Move failed")]);
        }
        // The type checker holds the path to being one (`crate::typeck::linear::check`).
        let Some(lhs) = to_lhs(&call.args[0]) else {
            self.missing.get_or_insert((
                c.span,
                format!("the linear primitive {} applied to a value that is not a path", primitive.name()),
            ));
            return None;
        };
        // A constant cannot be assigned (Boogie's checker lets it through, then assigns it).
        if primitive != Primitive::PathLoad
            && let Some(Ref::Var(v)) = self.typed.referent(crate::typeck::check::lhs_root(&lhs))
            && matches!(symbols.var(v).kind, VarKind::Const { .. })
        {
            self.missing.get_or_insert((
                c.span,
                format!(
                    "the linear primitive {} assigning the constant {}",
                    primitive.name(),
                    symbols.var(v).name.name
                ),
            ));
            return None;
        }
        Some(self.rewrite(primitive, call, lhs, c.span))
    }
}

impl Rewrite<'_> {
    /// The commands of a call of `primitive` (not `Move`) whose path, `call`'s first
    /// argument, is the target `lhs`.
    fn rewrite(&self, primitive: Primitive, call: &CallCmd, lhs: AssignLhs, at: Span) -> Vec<Cmd> {
        let args = &call.args;
        let mut out = Vec::new();
        let path = &args[0];
        self.path_asserts(path, &mut out);
        let dom = || field(path.clone(), "dom", at);
        let dom_lhs =
            || AssignLhs::Field { base: Box::new(lhs.clone()), field: Ident::at(Symbol::intern("dom"), at), span: at };
        let out_var = |i: usize| AssignLhs::Var(call.outs[i]);
        match primitive {
            Primitive::Move => {}
            Primitive::OneGet => {
                let l = &args[1];
                out.push(assert(at, apply("Set_Contains", [dom(), l.clone()], at), "One_Get failed"));
                out.push(assign(dom_lhs(), apply("Set_Remove", [dom(), l.clone()], at), at));
            }
            Primitive::OnePut => {
                out.push(assign(dom_lhs(), apply("Set_Add", [dom(), args[1].clone()], at), at));
            }
            Primitive::MapGet => {
                let k = &args[1];
                out.push(assert(at, apply("Map_Contains", [path.clone(), k.clone()], at), "Map_Get failed"));
                out.push(assign(out_var(0), apply("Map_At", [path.clone(), k.clone()], at), at));
                out.push(assign(lhs.clone(), apply("Map_Remove", [path.clone(), k.clone()], at), at));
            }
            Primitive::MapPut => {
                let (k, v) = (&args[1], &args[2]);
                if matches!(k.kind, ExprKind::Var(_)) && is_linear(self.typed.symbols(), self.typed.type_of(k.id)) {
                    let contains = apply("Map_Contains", [path.clone(), k.clone()], at);
                    let not = Expr {
                        kind: ExprKind::Unary { op: UnaryOp::Not, arg: Box::new(contains) },
                        span: at,
                        id: NodeId::NONE,
                    };
                    out.push(Cmd { kind: CmdKind::Assume { attrs: Box::new([]), expr: not }, span: at });
                }
                out.push(assign(lhs.clone(), apply("Map_Update", [path.clone(), k.clone(), v.clone()], at), at));
            }
            Primitive::MapSplit => {
                let k = &args[1];
                out.push(assert(at, apply("Set_IsSubset", [k.clone(), dom()], at), "Map_Split failed"));
                out.push(assign(out_var(0), apply("Map_Extract", [path.clone(), k.clone()], at), at));
                out.push(assign(lhs.clone(), apply("Map_Exclude", [path.clone(), k.clone()], at), at));
            }
            Primitive::MapJoin => {
                out.push(assign(lhs.clone(), apply("Map_Union", [path.clone(), args[1].clone()], at), at));
            }
            Primitive::PathLoad => out.push(assign(out_var(0), path.clone(), at)),
            Primitive::PathStore => out.push(assign(lhs.clone(), args[1].clone(), at)),
        }
        out
    }

    /// The checks that the parts of path `p` exist (Boogie's `PathAsserts`), inner parts first.
    fn path_asserts(&self, p: &Expr, out: &mut Vec<Cmd>) {
        match &p.kind {
            ExprKind::Select { map, indexes } => {
                self.path_asserts(map, out);
                if let ExprKind::Field { arg, .. } = &map.kind
                    && datatype_named(self.typed.symbols(), self.typed.type_of(arg.id), "Map").is_some()
                    && let Some(i) = indexes.first()
                {
                    out.push(assert(
                        p.span,
                        apply("Map_Contains", [(**arg).clone(), i.clone()], p.span),
                        "map lookup failed",
                    ));
                }
            }
            ExprKind::Field { arg, field } => {
                self.path_asserts(arg, out);
                // Boogie's `FieldAssignLhs` is at the field's name.
                let at = field.span;
                let Some(dt) = datatype(self.typed.symbols(), self.typed.type_of(arg.id)) else { return };
                let symbols = self.typed.symbols();
                let ctors = symbols.type_ctors[dt.0 as usize].datatype_ctors.as_ref().map_or(0, Vec::len);
                if ctors > 1 {
                    let tests = symbols.accessors.get(&(dt, field.name)).into_iter().flatten().map(|(ctor, _)| {
                        let mut name = symbols.function(*ctor).name;
                        name.span = at;
                        name.id = NodeId::NONE;
                        Expr { kind: ExprKind::Is { arg: arg.clone(), ctor: name }, span: at, id: NodeId::NONE }
                    });
                    let test = tests
                        .fold(Expr { kind: ExprKind::BoolLit(false), span: at, id: NodeId::NONE }, |a, b| {
                            bin(BinaryOp::Or, a, b, at)
                        });
                    out.push(assert(at, test, "field lookup failed"));
                }
            }
            _ => {}
        }
    }
}

/// The library functions the commands of `p` apply.
fn functions(p: Primitive) -> &'static [&'static str] {
    match p {
        Primitive::Move | Primitive::PathLoad | Primitive::PathStore => &[],
        Primitive::OneGet => &["Set_Contains", "Set_Remove"],
        Primitive::OnePut => &["Set_Add"],
        Primitive::MapGet => &["Map_Contains", "Map_At", "Map_Remove"],
        Primitive::MapPut => &["Map_Contains", "Map_Update"],
        Primitive::MapSplit => &["Set_IsSubset", "Map_Extract", "Map_Exclude"],
        Primitive::MapJoin => &["Map_Union"],
    }
}

/// The assignment target a path expression denotes: a variable, or fields and map entries of
/// one; `None` for any other expression.
fn to_lhs(e: &Expr) -> Option<AssignLhs> {
    match &e.kind {
        ExprKind::Var(v) => Some(AssignLhs::Var(*v)),
        ExprKind::Select { map, indexes } => {
            Some(AssignLhs::Select { base: Box::new(to_lhs(map)?), indexes: indexes.clone(), span: e.span })
        }
        ExprKind::Field { arg, field } => {
            Some(AssignLhs::Field { base: Box::new(to_lhs(arg)?), field: *field, span: e.span })
        }
        _ => None,
    }
}

fn apply<const N: usize>(f: &str, args: [Expr; N], at: Span) -> Expr {
    Expr { kind: ExprKind::Call { func: Symbol::intern(f), args: Box::new(args) }, span: at, id: NodeId::NONE }
}

fn field(arg: Expr, name: &str, at: Span) -> Expr {
    Expr {
        kind: ExprKind::Field { arg: Box::new(arg), field: Ident::at(Symbol::intern(name), at) },
        span: at,
        id: NodeId::NONE,
    }
}

fn bin(op: BinaryOp, lhs: Expr, rhs: Expr, at: Span) -> Expr {
    Expr { kind: ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span: at, id: NodeId::NONE }
}

fn assign(lhs: AssignLhs, rhs: Expr, at: Span) -> Cmd {
    Cmd { kind: CmdKind::Assign { lhss: Box::new([lhs]), attrs: Box::new([]), rhss: Box::new([rhs]) }, span: at }
}

/// `assert e`, failing with `message` at `at`.
fn assert(at: Span, e: Expr, message: &str) -> Cmd {
    let describe = Attribute {
        key: Symbol::intern(crate::vcgen::cfg::DESCRIBE),
        params: Box::new([AttrParam::Str(message.to_string(), at)]),
        span: at,
    };
    Cmd { kind: CmdKind::Assert { attrs: Box::new([describe]), expr: e }, span: at }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::tests::{typed, typed_output};

    /// The library's declarations the rewrite uses, as `/lib:base` has them.
    const LIBRARY: &str = "
datatype Map<T,U> { Map(dom: [T]bool, val: [T]U) }
datatype One<T> { One(val: T) }
function {:inline} Set_Contains<T>(a: [T]bool, t: T): bool { a[t] }
function {:inline} Set_Add<T>(a: [T]bool, t: T): [T]bool { a[t := true] }
function {:inline} Set_Remove<T>(a: [T]bool, t: T): [T]bool { a[t := false] }
function {:inline} Set_IsSubset<T>(a: [T]bool, b: [T]bool): bool { MapImp(a, b) == MapConst(true) }
function {:builtin \"MapImp\"} MapImp<T>([T]bool, [T]bool) : [T]bool;
function {:builtin \"MapConst\"} MapConst<T,U>(U) : [T]U;
function {:inline} Map_Contains<T,U>(a: Map T U, t: T): bool { a->dom[t] }
function {:inline} Map_At<T,U>(a: Map T U, t: T): U { a->val[t] }
function Map_Remove<T,U>(a: Map T U, t: T): Map T U;
function Map_Update<T,U>(a: Map T U, t: T, u: U): Map T U;
function Map_Extract<T,U>(a: Map T U, t: [T]bool): Map T U;
function Map_Exclude<T,U>(a: Map T U, t: [T]bool): Map T U;
function Map_Union<T,U>(a: Map T U, b: Map T U): Map T U;
pure procedure Move<T>({:linear_in} u: T, {:linear_out} v: T);
pure procedure One_Get<K>({:linear} path: Map K int, {:linear_out} l: K);
pure procedure One_Put<K>({:linear} path: Map K int, {:linear_in} l: K);
pure procedure Map_Get<K,V>({:linear} path: Map K V, {:linear_out} k: K) returns ({:linear} v: V);
pure procedure Map_Put<K,V>({:linear} path: Map K V, {:linear_in} k: K, {:linear_in} v: V);
pure procedure Map_Split<K,V>({:linear} path: Map K V, k: [K]bool) returns ({:linear} l: Map K V);
pure procedure Map_Join<K,V>({:linear} path: Map K V, {:linear_in} l: Map K V);
pure procedure Path_Load<V>(path: V) returns (v: V);
pure procedure Path_Store<V>(path: V, v: V);
";

    /// The body of procedure `P` after the pass, one command per line, attributes and all;
    /// the output checks again as a pass's output.
    fn body_after(text: &str) -> Vec<String> {
        let source = format!("{LIBRARY}{text}");
        let program = LinearPrimitives { enabled: true }
            .run(&typed(&source), &mut PassCx::default())
            .expect("rewrites")
            .expect("changed");
        let printed = crate::printer::print_program(&program, &Default::default());
        typed_output(&printed);
        let start = printed.find("procedure P(").expect("P is printed");
        let body = &printed[start..];
        let body = &body[body.find("\n{").expect("a body") + 2..body.find("\n}").expect("its end")];
        body.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("var ") && !l.ends_with(':'))
            .map(String::from)
            .collect()
    }

    #[test]
    fn map_get_asserts_membership_reads_and_removes() {
        let body = body_after("procedure P(k: int) { var m: Map int bool; var v: bool; call v := Map_Get(m, k); }");
        assert_eq!(
            body,
            [
                "assert {:rboogie_error \"Map_Get failed\"} Map_Contains(m, k);",
                "v := Map_At(m, k);",
                "m := Map_Remove(m, k);",
            ]
        );
    }

    /// A linear key is assumed absent; an ordinary one is not.
    #[test]
    fn map_put_assumes_a_linear_key_absent() {
        let linear = body_after(
            "procedure P({:linear_in} k: One int, {:linear_in} m0: Map (One int) int) { var m: Map (One int) int;
               m := m0; call Map_Put(m, k, 1); }",
        );
        assert_eq!(linear, ["m := m0;", "assume !Map_Contains(m, k);", "m := Map_Update(m, k, 1);"]);
        let ordinary = body_after("procedure P(k: int) { var m: Map int int; call Map_Put(m, k, 1); }");
        assert_eq!(ordinary, ["m := Map_Update(m, k, 1);"]);
    }

    #[test]
    fn split_join_one_get_and_one_put() {
        let body = body_after(
            "procedure P(s: [int]bool, x: int) { var m, l: Map int int;
               call l := Map_Split(m, s); call Map_Join(m, l); call One_Put(m, x); call One_Get(m, x); }",
        );
        assert_eq!(
            body,
            [
                "assert {:rboogie_error \"Map_Split failed\"} Set_IsSubset(s, m->dom);",
                "l := Map_Extract(m, s);",
                "m := Map_Exclude(m, s);",
                "m := Map_Union(m, l);",
                "m->dom := Set_Add(m->dom, x);",
                "assert {:rboogie_error \"One_Get failed\"} Set_Contains(m->dom, x);",
                "m->dom := Set_Remove(m->dom, x);",
            ]
        );
    }

    /// A path's parts are checked first: an entry of a `Map`'s `val` is in its domain, a
    /// field of a datatype of several constructors exists.
    #[test]
    fn a_path_is_checked_then_assigned_in_place() {
        let body = body_after(
            "datatype S { A(f: Map int int), B() }
             procedure P(i: int) { var mm: Map int S; call Path_Store(mm->val[i]->f, Map(MapConst(false), MapConst(0))); }",
        );
        assert_eq!(
            body,
            [
                "assert {:rboogie_error \"map lookup failed\"} Map_Contains(mm, i);",
                "assert {:rboogie_error \"field lookup failed\"} false || mm->val[i] is A;",
                "mm->val[i]->f := Map(MapConst(false), MapConst(0));",
            ]
        );
    }

    #[test]
    fn move_asserts_equality_and_path_load_reads() {
        let body = body_after(
            "procedure P(x: int, y: int) { var a: [int]int; var z: int; call Move(x, y); call z := Path_Load(a[x]); }",
        );
        assert_eq!(body, ["assert {:rboogie_error \"Move failed\"} x == y;", "z := a[x];"]);
    }

    /// Without monomorphization (another type encoding), or without primitives, nothing
    /// changes, as in Boogie.
    #[test]
    fn nothing_changes_without_monomorphization_or_primitives() {
        let source = format!("{LIBRARY}procedure P(k: int) {{ var m: Map int int; call Map_Put(m, k, 1); }}");
        let off = LinearPrimitives { enabled: false }.run(&typed(&source), &mut PassCx::default());
        assert!(matches!(off, Ok(None)));
        let none = LinearPrimitives { enabled: true }.run(&typed("procedure P() { }"), &mut PassCx::default());
        assert!(matches!(none, Ok(None)));
    }

    /// A primitive that would assign a constant is refused at its call, not rewritten into an
    /// assignment the re-check rejects.
    #[test]
    fn a_constant_path_is_refused() {
        let source = format!("{LIBRARY}const c: Map int int;\nprocedure P() {{ call Map_Put(c, 1, 2); }}");
        match (LinearPrimitives { enabled: true }).run(&typed(&source), &mut PassCx::default()) {
            Err(PassError::Unsupported { span: Some(_), what }) => {
                assert_eq!(what, "the linear primitive Map_Put assigning the constant c");
            }
            other => panic!("not refused: {:?}", other.map(|p| p.is_some())),
        }
    }

    /// Boogie's linear types: `One _`, a `Map` keyed by `One _` or holding linear values, a
    /// datatype with a linear field (through recursion too).
    #[test]
    fn linear_types() {
        let source = format!(
            "{LIBRARY}datatype L {{ Nil(), Cons(hd: int, tl: L) }}
             datatype LL {{ LNil(), LCons(hd: One int, tl: LL) }}
             datatype Pair<A, B> {{ Pair(b: B, a: A) }}
             procedure P(a: One int, b: Map int int, c: Map (One int) int, d: Map int (One int), e: L, f: LL,
                         g: Pair int (One int), h: Pair (One int) int, i: Pair int int);"
        );
        let typed = typed(&source);
        let symbols = typed.symbols();
        let p = symbols.procedure(symbols.procedures_by_name[&Symbol::intern("P")]);
        let linear: Vec<bool> = p.ins.iter().map(|v| is_linear(symbols, &symbols.var(*v).ty)).collect();
        assert_eq!(linear, [true, false, true, true, false, true, true, true, false]);
    }
}
