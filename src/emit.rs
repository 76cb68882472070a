//! Boogie's `Emit`: expressions, types, attributes and triggers spelled as Boogie 3.5 prints a
//! program under `/print`, `/printInstrumented` and `/printInlined` (AbsyExpr.cs, AbsyType.cs,
//! AbsyQuant.cs, QKeyValue.cs, TokenTextWriter.cs).
//!
//! [`crate::printer`] prints text that parses back to the same tree; Boogie's printer does not
//! promise that, and its text differs in many small ways this module reproduces:
//! * **Binding strengths.** Every operator has Boogie's number (`<==>` 0x00, `==>` 0x10, `&&`
//!   0x20, `||` 0x21, relations 0x30, `++` 0x32, `+ -` 0x40, `* div mod /` 0x50, `**` 0x60,
//!   `is` 0x68, `! -` 0x70, `: T` 0x80, postfix forms 0x90), each operand is printed in its
//!   context, and parentheses appear exactly where Boogie's rule puts them. `&&` inside `||`
//!   is parenthesized (same high nibble, different strength); `x + (y + z)` loses its
//!   parentheses only when the type checker has given the right operand type `int` or `real`
//!   (Boogie's `RegroupsWith`), so the same tree prints differently before and after type
//!   checking.
//! * **Spelling.** `if` expressions always in parentheses, `e: T` with no space before the
//!   colon, triggers as `{ e }`, map types as `[a,b]c`, type parameters as `<a,b>`, decimal
//!   literals as Boogie's `BigDec` prints them (`1.50` is `15e-1`), and names escaped only when
//!   they are in Boogie's short keyword list (or look like `bv32`), with `@` spelled `#AT#`.
//!
//! * **Type checking's rewrites.** Boogie's type checker turns `a == b` on booleans into
//!   `a <==> b` and `a != b` into `a <==> !b` (`BinaryOperator.ResolveOverloading`); a program
//!   printed after type checking shows them.
//!
//! The printer switches to these forms while an [`EmitMode`] guard is alive; the guard also
//! carries the class of each expression's type (by `NodeId`), empty before type checking.

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use crate::ast::{
    ArithCoercion, AttrParam, Attribute, BinaryOp, Expr, ExprKind, FieldUpdateExpr, LetExpr, MapType, QuantKind,
    Quantifier, StoreExpr, Trigger, Type, TypeKind, UnaryOp, VarGroup,
};

/// What printing needs to know of an expression's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeClass {
    Other,
    /// `int` or `real`
    Arith,
    Bool,
}

/// The [`TypeClass`] of every expression, by `NodeId` index.
pub type TypeTable = Rc<Vec<TypeClass>>;

thread_local! {
    static MODE: RefCell<Option<TypeTable>> = const { RefCell::new(None) };
    static RENAMED: RefCell<Option<Renamed>> = const { RefCell::new(None) };
}

/// Text that replaces variables, by the `NodeId` of their occurrence: a passive program's
/// expressions are the program's own with every variable replaced by its incarnation (or the
/// value copied into it), and `old(e)` by `e` with the incarnations at the entry (Boogie's
/// `Substituter.ApplyReplacingOldExprs`). Built by [`crate::vcgen::shown`].
pub type Renamed = rustc_hash::FxHashMap<u32, String>;

/// `e` as [`expr`] prints it with the variables `renamed` names replaced.
pub fn expr_renamed(out: &mut String, e: &Expr, renamed: Renamed) {
    let previous = RENAMED.with(|r| r.borrow_mut().replace(renamed));
    expr(out, e);
    RENAMED.with(|r| *r.borrow_mut() = previous);
}

fn renamed(e: &Expr) -> Option<String> {
    RENAMED.with(|r| r.borrow().as_ref().and_then(|table| table.get(&e.id.0).cloned()))
}

fn renaming() -> bool {
    RENAMED.with(|r| r.borrow().is_some())
}

/// While alive, the printer prints Boogie's forms.
pub struct EmitMode {
    previous: Option<TypeTable>,
}

impl EmitMode {
    pub fn enter(arith: TypeTable) -> EmitMode {
        EmitMode { previous: MODE.with(|m| m.borrow_mut().replace(arith)) }
    }
}

impl Drop for EmitMode {
    fn drop(&mut self) {
        let previous = self.previous.take();
        MODE.with(|m| *m.borrow_mut() = previous);
    }
}

/// Whether an [`EmitMode`] is alive.
pub fn active() -> bool {
    MODE.with(|m| m.borrow().is_some())
}

/// The type table of a type-checked program.
pub fn type_table(typed: &crate::typeck::TypedProgram) -> TypeTable {
    use crate::typeck::types::Type as T;
    let class = |t: &T| match t.expanded() {
        T::Int | T::Real => TypeClass::Arith,
        T::Bool => TypeClass::Bool,
        _ => TypeClass::Other,
    };
    Rc::new(typed.typing.expr_types.iter().map(class).collect())
}

fn class(e: &Expr) -> TypeClass {
    if e.id.0 == crate::ast::NodeId::NONE.0 {
        return TypeClass::Other;
    }
    let of = |table: &TypeTable| table.get(e.id.index()).copied().unwrap_or(TypeClass::Other);
    MODE.with(|m| m.borrow().as_ref().map_or(TypeClass::Other, of))
}

/// Boogie's keywords (`TokenTextWriter.BplKeywords`): only these are escaped when printed.
const KEYWORDS: &[&str] = &[
    "action",
    "assert",
    "asserts",
    "assume",
    "async",
    "atomic",
    "axiom",
    "bool",
    "both",
    "break",
    "call",
    "cast",
    "const",
    "else",
    "ensures",
    "exists",
    "false",
    "forall",
    "free",
    "function",
    "goto",
    "havoc",
    "if",
    "implementation",
    "int",
    "invariant",
    "left",
    "measure",
    "modifies",
    "old",
    "preserves",
    "procedure",
    "public",
    "requires",
    "return",
    "returns",
    "right",
    "rmode",
    "true",
    "type",
    "unique",
    "var",
    "where",
    "while",
    "yield",
];

/// `TokenTextWriter.SanitizeIdentifier`.
pub fn sanitize(name: &str) -> Cow<'_, str> {
    if KEYWORDS.contains(&name) {
        return Cow::Owned(format!("\\{name}"));
    }
    if let Some(digits) = name.strip_prefix("bv")
        && !digits.is_empty()
        && digits.parse::<i32>().is_ok()
    {
        return Cow::Owned(format!("\\{name}"));
    }
    if name.contains('@') {
        return Cow::Owned(sanitize(&name.replace('@', "#AT#")).into_owned());
    }
    Cow::Borrowed(name)
}

// ---------------------------------------------------------------------------------------------
// Attributes and triggers

/// `QKeyValue.Emit`: string parameters as written, between quotes.
pub fn attribute(out: &mut String, attr: &Attribute) {
    out.push_str("{:");
    out.push_str(&attr.key);
    for (i, param) in attr.params.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        match param {
            AttrParam::Str(s, _) => {
                out.push('"');
                out.push_str(s);
                out.push('"');
            }
            AttrParam::Expr(e) => expr(out, e),
        }
    }
    out.push('}');
}

/// `Trigger.Emit`: `{ e1, e2 }` or `{:nopats e }`.
pub fn trigger(out: &mut String, trigger: &Trigger) {
    out.push_str(if trigger.positive { "{ " } else { "{:nopats " });
    exprs(out, &trigger.exprs);
    out.push_str(" }");
}

/// A group of variables as Boogie holds them, one variable each: `{:a} x: int, {:a} y: int`.
pub fn var_group(out: &mut String, group: &VarGroup, with_type: bool) {
    for (i, name) in group.names.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        for attr in &group.attrs {
            attribute(out, attr);
            out.push(' ');
        }
        // `TypedIdent.Emit` moves the variable's token to its name.
        crate::moved::mark(out, name.span);
        out.push_str(&sanitize(&name.name));
        if with_type {
            out.push_str(": ");
            ty(out, &group.ty);
        }
        if let Some(w) = &group.where_clause {
            out.push_str(" where ");
            expr(out, w);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Types

pub fn ty(out: &mut String, t: &Type) {
    ty_at(out, t, 0);
}

/// `<a,b>` before a signature, map type or quantifier's variables.
pub fn type_params(out: &mut String, params: &[crate::ast::Ident]) {
    if !params.is_empty() {
        out.push('<');
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&sanitize(&p.name));
        }
        out.push('>');
    }
}

fn ty_at(out: &mut String, t: &Type, context: u8) {
    crate::moved::mark(out, t.span);
    match &t.kind {
        TypeKind::Int => out.push_str("int"),
        TypeKind::Real => out.push_str("real"),
        TypeKind::Bool => out.push_str("bool"),
        // `CtorType.EmitCtorType`: the last argument at strength 1, so a map type needs none.
        TypeKind::Named { name, args } => {
            let strength = if args.is_empty() { 2 } else { 0 };
            let parens = strength < context;
            if parens {
                out.push('(');
            }
            out.push_str(&sanitize(&name.name));
            for (i, arg) in args.iter().enumerate() {
                out.push(' ');
                ty_at(out, arg, if i + 1 == args.len() { 1 } else { 2 });
            }
            if parens {
                out.push(')');
            }
        }
        TypeKind::Map(map) => {
            let MapType { type_params: params, args, result } = &**map;
            let parens = 1 < context;
            if parens {
                out.push('(');
            }
            type_params(out, params);
            out.push('[');
            for (i, arg) in args.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                ty_at(out, arg, 0);
            }
            out.push(']');
            ty_at(out, result, 0);
            if parens {
                out.push(')');
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Expressions

/// `Expr.Emit(stream)`: an expression in the loosest context.
pub fn expr(out: &mut String, e: &Expr) {
    expr_at(out, e, 0, false);
}

/// `IList<Expr>.Emit`: comma-separated, each in the loosest context.
pub fn exprs(out: &mut String, es: &[Expr]) {
    for (i, e) in es.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        expr(out, e);
    }
}

/// The rule of every operator but the binary ones.
fn needs_parens(strength: u8, context: u8, fragile: bool) -> bool {
    strength < context || (fragile && strength == context)
}

fn open(out: &mut String, parens: bool) {
    if parens {
        out.push('(');
    }
}

fn close(out: &mut String, parens: bool) {
    if parens {
        out.push(')');
    }
}

/// A postfix form (`m[i]`, `e->f`, `e[8:0]`): its operand at 0x90.
fn postfix(out: &mut String, arg: &Expr, context: u8, fragile: bool, suffix: impl FnOnce(&mut String)) {
    let parens = needs_parens(0x90, context, fragile);
    open(out, parens);
    expr_at(out, arg, 0x90, false);
    suffix(out);
    close(out, parens);
}

fn expr_at(out: &mut String, e: &Expr, context: u8, fragile: bool) {
    // Every expression's `Emit` moves its token to where it starts (before any parenthesis).
    crate::moved::mark(out, e.span);
    match &e.kind {
        ExprKind::BoolLit(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::IntLit(text) => {
            let digits = text.trim_start_matches('0');
            out.push_str(if digits.is_empty() { "0" } else { digits });
        }
        ExprKind::DecLit(text) => out.push_str(&big_dec(text)),
        ExprKind::FloatLit(text) => out.push_str(text),
        ExprKind::BvLit { value, width } => {
            let digits = value.trim_start_matches('0');
            out.push_str(if digits.is_empty() { "0" } else { digits });
            out.push_str("bv");
            out.push_str(&width.to_string());
        }
        ExprKind::StrLit(s) => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        ExprKind::RoundingMode(mode) => out.push_str(mode.name()),
        ExprKind::Var(name) => match renamed(e) {
            Some(text) => out.push_str(&text),
            None => out.push_str(&sanitize(&name.name)),
        },
        ExprKind::Call { func, args } => {
            out.push_str(&sanitize(func));
            out.push('(');
            exprs(out, args);
            out.push(')');
        }
        // Renamed, `old` is gone: its variables are the entry's incarnations.
        ExprKind::Old(arg) if renaming() => expr_at(out, arg, context, fragile),
        ExprKind::Old(arg) => {
            out.push_str("old(");
            expr(out, arg);
            out.push(')');
        }
        ExprKind::Arith { to, arg } => {
            out.push_str(match to {
                ArithCoercion::ToInt => "int(",
                ArithCoercion::ToReal => "real(",
            });
            expr(out, arg);
            out.push(')');
        }
        ExprKind::Unary { op, arg } => {
            let parens = needs_parens(0x70, context, fragile);
            open(out, parens);
            out.push(match op {
                UnaryOp::Neg => '-',
                UnaryOp::Not => '!',
            });
            expr_at(out, arg, 0x70, false);
            close(out, parens);
        }
        ExprKind::Binary { op, lhs, rhs } => binary(out, *op, lhs, rhs, context, fragile),
        ExprKind::BvConcat { lhs, rhs } => {
            let parens = needs_parens(0x32, context, fragile);
            open(out, parens);
            expr_at(out, lhs, 0x32, false);
            out.push_str(" ++ ");
            expr_at(out, rhs, 0x32, true);
            close(out, parens);
        }
        ExprKind::Is { arg, ctor } => {
            let parens = needs_parens(0x68, context, fragile);
            open(out, parens);
            expr_at(out, arg, 0x68, false);
            out.push_str(" is ");
            out.push_str(&ctor.name);
            close(out, parens);
        }
        ExprKind::Coerce { arg, ty: t } => {
            let parens = needs_parens(0x80, context, fragile);
            open(out, parens);
            expr_at(out, arg, 0x80, false);
            out.push_str(": ");
            ty(out, t);
            close(out, parens);
        }
        ExprKind::Select { map, indexes } => postfix(out, map, context, fragile, |out| {
            out.push('[');
            exprs(out, indexes);
            out.push(']');
        }),
        ExprKind::Store(store) => {
            let StoreExpr { map, indexes, value } = &**store;
            postfix(out, map, context, fragile, |out| {
                out.push('[');
                exprs(out, indexes);
                out.push_str(" := ");
                expr(out, value);
                out.push(']');
            })
        }
        ExprKind::Extract { arg, hi, lo } => postfix(out, arg, context, fragile, |out| {
            out.push_str(&format!("[{hi}:{lo}]"));
        }),
        ExprKind::BvBounds { hi, lo } => out.push_str(&format!("{hi}:{lo}")),
        ExprKind::Field { arg, field } => postfix(out, arg, context, fragile, |out| {
            out.push_str("->");
            out.push_str(&field.name);
        }),
        ExprKind::FieldUpdate(update) => {
            let FieldUpdateExpr { arg, field, value } = &**update;
            postfix(out, arg, context, fragile, |out| {
                out.push_str("->(");
                out.push_str(&field.name);
                out.push_str(" := ");
                expr_at(out, value, 0x90, false);
                out.push(')');
            })
        }
        ExprKind::Quant(q) => quantifier(out, q),
        ExprKind::Let(let_expr) => {
            let LetExpr { vars, rhss, attrs, body } = &**let_expr;
            out.push_str("(var ");
            for (i, var) in vars.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                for attr in &var.attrs {
                    attribute(out, attr);
                    out.push(' ');
                }
                out.push_str(&sanitize(&var.name.name));
            }
            out.push_str(" := ");
            exprs(out, rhss);
            out.push_str("; ");
            for attr in attrs {
                attribute(out, attr);
                out.push(' ');
            }
            expr(out, body);
            out.push(')');
        }
        ExprKind::IfThenElse { cond, then, els } => {
            out.push_str("(if ");
            expr(out, cond);
            out.push_str(" then ");
            expr(out, then);
            out.push_str(" else ");
            expr(out, els);
            out.push(')');
        }
        ExprKind::Code(code) => crate::printer::write_code_expr(out, &code.locals, &code.blocks),
    }
}

/// `BinaryOperator.Emit`: parentheses when the operator's strength is below the context's
/// (comparing high nibbles), or equal in nibble but a different operator or a fragile side.
fn binary(out: &mut String, op: BinaryOp, lhs: &Expr, rhs: &Expr, context: u8, fragile: bool) {
    let booleans = class(lhs) == TypeClass::Bool && class(rhs) == TypeClass::Bool;
    let negated_rhs = booleans && op == BinaryOp::Neq;
    let op = if booleans && matches!(op, BinaryOp::Eq | BinaryOp::Neq) { BinaryOp::Iff } else { op };
    let regroups = |inner: &[BinaryOp]| {
        class(rhs) == TypeClass::Arith && matches!(&rhs.kind, ExprKind::Binary { op, .. } if inner.contains(op))
    };
    let (strength, fragile_left, fragile_right) = match op {
        BinaryOp::Add => (0x40, false, !regroups(&[BinaryOp::Add, BinaryOp::Sub])),
        BinaryOp::Sub => (0x40, false, true),
        BinaryOp::Mul => (0x50, false, !regroups(&[BinaryOp::Mul])),
        BinaryOp::Div | BinaryOp::Mod | BinaryOp::RealDiv => (0x50, false, true),
        BinaryOp::Pow => (0x60, false, true),
        BinaryOp::Eq
        | BinaryOp::Neq
        | BinaryOp::Gt
        | BinaryOp::Ge
        | BinaryOp::Lt
        | BinaryOp::Le
        | BinaryOp::Subtype => (0x30, true, true),
        BinaryOp::And => (0x20, false, false),
        BinaryOp::Or => (0x21, false, false),
        BinaryOp::Imp => (0x10, true, false),
        BinaryOp::Iff => (0x00, false, false),
    };
    let (op_nibble, context_nibble) = (strength & 0xF0, context & 0xF0);
    let parens = op_nibble < context_nibble || (op_nibble == context_nibble && (strength != context || fragile));
    open(out, parens);
    expr_at(out, lhs, strength, fragile_left);
    out.push(' ');
    out.push_str(op.symbol());
    out.push(' ');
    if negated_rhs {
        out.push('!');
        expr_at(out, rhs, 0x70, false);
    } else {
        expr_at(out, rhs, strength, fragile_right);
    }
    close(out, parens);
}

/// `QuantifierExpr.Emit`: `(forall<a> x: a, y: int :: {:attrs} { trigger } body)`; a lambda
/// prints no triggers.
fn quantifier(out: &mut String, q: &Quantifier) {
    out.push('(');
    out.push_str(match q.kind {
        QuantKind::Forall => "forall",
        QuantKind::Exists => "exists",
        QuantKind::Lambda => "lambda",
    });
    type_params(out, &q.type_params);
    out.push(' ');
    for (i, group) in q.vars.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        var_group(out, group, true);
    }
    out.push_str(" :: ");
    for attr in &q.attrs {
        attribute(out, attr);
        out.push(' ');
    }
    if q.kind != QuantKind::Lambda {
        for t in &q.triggers {
            trigger(out, t);
            out.push(' ');
        }
    }
    expr(out, &q.body);
    out.push(')');
}

/// A decimal literal as Boogie's `BigDec.ToString` prints it: the mantissa without trailing
/// zeros, `e`, the exponent (`0.0` is `0e0`, `1.50` is `15e-1`, `1e5` is `1e5`).
fn big_dec(text: &str) -> String {
    let (number, exponent) = match text.split_once('e') {
        Some((n, e)) => (n, e.parse::<i64>().unwrap_or(0)),
        None => (text, 0),
    };
    let (integral, fraction) = number.split_once('.').unwrap_or((number, ""));
    let mut exponent = exponent;
    let mut digits = integral.to_string();
    // Boogie shifts the fraction in only when it is not zero.
    if fraction.chars().any(|c| c != '0') {
        digits.push_str(fraction);
        exponent -= fraction.len() as i64;
    }
    let mut digits = digits.trim_start_matches('0').to_string();
    if digits.is_empty() {
        return "0e0".to_string();
    }
    while digits.ends_with('0') {
        digits.pop();
        exponent += 1;
    }
    format!("{digits}e{exponent}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_as_big_dec_prints_them() {
        assert_eq!(big_dec("0.0"), "0e0");
        assert_eq!(big_dec("1.50"), "15e-1");
        assert_eq!(big_dec("1e5"), "1e5");
        assert_eq!(big_dec("100.0"), "1e2");
        assert_eq!(big_dec("2.5e3"), "25e2");
    }

    #[test]
    fn only_boogies_keywords_are_escaped() {
        assert_eq!(sanitize("old"), "\\old");
        assert_eq!(sanitize("then"), "then");
        assert_eq!(sanitize("bv32"), "\\bv32");
        assert_eq!(sanitize("bvx"), "bvx");
        assert_eq!(sanitize("a@1"), "a#AT#1");
    }
}
