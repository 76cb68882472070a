//! Printing a tree back as BoogiePL text.
//!
//! Guarantee: for every tree the parser builds, parsing the printed text again gives an equal
//! tree (`==` ignores spans). Three things make that hold:
//!
//! * **Parentheses from the grammar's precedence levels.** Each expression is printed at the
//!   level of its own syntax (`Prec`); an operand below the level its position demands is
//!   parenthesized. Associativity follows Boogie's grammar (`<==>`, `&&`, `||`, `++`, `+`, `*`
//!   chain to the left, `==>` and `**` to the right, relations do not chain). Two constructs are
//!   parenthesized whenever they are an operand, whatever the level: `if c then a else b`
//!   (its `else` branch would swallow what follows) and `e : T` (a type followed by `<` or `[`
//!   would read on). Parentheses never create nodes, so extra ones are harmless.
//! * **Escaped names.** A name that is a keyword is printed as `\name`, which the lexer reads
//!   as the identifier `name` (see `ident`).
//! * **Token boundaries.** Binary operators have spaces around them, and a negation whose
//!   operand would print starting with `-` or `0x` gets parentheses, so `-(-x)` never becomes
//!   `--x` and `-(0x1.0e0f24e8)` never lexes as one negative float literal.
//!
//! Trees the parser cannot build (an attribute `{:nopats e}` outside the trigger list, an empty
//! statement list, a quantifier without bound variables, names that are not identifiers at
//! all) are printed as faithfully as the concrete syntax allows, without panicking.
//!
//! Layout follows Boogie's `Emit` methods: two spaces per level; specifications indented under
//! their procedure; `{` and `}` of bodies and structured commands on lines of their own; labels
//! one level left of the commands they precede. `pretty` (Boogie's `/pretty`) separates
//! declarations of different kinds, and every multi-line declaration, by a blank line.

use std::borrow::Cow;

use crate::moved::{mark, mark_text};

use crate::ast::{
    ActionDecl, ActionSpec, ArithCoercion, AssignLhs, AttrParam, Attribute, AxiomDecl, BigBlock, BinaryOp, BlockTail,
    Body, CallCmd, Cmd, CmdKind, ConstDecl, DatatypeDecl, Decl, ElseBranch, Expr, ExprKind, FieldUpdateExpr, FnParam,
    FunctionDecl, GlobalVarDecl, Ident, IfCmd, ImplementationDecl, LetExpr, LetVar, LocalVars, LoopSpec, MapType,
    Mover, ProcedureDecl, Program, QuantKind, Quantifier, Spec, SpecBlock, SpecTransfer, StmtList, StoreExpr, Trigger,
    Type, TypeDecl, TypeKind, UnaryOp, VarGroup, WhileCmd, YieldClauseBody, YieldInvariantDecl, YieldProcedureDecl,
    YieldSpec,
};

/// How to lay out a program; every choice prints text that parses to the same tree.
#[derive(Clone, Debug, Default)]
pub struct PrintOptions {
    /// Boogie's `/pretty`: a blank line between declarations of different kinds and around
    /// every declaration that spans several lines.
    pub pretty: bool,
    /// Boogie's `Emit` ([`crate::emit`]): Boogie's spelling of expressions and types, one
    /// declaration per variable and constant, a procedure with a body as a procedure and an
    /// implementation, function bodies as Boogie keeps them (definition axioms in `uses`), a
    /// blank line between any two declarations and two more after each procedure and
    /// implementation.
    pub emit: bool,
    /// With `emit`, the bodies are blocks (`/printInlined`): a blank line before every block.
    pub blocks: bool,
    /// With `emit`, the class of each expression's type ([`crate::emit::TypeTable`]); none
    /// before type checking.
    pub types: Option<crate::emit::TypeTable>,
    /// With `emit`, the where clauses of locals after the variables of a `havoc`, as Boogie
    /// prints a resolved program (`havoc x /* where x > 0 */;`).
    pub where_comments: bool,
}

/// Prints a whole program, one declaration after another, ending in a newline.
pub fn print_program(program: &Program, options: &PrintOptions) -> String {
    let _mode = options.emit.then(|| crate::emit::EmitMode::enter(options.types.clone().unwrap_or_default()));
    let mut printer = Printer::default();
    let mut previous: Option<&Decl> = None;
    for decl in &program.decls {
        if let Some(previous) = previous
            && (options.emit || blank_line_between(previous, decl, options))
        {
            printer.blank();
        }
        printer.emit = options.emit;
        printer.blocks = options.blocks;
        printer.where_comments = options.where_comments;
        printer.decl(decl);
        if options.emit && matches!(decl, Decl::Procedure(_) | Decl::Implementation(_)) {
            printer.blank();
            printer.blank();
        }
        previous = Some(decl);
    }
    printer.out
}

/// Prints an expression on one line, as it would stand as a whole command argument.
pub fn print_expr(e: &Expr) -> String {
    let mut out = String::new();
    write_expr(&mut out, e);
    out
}

/// Prints a type on one line.
pub fn print_type(t: &Type) -> String {
    let mut out = String::new();
    write_type(&mut out, t);
    out
}

// ---------------------------------------------------------------------------------------------
// Names

/// Every keyword of Boogie's grammar, plus the Civl words Boogie's `Ident` production accepts
/// as names (`left`, `hide`, ...): escaping those too costs nothing and keeps a name such as
/// `hide` from starting a `hide` command. `extends` and `complete` are Boogie 2 keywords.
#[rustfmt::skip]
const KEYWORDS: &[&str] = &[
    "action", "assert", "asserts", "assume", "async", "atomic", "axiom", "bool", "both", "break",
    "call", "complete", "const", "datatype", "div", "else", "ensures", "exists", "extends",
    "false", "forall", "free", "function", "goto", "havoc", "hide", "hideable", "if",
    "implementation", "int", "invariant", "is", "lambda", "left", "measure", "mod", "modifies",
    "old", "pop", "preserves", "procedure", "pure", "push", "real", "refines", "requires",
    "return", "returns", "reveal", "revealed", "right", "roundNearestTiesToAway",
    "roundNearestTiesToEven", "roundTowardNegative", "roundTowardPositive", "roundTowardZero",
    "RNA", "RNE", "RTN", "RTP", "RTZ", "then", "true", "type", "unique", "uses", "var", "where",
    "while", "yield",
];

/// A name as it must be written to lex as that identifier: keywords get a leading `\`.
///
/// A name that is not an identifier at all (it starts with a digit, say) cannot be fixed by
/// escaping and is printed as it is; the parser never builds one.
fn ident(name: &str) -> Cow<'_, str> {
    if crate::emit::active() {
        return crate::emit::sanitize(name);
    }
    if KEYWORDS.contains(&name) { Cow::Owned(format!("\\{name}")) } else { Cow::Borrowed(name) }
}

fn idents(names: &[Ident]) -> String {
    join(names, ", ", |out, name| out.push_str(&ident(&name.name)))
}

/// Writes each item with `write`, separated by `separator`.
fn join<T>(items: &[T], separator: &str, mut write: impl FnMut(&mut String, &T)) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(separator);
        }
        write(&mut out, item);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Attributes and triggers

fn write_attribute(out: &mut String, attr: &Attribute) {
    if crate::emit::active() {
        return crate::emit::attribute(out, attr);
    }
    out.push_str("{:");
    out.push_str(&ident(&attr.key));
    for (i, param) in attr.params.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        match param {
            AttrParam::Str(s, _) => write_string_literal(out, s),
            // A bare string literal here would read back as `AttrParam::Str`.
            AttrParam::Expr(e) if matches!(e.kind, ExprKind::StrLit(_)) => {
                out.push('(');
                write_expr(out, e);
                out.push(')');
            }
            AttrParam::Expr(e) => write_expr(out, e),
        }
    }
    out.push('}');
}

/// The attributes, each followed by a space, ready to stand before what they annotate.
fn attrs_prefix(attrs: &[Attribute]) -> String {
    let mut out = String::new();
    let hidden = |a: &&Attribute| {
        a.key == crate::passes::INLINED_ENSURES
            || a.key == crate::passes::INLINED_REQUIRES
            || a.key == crate::passes::REQUIRES_CLAUSE
            || a.key == crate::passes::infer::CUT_POINT
    };
    for attr in attrs.iter().filter(|a| !hidden(a)) {
        write_attribute(&mut out, attr);
        out.push(' ');
    }
    out
}

fn write_trigger(out: &mut String, trigger: &Trigger) {
    if crate::emit::active() {
        return crate::emit::trigger(out, trigger);
    }
    out.push_str(if trigger.positive { "{" } else { "{:nopats " });
    write_exprs(out, &trigger.exprs);
    out.push('}');
}

fn write_string_literal(out: &mut String, s: &str) {
    out.push('"');
    out.push_str(s);
    out.push('"');
}

// ---------------------------------------------------------------------------------------------
// Types

fn write_type(out: &mut String, t: &Type) {
    if crate::emit::active() {
        return crate::emit::ty(out, t);
    }
    match &t.kind {
        TypeKind::Int => out.push_str("int"),
        TypeKind::Real => out.push_str("real"),
        TypeKind::Bool => out.push_str("bool"),
        TypeKind::Named { name, args } => {
            out.push_str(&ident(&name.name));
            for arg in args {
                out.push(' ');
                write_type_arg(out, arg);
            }
        }
        TypeKind::Map(map) => {
            let MapType { type_params, args, result } = &**map;
            if !type_params.is_empty() {
                out.push('<');
                out.push_str(&idents(type_params));
                out.push('>');
            }
            out.push('[');
            out.push_str(&join(args, ", ", write_type));
            out.push(']');
            // In a coercion `e : [int]<a>[a]a` the grammar cannot read a result starting with
            // `<` (`e : C < 0` compares), so a polymorphic result always gets parentheses.
            if is_polymorphic_map(result) {
                out.push('(');
                write_type(out, result);
                out.push(')');
            } else {
                write_type(out, result);
            }
        }
    }
}

fn is_polymorphic_map(t: &Type) -> bool {
    matches!(&t.kind, TypeKind::Map(map) if !map.type_params.is_empty())
}

/// An argument of a type constructor: `C (D a) ([int]int)`, since `C D a` applies `C` to two
/// arguments and a map type's result would swallow the arguments after it.
fn write_type_arg(out: &mut String, t: &Type) {
    let needs_parens = match &t.kind {
        TypeKind::Named { args, .. } => !args.is_empty(),
        TypeKind::Map { .. } => true,
        TypeKind::Int | TypeKind::Real | TypeKind::Bool => false,
    };
    if needs_parens {
        out.push('(');
        write_type(out, t);
        out.push(')');
    } else {
        write_type(out, t);
    }
}

// ---------------------------------------------------------------------------------------------
// Expressions

/// The grammar's expression levels, loosest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Iff,
    Implies,
    /// `&&` and `||` (one level; the two cannot be mixed without parentheses)
    Logical,
    Relation,
    Concat,
    Additive,
    Multiplicative,
    Power,
    Is,
    Unary,
    Coercion,
    Postfix,
    Atom,
}

fn binary_prec(op: BinaryOp) -> Prec {
    match op {
        BinaryOp::Iff => Prec::Iff,
        BinaryOp::Imp => Prec::Implies,
        BinaryOp::And | BinaryOp::Or => Prec::Logical,
        BinaryOp::Eq
        | BinaryOp::Neq
        | BinaryOp::Lt
        | BinaryOp::Le
        | BinaryOp::Gt
        | BinaryOp::Ge
        | BinaryOp::Subtype => Prec::Relation,
        BinaryOp::Add | BinaryOp::Sub => Prec::Additive,
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod | BinaryOp::RealDiv => Prec::Multiplicative,
        BinaryOp::Pow => Prec::Power,
    }
}

/// The level of the syntax `e` prints as.
fn prec(e: &Expr) -> Prec {
    match &e.kind {
        ExprKind::Binary { op, .. } => binary_prec(*op),
        ExprKind::BvConcat { .. } => Prec::Concat,
        ExprKind::Is { .. } => Prec::Is,
        ExprKind::Unary { .. } => Prec::Unary,
        ExprKind::Coerce { .. } | ExprKind::BvBounds { .. } => Prec::Coercion,
        ExprKind::Select { .. }
        | ExprKind::Store(_)
        | ExprKind::Extract { .. }
        | ExprKind::Field { .. }
        | ExprKind::FieldUpdate(_) => Prec::Postfix,
        // Quantifiers and lets print their own parentheses; `|{ }|` is self-delimiting; an
        // if-then-else is an atom in the grammar but gets parentheses as an operand anyway.
        ExprKind::BoolLit(_)
        | ExprKind::IntLit(_)
        | ExprKind::DecLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::BvLit { .. }
        | ExprKind::StrLit(_)
        | ExprKind::RoundingMode(_)
        | ExprKind::Var(_)
        | ExprKind::Call { .. }
        | ExprKind::Old(_)
        | ExprKind::Arith { .. }
        | ExprKind::Quant(_)
        | ExprKind::Let { .. }
        | ExprKind::IfThenElse { .. }
        | ExprKind::Code { .. } => Prec::Atom,
    }
}

/// Writes `e` where the grammar expects an expression of level `min` or tighter.
fn write_operand(out: &mut String, e: &Expr, min: Prec) {
    let needs_parens = match &e.kind {
        ExprKind::IfThenElse { .. } | ExprKind::Coerce { .. } => true,
        // Boogie rejects parentheses around bit-vector bounds, and where the parser builds
        // them (an operand of a unary, binary, `is` or coercion) none are needed.
        ExprKind::BvBounds { .. } => false,
        _ => prec(e) < min,
    };
    if needs_parens {
        out.push('(');
        write_expr(out, e);
        out.push(')');
    } else {
        write_expr(out, e);
    }
}

fn write_exprs(out: &mut String, es: &[Expr]) {
    out.push_str(&join(es, ", ", write_expr));
}

fn write_expr(out: &mut String, e: &Expr) {
    if crate::emit::active() {
        return crate::emit::expr(out, e);
    }
    match &e.kind {
        ExprKind::BoolLit(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::IntLit(text) | ExprKind::DecLit(text) | ExprKind::FloatLit(text) => out.push_str(text),
        ExprKind::BvLit { value, width } => {
            out.push_str(value);
            out.push_str("bv");
            out.push_str(&width.to_string());
        }
        ExprKind::StrLit(s) => write_string_literal(out, s),
        ExprKind::RoundingMode(mode) => out.push_str(mode.name()),
        ExprKind::Var(name) => out.push_str(&ident(&name.name)),
        ExprKind::Call { func, args } => {
            out.push_str(&ident(func));
            out.push('(');
            write_exprs(out, args);
            out.push(')');
        }
        ExprKind::Old(arg) => {
            out.push_str("old(");
            write_expr(out, arg);
            out.push(')');
        }
        ExprKind::Arith { to, arg } => {
            out.push_str(match to {
                ArithCoercion::ToInt => "int(",
                ArithCoercion::ToReal => "real(",
            });
            write_expr(out, arg);
            out.push(')');
        }
        ExprKind::Unary { op, arg } => write_unary(out, *op, arg),
        ExprKind::Binary { op, lhs, rhs } => write_binary(out, *op, lhs, rhs),
        ExprKind::BvConcat { lhs, rhs } => {
            write_operand(out, lhs, Prec::Concat);
            out.push_str(" ++ ");
            write_operand(out, rhs, Prec::Additive);
        }
        ExprKind::Is { arg, ctor } => {
            write_operand(out, arg, Prec::Unary);
            out.push_str(" is ");
            out.push_str(&ident(&ctor.name));
        }
        ExprKind::Coerce { arg, ty } => {
            write_operand(out, arg, Prec::Postfix);
            out.push_str(" : ");
            write_type(out, ty);
        }
        ExprKind::Select { map, indexes } => {
            write_operand(out, map, Prec::Postfix);
            out.push('[');
            write_exprs(out, indexes);
            out.push(']');
        }
        ExprKind::Store(store) => {
            let StoreExpr { map, indexes, value } = &**store;
            write_operand(out, map, Prec::Postfix);
            out.push('[');
            write_exprs(out, indexes);
            out.push_str(if indexes.is_empty() { ":= " } else { " := " });
            write_expr(out, value);
            out.push(']');
        }
        ExprKind::Extract { arg, hi, lo } => {
            write_operand(out, arg, Prec::Postfix);
            out.push_str(&format!("[{hi}:{lo}]"));
        }
        ExprKind::BvBounds { hi, lo } => out.push_str(&format!("{hi}:{lo}")),
        ExprKind::Field { arg, field } => {
            write_operand(out, arg, Prec::Postfix);
            out.push_str("->");
            out.push_str(&ident(&field.name));
        }
        ExprKind::FieldUpdate(update) => {
            let FieldUpdateExpr { arg, field, value } = &**update;
            write_operand(out, arg, Prec::Postfix);
            out.push_str("->(");
            out.push_str(&ident(&field.name));
            out.push_str(" := ");
            write_expr(out, value);
            out.push(')');
        }
        ExprKind::Quant(q) => write_quantifier(out, q),
        ExprKind::Let(let_expr) => {
            let LetExpr { vars, rhss, attrs, body } = &**let_expr;
            out.push_str("(var ");
            out.push_str(&join(vars, ", ", write_let_var));
            out.push_str(" := ");
            write_exprs(out, rhss);
            out.push_str("; ");
            out.push_str(&attrs_prefix(attrs));
            write_expr(out, body);
            out.push(')');
        }
        ExprKind::IfThenElse { cond, then, els } => {
            out.push_str("if ");
            write_expr(out, cond);
            out.push_str(" then ");
            write_expr(out, then);
            out.push_str(" else ");
            write_expr(out, els);
        }
        ExprKind::Code(code) => write_code_expr(out, &code.locals, &code.blocks),
    }
}

fn write_unary(out: &mut String, op: UnaryOp, arg: &Expr) {
    let mut operand = String::new();
    write_operand(&mut operand, arg, Prec::Unary);
    // `--` could lex as one token, and `-0x1.0e0f24e8` (also in `-0x1.0e0f24e8[i]`) lexes as
    // one negative float literal.
    let needs_parens = op == UnaryOp::Neg && (operand.starts_with('-') || operand.starts_with("0x"));
    out.push(match op {
        UnaryOp::Neg => '-',
        UnaryOp::Not => '!',
    });
    if needs_parens {
        out.push('(');
        out.push_str(&operand);
        out.push(')');
    } else {
        out.push_str(&operand);
    }
}

fn write_binary(out: &mut String, op: BinaryOp, lhs: &Expr, rhs: &Expr) {
    // The levels the grammar demands of the left and right operand.
    let (lhs_min, rhs_min) = match op {
        BinaryOp::Iff => (Prec::Iff, Prec::Implies),
        BinaryOp::Imp => (Prec::Logical, Prec::Implies),
        BinaryOp::And | BinaryOp::Or => (Prec::Relation, Prec::Relation),
        BinaryOp::Eq
        | BinaryOp::Neq
        | BinaryOp::Lt
        | BinaryOp::Le
        | BinaryOp::Gt
        | BinaryOp::Ge
        | BinaryOp::Subtype => (Prec::Concat, Prec::Concat),
        BinaryOp::Add | BinaryOp::Sub => (Prec::Additive, Prec::Multiplicative),
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod | BinaryOp::RealDiv => (Prec::Multiplicative, Prec::Power),
        BinaryOp::Pow => (Prec::Is, Prec::Power),
    };
    // `&&` chains with `&&` and `||` with `||`, to the left, but the two never mix.
    let chains_left = matches!(op, BinaryOp::And | BinaryOp::Or)
        && matches!(&lhs.kind, ExprKind::Binary { op: inner, .. } if *inner == op);
    if chains_left {
        write_expr(out, lhs);
    } else {
        write_operand(out, lhs, lhs_min);
    }
    out.push(' ');
    out.push_str(op.symbol());
    out.push(' ');
    write_operand(out, rhs, rhs_min);
}

fn write_quantifier(out: &mut String, q: &Quantifier) {
    out.push('(');
    out.push_str(match q.kind {
        QuantKind::Forall => "forall",
        QuantKind::Exists => "exists",
        QuantKind::Lambda => "lambda",
    });
    if !q.type_params.is_empty() {
        out.push_str(" <");
        out.push_str(&idents(&q.type_params));
        out.push('>');
    }
    if !q.vars.is_empty() {
        out.push(' ');
        out.push_str(&var_groups(&q.vars));
    }
    out.push_str(" :: ");
    out.push_str(&attrs_prefix(&q.attrs));
    for trigger in &q.triggers {
        write_trigger(out, trigger);
        out.push(' ');
    }
    write_expr(out, &q.body);
    out.push(')');
}

fn write_let_var(out: &mut String, var: &LetVar) {
    out.push_str(&attrs_prefix(&var.attrs));
    out.push_str(&ident(&var.name.name));
}

/// `|{ var x: int; A: assert x > 0; goto B; B: return x; }|`, on one line.
pub(crate) fn write_code_expr(out: &mut String, locals: &[LocalVars], blocks: &[SpecBlock]) {
    out.push_str("|{ ");
    for decl in locals {
        out.push_str(&local_vars_text(decl));
        out.push(' ');
    }
    for block in blocks {
        out.push_str(&ident(&block.label.name));
        out.push_str(": ");
        for cmd in &block.cmds {
            out.push_str(&cmd_text(cmd));
            out.push(' ');
        }
        match &block.transfer {
            SpecTransfer::Goto { attrs, targets, span: _ } => {
                out.push_str("goto ");
                out.push_str(&attrs_prefix(attrs));
                out.push_str(&idents(targets));
            }
            SpecTransfer::Return { attrs, value, span: _ } => {
                out.push_str("return ");
                out.push_str(&attrs_prefix(attrs));
                write_expr(out, value);
            }
        }
        out.push_str("; ");
    }
    out.push_str("}|");
}

// ---------------------------------------------------------------------------------------------
// Variables and signatures

/// `{:attrs} x, y: T where e`
fn write_var_group(out: &mut String, group: &VarGroup) {
    if crate::emit::active() {
        return crate::emit::var_group(out, group, true);
    }
    out.push_str(&attrs_prefix(&group.attrs));
    out.push_str(&idents(&group.names));
    out.push_str(": ");
    write_type(out, &group.ty);
    if let Some(where_clause) = &group.where_clause {
        out.push_str(" where ");
        write_expr(out, where_clause);
    }
}

fn var_groups(groups: &[VarGroup]) -> String {
    join(groups, ", ", write_var_group)
}

/// `var {:attrs} x: int, y: bool;`
fn local_vars_text(decl: &LocalVars) -> String {
    format!("var {}{};", attrs_prefix(&decl.attrs), var_groups(&decl.groups))
}

/// `<a>(ins) returns (outs)`; an empty `returns ()` is left out, which parses the same.
fn signature(type_params: &[Ident], ins: &[VarGroup], outs: &[VarGroup]) -> String {
    let mut out = String::new();
    write_type_params(&mut out, type_params);
    out.push('(');
    out.push_str(&var_groups(ins));
    out.push(')');
    if !outs.is_empty() {
        out.push_str(" returns (");
        out.push_str(&var_groups(outs));
        out.push(')');
    }
    out
}

/// What Boogie's `EmitImplementation` writes around an implementation's name: its attributes
/// (each followed by a space) and its signature, formals without where clauses; in Boogie's
/// forms (`types` is the program's [`crate::emit::TypeTable`]).
pub(crate) fn implementation_parts(
    attrs: &[Attribute],
    type_params: &[Ident],
    ins: &[VarGroup],
    outs: &[VarGroup],
    types: &crate::emit::TypeTable,
) -> (String, String) {
    let _mode = crate::emit::EmitMode::enter(types.clone());
    let strip = |groups: &[VarGroup]| -> Vec<VarGroup> {
        groups.iter().map(|g| VarGroup { where_clause: None, ..g.clone() }).collect()
    };
    (attrs_prefix(attrs), signature(type_params, &strip(ins), &strip(outs)))
}

/// A function formal: `{:attrs} x: T` or, unnamed, `{:attrs} T`.
fn write_fn_param(out: &mut String, param: &FnParam) {
    out.push_str(&attrs_prefix(&param.attrs));
    if let Some(name) = &param.name {
        out.push_str(&ident(&name.name));
        out.push_str(": ");
    }
    write_type(out, &param.ty);
}

// ---------------------------------------------------------------------------------------------
// Commands (each on one line, with its `;`)

fn cmd_text(cmd: &Cmd) -> String {
    // Every command's `Emit` moves its token to where it starts, after the indentation.
    let mut out = mark_text(cmd.span);
    match &cmd.kind {
        CmdKind::Assert { attrs, expr } => predicate(&mut out, "assert", attrs, expr),
        CmdKind::Assume { attrs, expr } => predicate(&mut out, "assume", attrs, expr),
        CmdKind::Havoc { vars } => {
            out.push_str("havoc ");
            out.push_str(&idents(vars));
        }
        CmdKind::Assign { lhss, attrs, rhss } => {
            out.push_str(&join(lhss, ", ", write_assign_lhs));
            out.push_str(" := ");
            out.push_str(&attrs_prefix(attrs));
            write_exprs(&mut out, rhss);
        }
        CmdKind::Unpack { ctor, vars, attrs, rhs } => {
            out.push_str(&ident(&ctor.name));
            out.push('(');
            out.push_str(&idents(vars));
            out.push_str(") := ");
            out.push_str(&attrs_prefix(attrs));
            write_expr(&mut out, rhs);
        }
        CmdKind::Call(call) => write_call(&mut out, call),
        CmdKind::ParCall { calls } => {
            if let Some((first, rest)) = calls.split_first() {
                write_call(&mut out, first);
                for call in rest {
                    out.push_str(" | ");
                    write_call_params(&mut out, call);
                }
            }
        }
        CmdKind::Measure { attrs, exprs } => {
            out.push_str("measure ");
            out.push_str(&attrs_prefix(attrs));
            write_exprs(&mut out, exprs);
        }
        CmdKind::HideReveal { hide, name } => {
            out.push_str(if *hide { "hide " } else { "reveal " });
            match name {
                Some(name) => out.push_str(&ident(&name.name)),
                None => out.push('*'),
            }
        }
        CmdKind::ChangeScope { push } => out.push_str(if *push { "push" } else { "pop" }),
    }
    out.push(';');
    out
}

/// `assert {:attrs} e` and the like (no `;`).
fn predicate(out: &mut String, keyword: &str, attrs: &[Attribute], expr: &Expr) {
    out.push_str(keyword);
    out.push(' ');
    out.push_str(&attrs_prefix(attrs));
    write_expr(out, expr);
}

fn write_assign_lhs(out: &mut String, lhs: &AssignLhs) {
    match lhs {
        AssignLhs::Var(name) => out.push_str(&ident(&name.name)),
        AssignLhs::Select { base, indexes, span: _ } => {
            write_assign_lhs(out, base);
            out.push('[');
            write_exprs(out, indexes);
            out.push(']');
        }
        AssignLhs::Field { base, field, span: _ } => {
            write_assign_lhs(out, base);
            out.push_str("->");
            out.push_str(&ident(&field.name));
        }
    }
}

/// `async free call {:attrs} x, y := P(args)` (no `;`).
fn write_call(out: &mut String, call: &CallCmd) {
    if call.is_async {
        out.push_str("async ");
    }
    if call.is_free {
        out.push_str("free ");
    }
    out.push_str("call ");
    write_call_params(out, call);
}

/// `{:attrs} x, y := P(args)`: a call after its `call` keyword.
fn write_call_params(out: &mut String, call: &CallCmd) {
    out.push_str(&attrs_prefix(&call.attrs));
    if !call.outs.is_empty() {
        out.push_str(&idents(&call.outs));
        out.push_str(" := ");
    }
    out.push_str(&ident(&call.callee.name));
    out.push('(');
    write_exprs(out, &call.args);
    out.push(')');
}

/// A requires/preserves/ensures clause of a yield procedure or action, with its `;`.
fn yield_clause(keyword: &str, body: &YieldClauseBody) -> String {
    let mut out = String::new();
    match body {
        YieldClauseBody::Expr { attrs, expr } => predicate(&mut out, keyword, attrs, expr),
        YieldClauseBody::Call(call) => {
            out.push_str(keyword);
            out.push(' ');
            write_call(&mut out, call);
        }
    }
    out.push(';');
    out
}

fn mover_prefix(mover: Option<Mover>) -> String {
    mover.map(|m| format!("{} ", m.keyword())).unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// Declarations and statements

const INDENT: &str = "  ";

/// Declarations after which Boogie leaves a blank line, and which `pretty` sets apart.
fn is_multiline(decl: &Decl) -> bool {
    match decl {
        Decl::Procedure(_)
        | Decl::Implementation(_)
        | Decl::Action(_)
        | Decl::YieldProcedure(_)
        | Decl::Datatype(_) => true,
        Decl::Function(f) => f.body.is_some() || f.uses.is_some(),
        Decl::Const(c) => c.uses.is_some(),
        Decl::YieldInvariant(y) => !y.preserves.is_empty(),
        Decl::Type(_) | Decl::Axiom(_) | Decl::Var(_) => false,
    }
}

fn blank_line_between(previous: &Decl, next: &Decl, options: &PrintOptions) -> bool {
    if options.pretty {
        is_multiline(previous) || is_multiline(next) || std::mem::discriminant(previous) != std::mem::discriminant(next)
    } else {
        is_multiline(previous)
    }
}

#[derive(Default)]
struct Printer {
    out: String,
    /// [`PrintOptions::emit`].
    emit: bool,
    /// [`PrintOptions::blocks`].
    blocks: bool,
    /// [`PrintOptions::where_comments`].
    where_comments: bool,
    /// Under `where_comments`, the where clauses of the implementation being printed, by local.
    wheres: Vec<(crate::ast::Symbol, String)>,
}

impl Printer {
    fn line(&mut self, level: usize, text: &str) {
        for _ in 0..level {
            self.out.push_str(INDENT);
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn blank(&mut self) {
        self.out.push('\n');
    }

    fn decl(&mut self, decl: &Decl) {
        if self.emit && self.emit_decl(decl) {
            return;
        }
        match decl {
            Decl::Type(d) => self.type_decl(d),
            Decl::Datatype(d) => self.datatype_decl(d),
            Decl::Const(d) => self.const_decl(d),
            Decl::Function(d) => self.function_decl(d),
            Decl::Axiom(d) => self.line(0, &axiom_text(d)),
            Decl::Var(d) => self.global_var_decl(d),
            Decl::Procedure(d) => self.procedure_decl(d),
            Decl::Implementation(d) => self.implementation_decl(d),
            Decl::YieldInvariant(d) => self.yield_invariant_decl(d),
            Decl::Action(d) => self.action_decl(d),
            Decl::YieldProcedure(d) => self.yield_procedure_decl(d),
        }
    }

    /// `type {:attrs} C a b;` or `type {:attrs} S a = T;`
    fn type_decl(&mut self, d: &TypeDecl) {
        let mut text = format!("type {}{}", attrs_prefix(&d.attrs), ident(&d.name.name));
        for param in &d.params {
            text.push(' ');
            text.push_str(&ident(&param.name));
        }
        if let Some(synonym) = &d.synonym {
            text.push_str(" = ");
            write_type(&mut text, synonym);
        }
        text.push(';');
        self.line(0, &text);
    }

    /// `datatype {:attrs} D<a> {` then one constructor a line, then `}`.
    fn datatype_decl(&mut self, d: &DatatypeDecl) {
        let mut header = format!("datatype {}{}", attrs_prefix(&d.attrs), ident(&d.name.name));
        if !d.type_params.is_empty() {
            header.push('<');
            header.push_str(&idents(&d.type_params));
            header.push('>');
        }
        header.push_str(" {");
        self.line(0, &header);
        for (i, ctor) in d.ctors.iter().enumerate() {
            let separator = if i + 1 < d.ctors.len() { "," } else { "" };
            let text = format!("{}({}){separator}", ident(&ctor.name.name), var_groups(&ctor.fields));
            self.line(1, &text);
        }
        self.line(0, "}");
    }

    /// `const {:attrs} unique x, y: T extends unique p, q complete;` or `... uses { axioms }`
    fn const_decl(&mut self, d: &ConstDecl) {
        let mut text = format!("const {}", attrs_prefix(&d.attrs));
        if d.unique {
            text.push_str("unique ");
        }
        text.push_str(&idents(&d.names));
        text.push_str(": ");
        write_type(&mut text, &d.ty);
        if let Some(order) = &d.order {
            text.push_str(" extends");
            for (i, (unique, parent)) in order.parents.iter().enumerate() {
                text.push_str(if i == 0 { " " } else { ", " });
                if *unique {
                    text.push_str("unique ");
                }
                text.push_str(&ident(&parent.name));
            }
            if order.complete {
                text.push_str(" complete");
            }
        }
        match &d.uses {
            None => {
                text.push(';');
                self.line(0, &text);
            }
            Some(axioms) => {
                self.line(0, &text);
                self.uses(axioms);
            }
        }
    }

    /// `uses {` then the axioms indented, then `}`.
    fn uses(&mut self, axioms: &[AxiomDecl]) {
        self.line(0, "uses {");
        for axiom in axioms {
            self.line(1, &axiom_text(axiom));
        }
        self.line(0, "}");
    }

    /// `revealed function {:attrs} f<a>(x: int) : int;`, or with `{ body }` and `uses { }`
    fn function_decl(&mut self, d: &FunctionDecl) {
        let mut text = function_head(d);
        if d.returns_form {
            text.push_str(" returns (");
            write_fn_param(&mut text, &d.result);
            text.push(')');
        } else {
            text.push_str(" : ");
            write_type(&mut text, &d.result.ty);
        }
        if d.body.is_none() && d.uses.is_none() {
            text.push(';');
        }
        self.line(0, &text);
        if let Some(body) = &d.body {
            self.line(0, "{");
            self.line(1, &print_expr(body));
            self.line(0, "}");
        }
        if let Some(axioms) = &d.uses {
            self.uses(axioms);
        }
    }

    /// `var {:attrs} x: int, y: bool where e;`
    fn global_var_decl(&mut self, d: &GlobalVarDecl) {
        let text = format!("var {}{};", attrs_prefix(&d.attrs), var_groups(&d.groups));
        self.line(0, &text);
    }

    /// `pure procedure {:attrs} P<a>(ins) returns (outs);` then the specs indented; with a
    /// body, no `;`: the specs, then `{ body }`.
    fn procedure_decl(&mut self, d: &ProcedureDecl) {
        let keyword = if d.pure { "pure procedure" } else { "procedure" };
        let header = format!(
            "{keyword} {}{}{}",
            attrs_prefix(&d.attrs),
            ident(&d.name.name),
            signature(&d.type_params, &d.ins, &d.outs)
        );
        let specs: Vec<String> = d.specs.iter().map(spec_text).collect();
        self.callable(header, &specs, d.body.as_ref());
    }

    fn implementation_decl(&mut self, d: &ImplementationDecl) {
        let header = format!(
            "implementation {}{}{}",
            attrs_prefix(&d.attrs),
            mark_text(d.span) + &mark_text(d.name.span) + &ident(&d.name.name),
            signature(&d.type_params, &d.ins, &d.outs)
        );
        self.line(0, &header);
        if self.emit && self.where_comments {
            let groups = d.body.locals.iter().flat_map(|l| l.groups.iter());
            self.wheres = groups
                .filter_map(|g| g.where_clause.as_ref().map(|w| (g, print_expr(w))))
                .flat_map(|(g, w)| g.names.iter().map(move |n| (n.name, w.clone())))
                .collect();
        }
        self.body(0, &d.body);
        self.wheres.clear();
    }

    /// `[yield] invariant {:attrs} Name(formals);` then `preserves e;` lines.
    fn yield_invariant_decl(&mut self, d: &YieldInvariantDecl) {
        let keyword = if d.is_yield { "yield invariant" } else { "invariant" };
        let header = format!("{keyword} {}{}({});", attrs_prefix(&d.attrs), ident(&d.name.name), var_groups(&d.params));
        self.line(0, &header);
        for (attrs, expr, _) in &d.preserves {
            let mut text = String::new();
            predicate(&mut text, "preserves", attrs, expr);
            text.push(';');
            self.line(1, &text);
        }
    }

    /// `pure left action {:attrs} A(ins) returns (outs)` then specs and `;` or a body.
    fn action_decl(&mut self, d: &ActionDecl) {
        let pure = if d.pure { "pure " } else { "" };
        let header = format!(
            "{pure}{}action {}{}{}",
            mover_prefix(d.mover),
            attrs_prefix(&d.attrs),
            ident(&d.name.name),
            signature(&[], &d.ins, &d.outs)
        );
        let specs: Vec<String> = d.specs.iter().map(action_spec_text).collect();
        self.callable(header, &specs, d.body.as_ref());
    }

    /// `yield left procedure {:attrs} P(ins) returns (outs)` then specs and `;` or a body.
    fn yield_procedure_decl(&mut self, d: &YieldProcedureDecl) {
        let header = format!(
            "yield {}procedure {}{}{}",
            mover_prefix(d.mover),
            attrs_prefix(&d.attrs),
            ident(&d.name.name),
            signature(&[], &d.ins, &d.outs)
        );
        match &d.body {
            None => self.line(0, &format!("{header};")),
            Some(_) => self.line(0, &header),
        }
        for spec in &d.specs {
            self.yield_spec(spec);
        }
        if let Some(body) = &d.body {
            self.body(0, body);
        }
    }

    fn yield_spec(&mut self, spec: &YieldSpec) {
        match spec {
            YieldSpec::Refines { attrs, name, span: _ } => {
                self.line(1, &format!("refines {}{};", attrs_prefix(attrs), ident(&name.name)));
            }
            YieldSpec::RefinesInline { attrs, mover, action_attrs, name, body, span: _ } => {
                let text = format!(
                    "refines {}{}action {}{}",
                    attrs_prefix(attrs),
                    mover_prefix(*mover),
                    attrs_prefix(action_attrs),
                    ident(&name.name)
                );
                self.line(1, &text);
                self.body(1, body);
            }
            YieldSpec::Requires { body, span: _ } => self.line(1, &yield_clause("requires", body)),
            YieldSpec::Preserves { body, span: _ } => self.line(1, &yield_clause("preserves", body)),
            YieldSpec::Ensures { body, span: _ } => self.line(1, &yield_clause("ensures", body)),
            YieldSpec::Measure { attrs, exprs, span: _ } => {
                let mut text = format!("measure {}", attrs_prefix(attrs));
                write_exprs(&mut text, exprs);
                text.push(';');
                self.line(1, &text);
            }
            YieldSpec::Modifies { vars, span: _ } => self.line(1, &modifies_text(vars)),
        }
    }

    /// A procedure-like declaration: `header;` then the specs, or, with a body, the header,
    /// the specs and the body (Boogie's grammar puts no `;` before a body).
    fn callable(&mut self, header: String, specs: &[String], body: Option<&Body>) {
        match body {
            None => self.line(0, &format!("{header};")),
            Some(_) => self.line(0, &header),
        }
        for spec in specs {
            self.line(1, spec);
        }
        if let Some(body) = body {
            self.body(0, body);
        }
    }

    /// `{`, the locals, a blank line, the statements one level in, `}`.
    fn body(&mut self, level: usize, body: &Body) {
        self.line(level, "{");
        for decl in &body.locals {
            if self.emit {
                for text in emit_vars("var", &decl.attrs, &decl.groups) {
                    self.line(level + 1, &text);
                }
            } else {
                self.line(level + 1, &local_vars_text(decl));
            }
        }
        let blank = if self.emit && !self.blocks {
            !body.locals.is_empty()
        } else {
            (self.emit || !body.locals.is_empty()) && !is_empty_stmt_list(&body.stmts)
        };
        if blank {
            self.blank();
        }
        self.stmt_list(level + 1, &body.stmts);
        self.line(level, "}");
    }

    /// The big blocks, without braces: labels at `level`, commands one level further in, and
    /// a blank line before each label but the first.
    fn stmt_list(&mut self, level: usize, list: &StmtList) {
        // Boogie's `StmtList.Emit` separates every two big blocks by a blank line.
        let structured = self.emit && !self.blocks;
        for (i, block) in list.blocks.iter().enumerate() {
            if i > 0 && (block.label.is_some() || structured) {
                self.blank();
            }
            self.big_block(level, block);
        }
    }

    fn big_block(&mut self, level: usize, block: &BigBlock) {
        if let Some(label) = &block.label {
            // `Block.Emit` moves the block's token before the indentation.
            if self.blocks {
                crate::moved::mark_block(&mut self.out, block.span);
                crate::moved::mark_block(&mut self.out, label.span);
            }
            // Boogie's `Block.Emit` marks the loop heads abstract interpretation found.
            let cut_point = block.cmds.first().is_some_and(|c| match &c.kind {
                CmdKind::Assume { attrs, .. } | CmdKind::Assert { attrs, .. } => {
                    attrs.iter().any(|a| a.key == crate::passes::infer::CUT_POINT)
                }
                _ => false,
            });
            let note = if cut_point && self.blocks { "  // cut point" } else { "" };
            self.line(level, &format!("{}:{note}", ident(&label.name)));
        }
        for cmd in &block.cmds {
            let text = match &cmd.kind {
                CmdKind::Havoc { vars } if !self.wheres.is_empty() => {
                    mark_text(cmd.span) + &self.havoc_with_wheres(vars)
                }
                _ => cmd_text(cmd),
            };
            self.line(level + 1, &text);
        }
        match &block.tail {
            None => {}
            Some(BlockTail::If(if_cmd)) => self.if_cmd(level + 1, if_cmd),
            Some(BlockTail::While(while_cmd)) => self.while_cmd(level + 1, while_cmd),
            Some(BlockTail::Break { label, span: _ }) => {
                let text = match label {
                    Some(label) => format!("break {};", ident(&label.name)),
                    None => "break;".to_string(),
                };
                self.line(level + 1, &text);
            }
            Some(BlockTail::Goto { attrs, targets, span }) => {
                let text = format!("{}goto {}{};", mark_text(*span), attrs_prefix(attrs), idents(targets));
                self.line(level + 1, &text);
            }
            Some(BlockTail::Return { attrs, span }) => {
                // `ReturnCmd.Emit` moves its token before the indentation.
                mark(&mut self.out, *span);
                let text = format!("return{};", attrs_suffix(attrs));
                self.line(level + 1, &text);
            }
        }
    }

    /// `havoc x /* where x > 0 */, y;` (Boogie's `Emit` of a resolved havoc).
    fn havoc_with_wheres(&self, vars: &[Ident]) -> String {
        let named = vars.iter().map(|v| match self.wheres.iter().find(|(n, _)| *n == v.name) {
            Some((_, w)) => format!("{} /* where {w} */", ident(&v.name)),
            None => ident(&v.name).into_owned(),
        });
        format!("havoc {};", named.collect::<Vec<_>>().join(", "))
    }

    /// `if {:attrs} (g)` / `{` / then / `}` / `else if (h)` ... / `else` / `{` / else / `}`
    fn if_cmd(&mut self, level: usize, if_cmd: &IfCmd) {
        let mut current = if_cmd;
        let mut keyword = "if";
        loop {
            let text = format!("{keyword} {}({})", attrs_prefix(&current.attrs), guard(&current.guard));
            self.line(level, &text);
            self.braced(level, &current.then);
            match &current.els {
                None => break,
                Some(ElseBranch::If(next)) => {
                    current = next;
                    keyword = "else if";
                }
                Some(ElseBranch::Block(els)) => {
                    self.line(level, "else");
                    self.braced(level, els);
                    break;
                }
            }
        }
    }

    /// `while (g)`, each loop spec one level in, then the body in braces.
    fn while_cmd(&mut self, level: usize, while_cmd: &WhileCmd) {
        self.line(level, &format!("while ({})", guard(&while_cmd.guard)));
        for spec in &while_cmd.invariants {
            let text = match spec {
                LoopSpec::Invariant { free, attrs, expr, span: _ } => {
                    let keyword = if *free { "free invariant" } else { "invariant" };
                    let mut text = String::new();
                    predicate(&mut text, keyword, attrs, expr);
                    text.push(';');
                    text
                }
                LoopSpec::YieldInvariant { attrs, call, span: _ } => {
                    let mut text = format!("invariant {}", attrs_prefix(attrs));
                    write_call(&mut text, call);
                    text.push(';');
                    text
                }
                LoopSpec::Measure { attrs, exprs, span: _ } => {
                    let mut text = format!("measure {}", attrs_prefix(attrs));
                    write_exprs(&mut text, exprs);
                    text.push(';');
                    text
                }
            };
            self.line(level + 1, &text);
        }
        self.braced(level, &while_cmd.body);
    }

    fn braced(&mut self, level: usize, list: &StmtList) {
        self.line(level, "{");
        self.stmt_list(level + 1, list);
        self.line(level, "}");
    }
}

/// Boogie's `Emit` of declarations (under [`PrintOptions::emit`]).
impl Printer {
    /// Prints `decl` as Boogie holds and prints it; false for the declarations Boogie prints
    /// as the round-trip printer does.
    fn emit_decl(&mut self, decl: &Decl) -> bool {
        match decl {
            Decl::Type(d) => {
                let mut text = mark_text(d.span) + &mark_text(d.name.span);
                text += &format!("type {}{}", attrs_prefix(&d.attrs), ident(&d.name.name));
                match &d.synonym {
                    // `TypeCtorDecl.Emit` writes the arity only.
                    None => d.params.iter().for_each(|_| text.push_str(" _")),
                    Some(synonym) => {
                        for param in &d.params {
                            text.push(' ');
                            text.push_str(&ident(&param.name));
                        }
                        text.push_str(" = ");
                        write_type(&mut text, synonym);
                    }
                }
                text.push(';');
                self.line(0, &text);
            }
            Decl::Const(d) => {
                for (i, name) in d.names.iter().enumerate() {
                    if i > 0 {
                        self.blank();
                    }
                    let unique = if d.unique { "unique " } else { "" };
                    // `Constant.Emit` moves the constant's token to `const`.
                    let mut text = mark_text(name.span);
                    if i == 0 {
                        mark(&mut text, d.span);
                    }
                    text += &format!("const {}{unique}{}: ", attrs_prefix(&d.attrs), ident(&name.name));
                    write_type(&mut text, &d.ty);
                    match &d.uses {
                        Some(axioms) if !axioms.is_empty() => {
                            self.line(0, &text);
                            self.emit_uses(axioms.iter().map(axiom_text));
                        }
                        _ => self.line(0, &format!("{text};")),
                    }
                }
            }
            Decl::Var(d) => {
                for (i, text) in emit_vars("var", &d.attrs, &d.groups).iter().enumerate() {
                    if i > 0 {
                        self.blank();
                    }
                    self.line(0, text);
                }
            }
            Decl::Function(d) => self.emit_function(d),
            Decl::Procedure(d) => {
                let keyword = if d.pure { "pure procedure" } else { "procedure" };
                let sig = signature(&d.type_params, &d.ins, &d.outs);
                // `Procedure.Emit` moves the token twice: to `procedure`, then to the name.
                let name = mark_text(d.span) + &mark_text(d.name.span) + &ident(&d.name.name);
                self.line(0, &format!("{keyword} {}{name}{sig};", attrs_prefix(&d.attrs)));
                for spec in emit_specs(&d.specs) {
                    self.line(1, &spec);
                }
                if let Some(body) = &d.body {
                    self.blank();
                    self.blank();
                    self.blank();
                    // The implementation Boogie's parser makes of the body: the procedure's
                    // attributes, its formals without where clauses.
                    let strip = |groups: &[VarGroup]| -> Vec<VarGroup> {
                        groups.iter().map(|g| VarGroup { where_clause: None, ..g.clone() }).collect()
                    };
                    let sig = signature(&d.type_params, &strip(&d.ins), &strip(&d.outs));
                    self.line(0, &format!("implementation {}{}{sig}", attrs_prefix(&d.attrs), ident(&d.name.name)));
                    self.body(0, body);
                }
            }
            _ => return false,
        }
        true
    }

    /// `Function.Emit`: `function {:attrs} f(x: int) : T`, then the body Boogie keeps (of an
    /// `{:inline}` or `{:define}` function) in braces, or `;`, then its definition axioms in
    /// `uses { }`: a body of any other function is one (Boogie's `CreateDefinitionAxiom`).
    fn emit_function(&mut self, d: &FunctionDecl) {
        let mut text = function_head(d);
        text.push_str(" : ");
        write_type(&mut text, &d.result.ty);
        let kept_body = d.body.as_ref().filter(|_| bool_attr(&d.attrs, "inline") || bool_attr(&d.attrs, "define"));
        let mut axioms: Vec<String> = Vec::new();
        if let (Some(body), None) = (&d.body, kept_body) {
            axioms.push(format!("axiom {};", print_expr(&definition_axiom(d, body))));
        }
        axioms.extend(d.uses.iter().flat_map(|uses| uses.iter().map(axiom_text)));
        match kept_body {
            Some(body) => {
                self.line(0, &text);
                self.line(0, "{");
                self.line(1, &print_expr(body));
                self.line(0, "}");
                if !axioms.is_empty() {
                    self.blank();
                }
            }
            None if axioms.is_empty() => text.push(';'),
            None => {}
        }
        if kept_body.is_none() {
            self.line(0, &text);
        }
        if !axioms.is_empty() {
            self.emit_uses(axioms.into_iter());
        }
    }

    /// `uses {`, the axioms at the declaration's level, `}`.
    fn emit_uses(&mut self, axioms: impl Iterator<Item = String>) {
        self.line(0, "uses {");
        for axiom in axioms {
            self.line(0, &axiom);
        }
        self.line(0, "}");
    }
}

/// `revealed function {:attrs} f<a>(x: int)`: a function declaration up to its result.
fn function_head(d: &FunctionDecl) -> String {
    let mut text = String::new();
    if d.revealed {
        text.push_str("revealed ");
    }
    mark(&mut text, d.span);
    mark(&mut text, d.name.span);
    text.push_str("function ");
    text.push_str(&attrs_prefix(&d.attrs));
    text.push_str(&ident(&d.name.name));
    write_type_params(&mut text, &d.type_params);
    text.push('(');
    text.push_str(&join(&d.params, ", ", write_fn_param));
    text.push(')');
    text
}

/// `<a, b>` (Boogie's `Emit`: `<a,b>`), nothing when there are none.
fn write_type_params(out: &mut String, params: &[Ident]) {
    if crate::emit::active() {
        crate::emit::type_params(out, params);
    } else if !params.is_empty() {
        out.push('<');
        out.push_str(&idents(params));
        out.push('>');
    }
}

/// Whether `attrs` has `{:key}` or `{:key true}` (Boogie's `FindBoolAttribute`).
fn bool_attr(attrs: &[Attribute], key: &str) -> bool {
    attrs.iter().any(|a| {
        a.key == key
            && match &a.params[..] {
                [] => true,
                [AttrParam::Expr(e)] => matches!(e.kind, ExprKind::BoolLit(true)),
                _ => false,
            }
    })
}

/// `Function.CreateDefinitionAxiom`: `(forall<a> x: T :: {:attrs} { f(x): R } f(x): R == body)`,
/// the function's attributes on the quantifier, unnamed formals named `_i`; without formals
/// and type parameters, the equation alone.
fn definition_axiom(d: &FunctionDecl, body: &Expr) -> Expr {
    let at = |kind: ExprKind| Expr { kind, span: d.name.span, id: crate::ast::NodeId::NONE };
    let names: Vec<Ident> = d
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| p.name.unwrap_or(Ident::at(crate::ast::Symbol::intern(&format!("_{i}")), p.span)))
        .collect();
    let args = names.iter().map(|n| at(ExprKind::Var(*n))).collect();
    let call = at(ExprKind::Call { func: d.name.name, args });
    let call = at(ExprKind::Coerce { arg: Box::new(call), ty: Box::new(d.result.ty.clone()) });
    let equation = at(ExprKind::Binary { op: BinaryOp::Eq, lhs: Box::new(call.clone()), rhs: Box::new(body.clone()) });
    if d.params.is_empty() && d.type_params.is_empty() {
        return equation;
    }
    let vars = names
        .iter()
        .zip(&d.params)
        .map(|(n, p)| VarGroup {
            attrs: Box::new([]),
            names: Box::new([*n]),
            ty: p.ty.clone(),
            where_clause: None,
            span: p.span,
        })
        .collect();
    at(ExprKind::Quant(Box::new(Quantifier {
        kind: QuantKind::Forall,
        type_params: d.type_params.clone(),
        vars,
        attrs: d.attrs.clone(),
        triggers: Box::new([Trigger { positive: true, exprs: Box::new([call]), span: d.name.span }]),
        body: equation,
    })))
}

/// `Variable.Emit` for each variable of the groups: `var {:attrs} x: T where e;`.
fn emit_vars(keyword: &str, attrs: &[Attribute], groups: &[VarGroup]) -> Vec<String> {
    let mut lines = Vec::new();
    for group in groups {
        for name in &group.names {
            let mut one = group.clone();
            one.names = Box::new([*name]);
            one.attrs = attrs.iter().chain(group.attrs.iter()).cloned().collect();
            // `Variable.Emit` moves the variable's token to the keyword.
            let mut text = mark_text(name.span) + keyword + " ";
            crate::emit::var_group(&mut text, &one, true);
            text.push(';');
            lines.push(text);
        }
    }
    lines
}

/// A procedure's specifications in Boogie's order: requires, one `modifies` for all, ensures,
/// measures.
fn emit_specs(specs: &[Spec]) -> Vec<String> {
    let mut lines: Vec<String> = specs.iter().filter(|s| matches!(s, Spec::Requires { .. })).map(spec_text).collect();
    let modified: Vec<Ident> = specs
        .iter()
        .flat_map(|s| if let Spec::Modifies { vars, .. } = s { vars.to_vec() } else { Vec::new() })
        .collect();
    if !modified.is_empty() {
        lines.push(modifies_text(&modified));
    }
    lines.extend(specs.iter().filter(|s| matches!(s, Spec::Ensures { .. })).map(spec_text));
    lines.extend(specs.iter().filter(|s| matches!(s, Spec::Measure { .. })).map(spec_text));
    lines
}

fn guard(guard: &Option<Expr>) -> String {
    guard.as_ref().map(print_expr).unwrap_or_else(|| "*".to_string())
}

/// The attributes, each preceded by a space (for `return {:attrs};`).
fn attrs_suffix(attrs: &[Attribute]) -> String {
    let mut out = String::new();
    for attr in attrs {
        out.push(' ');
        write_attribute(&mut out, attr);
    }
    out
}

/// The parser's form of `{ }`: one big block with nothing in it.
fn is_empty_stmt_list(list: &StmtList) -> bool {
    list.blocks.iter().all(|b| b.label.is_none() && b.cmds.is_empty() && b.tail.is_none())
}

fn axiom_text(d: &AxiomDecl) -> String {
    let hideable = if d.hideable { "hideable " } else { "" };
    format!("{}{hideable}axiom {}{};", mark_text(d.span), attrs_prefix(&d.attrs), print_expr(&d.expr))
}

fn modifies_text(vars: &[Ident]) -> String {
    if vars.is_empty() { "modifies;".to_string() } else { format!("modifies {};", idents(vars)) }
}

fn spec_text(spec: &Spec) -> String {
    let free = |free: bool| if free { "free " } else { "" };
    let mut text = String::new();
    match spec {
        Spec::Requires { free: is_free, attrs, expr, span } => {
            mark(&mut text, *span);
            text.push_str(free(*is_free));
            predicate(&mut text, "requires", attrs, expr);
        }
        Spec::Ensures { free: is_free, attrs, expr, span } => {
            mark(&mut text, *span);
            text.push_str(free(*is_free));
            predicate(&mut text, "ensures", attrs, expr);
        }
        Spec::Modifies { vars, span: _ } => return modifies_text(vars),
        Spec::Measure { free: is_free, attrs, exprs, span: _ } => {
            text.push_str(free(*is_free));
            text.push_str("measure ");
            text.push_str(&attrs_prefix(attrs));
            write_exprs(&mut text, exprs);
        }
    }
    text.push(';');
    text
}

fn action_spec_text(spec: &ActionSpec) -> String {
    match spec {
        ActionSpec::Refines { attrs, name, span: _ } => {
            format!("refines {}{};", attrs_prefix(attrs), ident(&name.name))
        }
        ActionSpec::Modifies { vars, span: _ } => modifies_text(vars),
        ActionSpec::Requires { body, span: _ } => yield_clause("requires", body),
        ActionSpec::Asserts { attrs, expr, span: _ } => {
            format!("asserts {}{};", attrs_prefix(attrs), print_expr(expr))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{CodeExpr, Symbol};
    use crate::ast::{Constructor, IfCmd, LocalVars, OrderSpec, RoundingMode, Span};
    use pretty_assertions::assert_eq;

    fn id(name: &str) -> Ident {
        Ident::at(Symbol::intern(name), Span::default())
    }
    fn ex(kind: ExprKind) -> Expr {
        Expr { kind, span: Span::default(), id: crate::ast::NodeId::NONE }
    }
    fn v(name: &str) -> Expr {
        ex(ExprKind::Var(id(name)))
    }
    fn int(text: &str) -> Expr {
        ex(ExprKind::IntLit(Symbol::intern(text)))
    }
    fn bin(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
        ex(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) })
    }
    fn un(op: UnaryOp, arg: Expr) -> Expr {
        ex(ExprKind::Unary { op, arg: Box::new(arg) })
    }
    fn call(func: &str, args: Box<[Expr]>) -> Expr {
        ex(ExprKind::Call { func: func.into(), args })
    }
    fn ite(cond: Expr, then: Expr, els: Expr) -> Expr {
        ex(ExprKind::IfThenElse { cond: Box::new(cond), then: Box::new(then), els: Box::new(els) })
    }
    fn ty(kind: TypeKind) -> Type {
        Type::new(kind, Span::default())
    }
    fn named(name: &str, args: Box<[Type]>) -> Type {
        ty(TypeKind::Named { name: id(name), args })
    }
    fn int_ty() -> Type {
        ty(TypeKind::Int)
    }
    fn coerce(arg: Expr, t: Type) -> Expr {
        ex(ExprKind::Coerce { arg: Box::new(arg), ty: Box::new(t) })
    }
    fn group(names: &[&str], t: Type) -> VarGroup {
        VarGroup {
            attrs: Box::new([]),
            names: names.iter().map(|n| id(n)).collect(),
            ty: t,
            where_clause: None,
            span: Span::default(),
        }
    }
    fn attr(key: &str, params: Box<[AttrParam]>) -> Attribute {
        Attribute { key: Symbol::intern(key), params, span: Span::default() }
    }
    fn cmd(kind: CmdKind) -> Cmd {
        Cmd { kind, span: Span::default() }
    }
    fn assert_cmd(e: Expr) -> Cmd {
        cmd(CmdKind::Assert { attrs: Box::new([]), expr: e })
    }
    fn block(label: Option<&str>, cmds: Box<[Cmd]>, tail: Option<BlockTail>) -> BigBlock {
        BigBlock { label: label.map(id), cmds, tail, span: Span::default() }
    }
    fn stmts(blocks: Box<[BigBlock]>) -> StmtList {
        StmtList { blocks, end: Span::default() }
    }
    fn p(e: &Expr) -> String {
        print_expr(e)
    }

    use BinaryOp::*;

    #[test]
    fn arithmetic_associativity() {
        assert_eq!(p(&bin(Add, bin(Mul, v("a"), v("b")), v("c"))), "a * b + c");
        assert_eq!(p(&bin(Mul, bin(Add, v("a"), v("b")), v("c"))), "(a + b) * c");
        assert_eq!(p(&bin(Sub, bin(Sub, v("a"), v("b")), v("c"))), "a - b - c");
        assert_eq!(p(&bin(Sub, v("a"), bin(Sub, v("b"), v("c")))), "a - (b - c)");
        assert_eq!(p(&bin(Div, v("a"), bin(Mod, v("b"), v("c")))), "a div (b mod c)");
        assert_eq!(p(&bin(Pow, v("a"), bin(Pow, v("b"), v("c")))), "a ** b ** c");
        assert_eq!(p(&bin(Pow, bin(Pow, v("a"), v("b")), v("c"))), "(a ** b) ** c");
        assert_eq!(p(&bin(RealDiv, v("a"), bin(Pow, v("b"), v("c")))), "a / b ** c");
    }

    #[test]
    fn logical_associativity() {
        assert_eq!(p(&bin(Imp, v("a"), bin(Imp, v("b"), v("c")))), "a ==> b ==> c");
        assert_eq!(p(&bin(Imp, bin(Imp, v("a"), v("b")), v("c"))), "(a ==> b) ==> c");
        assert_eq!(p(&bin(Iff, bin(Iff, v("a"), v("b")), v("c"))), "a <==> b <==> c");
        assert_eq!(p(&bin(Iff, v("a"), bin(Iff, v("b"), v("c")))), "a <==> (b <==> c)");
        assert_eq!(p(&bin(Imp, v("a"), bin(Iff, v("b"), v("c")))), "a ==> (b <==> c)");
        assert_eq!(p(&bin(And, bin(And, v("a"), v("b")), v("c"))), "a && b && c");
        assert_eq!(p(&bin(And, v("a"), bin(And, v("b"), v("c")))), "a && (b && c)");
        assert_eq!(p(&bin(And, bin(Or, v("a"), v("b")), v("c"))), "(a || b) && c");
        assert_eq!(p(&bin(Or, v("a"), bin(And, v("b"), v("c")))), "a || (b && c)");
        assert_eq!(p(&bin(Or, bin(Imp, v("a"), v("b")), v("c"))), "(a ==> b) || c");
    }

    #[test]
    fn relations_do_not_chain() {
        assert_eq!(p(&bin(Lt, bin(Lt, v("a"), v("b")), v("c"))), "(a < b) < c");
        assert_eq!(p(&bin(Eq, v("a"), bin(Eq, v("b"), v("c")))), "a == (b == c)");
        assert_eq!(p(&bin(Eq, bin(Add, v("a"), v("b")), v("c"))), "a + b == c");
        assert_eq!(p(&bin(And, bin(Le, v("a"), v("b")), bin(Subtype, v("c"), v("d")))), "a <= b && c <: d");
    }

    #[test]
    fn concat_sits_between_relations_and_addition() {
        let concat = |l, r| ex(ExprKind::BvConcat { lhs: Box::new(l), rhs: Box::new(r) });
        assert_eq!(p(&concat(concat(v("a"), v("b")), v("c"))), "a ++ b ++ c");
        assert_eq!(p(&concat(v("a"), concat(v("b"), v("c")))), "a ++ (b ++ c)");
        assert_eq!(p(&concat(bin(Add, v("a"), v("b")), v("c"))), "a + b ++ c");
        assert_eq!(p(&bin(Add, concat(v("a"), v("b")), v("c"))), "(a ++ b) + c");
        assert_eq!(p(&bin(Neq, concat(v("a"), v("b")), v("c"))), "a ++ b != c");
    }

    #[test]
    fn unary_operators() {
        assert_eq!(p(&un(UnaryOp::Neg, int("5"))), "-5");
        assert_eq!(p(&un(UnaryOp::Neg, un(UnaryOp::Neg, v("x")))), "-(-x)");
        assert_eq!(p(&un(UnaryOp::Neg, un(UnaryOp::Neg, un(UnaryOp::Neg, v("x"))))), "-(-(-x))");
        assert_eq!(p(&un(UnaryOp::Not, un(UnaryOp::Not, v("x")))), "!!x");
        assert_eq!(p(&un(UnaryOp::Not, un(UnaryOp::Neg, v("x")))), "!-x");
        assert_eq!(p(&un(UnaryOp::Neg, un(UnaryOp::Not, v("x")))), "-!x");
        assert_eq!(p(&un(UnaryOp::Neg, bin(Add, v("a"), v("b")))), "-(a + b)");
        assert_eq!(p(&bin(Sub, v("a"), un(UnaryOp::Neg, v("b")))), "a - -b");
        let float = |text: &str| ex(ExprKind::FloatLit(Symbol::intern(text)));
        assert_eq!(p(&un(UnaryOp::Neg, float("0x1.0e0f24e8"))), "-(0x1.0e0f24e8)");
        assert_eq!(p(&un(UnaryOp::Neg, float("-0x1.0e0f24e8"))), "-(-0x1.0e0f24e8)");
        let select = ex(ExprKind::Select { map: Box::new(float("0x1.0e0f24e8")), indexes: Box::new([v("i")]) });
        assert_eq!(p(&un(UnaryOp::Neg, select)), "-(0x1.0e0f24e8[i])");
        assert_eq!(p(&bin(Mul, un(UnaryOp::Neg, v("a")), v("b"))), "-a * b");
    }

    #[test]
    fn is_and_coercion() {
        let is = |arg, ctor: &str| ex(ExprKind::Is { arg: Box::new(arg), ctor: id(ctor) });
        assert_eq!(p(&is(v("x"), "Nil")), "x is Nil");
        assert_eq!(p(&is(bin(Add, v("a"), v("b")), "C")), "(a + b) is C");
        assert_eq!(p(&is(un(UnaryOp::Neg, v("a")), "C")), "-a is C");
        assert_eq!(p(&un(UnaryOp::Not, is(v("x"), "C"))), "!(x is C)");
        assert_eq!(p(&is(is(v("x"), "C"), "D")), "(x is C) is D");
        assert_eq!(p(&bin(Pow, is(v("x"), "C"), int("2"))), "x is C ** 2");
        assert_eq!(p(&coerce(v("x"), int_ty())), "x : int");
        assert_eq!(p(&bin(Lt, coerce(v("x"), named("C", Box::new([]))), int("0"))), "(x : C) < 0");
        assert_eq!(p(&un(UnaryOp::Not, coerce(v("x"), ty(TypeKind::Bool)))), "!(x : bool)");
        assert_eq!(p(&coerce(coerce(v("x"), int_ty()), int_ty())), "(x : int) : int");
        assert_eq!(p(&coerce(un(UnaryOp::Neg, v("x")), int_ty())), "(-x) : int");
        let bounds = ex(ExprKind::BvBounds { hi: 8, lo: 0 });
        assert_eq!(p(&bounds), "8:0");
        assert_eq!(p(&bin(Add, bounds, int("1"))), "8:0 + 1");
    }

    #[test]
    fn if_then_else_is_parenthesized_as_an_operand() {
        let e = ite(v("c"), v("a"), v("b"));
        assert_eq!(p(&e), "if c then a else b");
        assert_eq!(p(&bin(Add, e.clone(), int("1"))), "(if c then a else b) + 1");
        assert_eq!(p(&bin(Eq, bin(Add, int("1"), e.clone()), int("3"))), "1 + (if c then a else b) == 3");
        assert_eq!(p(&ite(v("c"), e.clone(), e.clone())), "if c then if c then a else b else if c then a else b");
        let select = ex(ExprKind::Select { map: Box::new(e), indexes: Box::new([v("i")]) });
        assert_eq!(p(&select), "(if c then a else b)[i]");
    }

    #[test]
    fn postfix_forms() {
        let m = || Box::new(v("m"));
        let select = ex(ExprKind::Select { map: m(), indexes: Box::new([v("i"), v("j")]) });
        assert_eq!(p(&select), "m[i, j]");
        let store = ex(ExprKind::Store(Box::new(StoreExpr { map: *m(), indexes: Box::new([v("i")]), value: v("x") })));
        assert_eq!(p(&store), "m[i := x]");
        let store0 = ex(ExprKind::Store(Box::new(StoreExpr { map: *m(), indexes: Box::default(), value: v("x") })));
        assert_eq!(p(&store0), "m[:= x]");
        let nested = ex(ExprKind::Select { map: Box::new(select), indexes: Box::default() });
        assert_eq!(p(&nested), "m[i, j][]");
        let extract = ex(ExprKind::Extract { arg: m(), hi: 8, lo: 0 });
        assert_eq!(p(&extract), "m[8:0]");
        let field = ex(ExprKind::Field { arg: m(), field: id("head") });
        assert_eq!(p(&field), "m->head");
        let update = ex(ExprKind::FieldUpdate(Box::new(FieldUpdateExpr {
            arg: field,
            field: id("f"),
            value: bin(Add, v("x"), int("1")),
        })));
        assert_eq!(p(&update), "m->head->(f := x + 1)");
        let of_sum = ex(ExprKind::Field { arg: Box::new(bin(Add, v("a"), v("b"))), field: id("f") });
        assert_eq!(p(&of_sum), "(a + b)->f");
        let of_call =
            ex(ExprKind::Select { map: Box::new(call("f", Box::new([v("x")]))), indexes: Box::new([int("0")]) });
        assert_eq!(p(&of_call), "f(x)[0]");
    }

    #[test]
    fn atoms() {
        assert_eq!(p(&ex(ExprKind::BoolLit(true))), "true");
        assert_eq!(p(&ex(ExprKind::DecLit("1.5e-3".into()))), "1.5e-3");
        assert_eq!(p(&ex(ExprKind::BvLit { value: "5".into(), width: 32 })), "5bv32");
        assert_eq!(p(&ex(ExprKind::StrLit("hi".into()))), "\"hi\"");
        assert_eq!(p(&ex(ExprKind::RoundingMode(RoundingMode::Rtz))), "RTZ");
        assert_eq!(p(&call("f", Box::new([]))), "f()");
        assert_eq!(p(&call("f", Box::new([v("a"), bin(Add, v("b"), int("1"))]))), "f(a, b + 1)");
        assert_eq!(p(&ex(ExprKind::Old(Box::new(bin(Add, v("a"), v("b")))))), "old(a + b)");
        let to_real = ex(ExprKind::Arith { to: ArithCoercion::ToReal, arg: Box::new(v("i")) });
        assert_eq!(p(&to_real), "real(i)");
        let to_int = ex(ExprKind::Arith { to: ArithCoercion::ToInt, arg: Box::new(v("r")) });
        assert_eq!(p(&to_int), "int(r)");
    }

    #[test]
    fn keywords_are_escaped() {
        assert_eq!(p(&v("int")), "\\int");
        assert_eq!(p(&v("left")), "\\left");
        assert_eq!(p(&v("RNE")), "\\RNE");
        assert_eq!(p(&v("x'")), "x'");
        assert_eq!(p(&v("bv32")), "bv32");
        assert_eq!(p(&call("old", Box::new([v("x")]))), "\\old(x)");
        let t = named("type", Box::new([named("where", Box::new([]))]));
        assert_eq!(print_type(&t), "\\type \\where");
        let havoc = cmd(CmdKind::Havoc { vars: Box::new([id("hide"), id("x")]) });
        assert_eq!(cmd_text(&havoc), "havoc \\hide, x;");
        let assign = cmd(CmdKind::Assign {
            lhss: Box::new([AssignLhs::Var(id("pop"))]),
            attrs: Box::new([]),
            rhss: Box::new([int("1")]),
        });
        assert_eq!(cmd_text(&assign), "\\pop := 1;");
    }

    #[test]
    fn quantifiers_and_lets() {
        let q = Quantifier {
            kind: QuantKind::Forall,
            type_params: Box::new([id("a")]),
            vars: Box::new([group(&["x"], int_ty()), group(&["y"], named("a", Box::new([])))]),
            attrs: Box::new([attr("weight", Box::new([AttrParam::Expr(int("2"))]))]),
            triggers: Box::new([
                Trigger {
                    positive: true,
                    exprs: Box::new([call("f", Box::new([v("x")])), v("y")]),
                    span: Span::default(),
                },
                Trigger { positive: false, exprs: Box::new([call("g", Box::new([v("x")]))]), span: Span::default() },
            ]),
            body: bin(Imp, v("p"), v("q")),
        };
        let e = ex(ExprKind::Quant(Box::new(q)));
        assert_eq!(p(&e), "(forall <a> x: int, y: a :: {:weight 2} {f(x), y} {:nopats g(x)} p ==> q)");
        assert_eq!(p(&bin(And, e.clone(), v("r"))), format!("{} && r", p(&e)));
        let lambda = Quantifier {
            kind: QuantKind::Lambda,
            type_params: Box::new([]),
            vars: Box::new([group(&["i", "j"], int_ty())]),
            attrs: Box::new([]),
            triggers: Box::new([]),
            body: bin(Add, v("i"), v("j")),
        };
        let lambda = ex(ExprKind::Quant(Box::new(lambda)));
        assert_eq!(p(&lambda), "(lambda i, j: int :: i + j)");
        let select = ex(ExprKind::Select { map: Box::new(lambda), indexes: Box::new([int("1"), int("2")]) });
        assert_eq!(p(&select), "(lambda i, j: int :: i + j)[1, 2]");
        let let_expr = ex(ExprKind::Let(Box::new(LetExpr {
            vars: Box::new([
                LetVar { attrs: Box::new([]), name: id("x") },
                LetVar { attrs: Box::new([attr("a", Box::new([]))]), name: id("y") },
            ]),
            rhss: Box::new([int("1"), int("2")]),
            attrs: Box::new([attr("b", Box::new([]))]),
            body: bin(Add, v("x"), v("y")),
        })));
        assert_eq!(p(&let_expr), "(var x, {:a} y := 1, 2; {:b} x + y)");
    }

    #[test]
    fn attributes() {
        let a = attr(
            "msg",
            Box::new([
                AttrParam::Str("s".into(), Span::default()),
                AttrParam::Expr(ex(ExprKind::StrLit("t".into()))),
                AttrParam::Expr(bin(Add, v("x"), int("1"))),
            ]),
        );
        let c = cmd(CmdKind::Assert { attrs: Box::new([a, attr("inline", Box::new([]))]), expr: v("b") });
        assert_eq!(cmd_text(&c), "assert {:msg \"s\", (\"t\"), x + 1} {:inline} b;");
    }

    #[test]
    fn code_expression() {
        let blocks = Box::new([
            SpecBlock {
                label: id("A"),
                cmds: Box::new([assert_cmd(bin(Gt, v("x"), int("0")))]),
                transfer: SpecTransfer::Goto {
                    attrs: Box::new([]),
                    targets: Box::new([id("B"), id("C")]),
                    span: Span::default(),
                },
                span: Span::default(),
            },
            SpecBlock {
                label: id("B"),
                cmds: Box::new([]),
                transfer: SpecTransfer::Return { attrs: Box::new([]), value: v("x"), span: Span::default() },
                span: Span::default(),
            },
        ]);
        let locals = Box::new([LocalVars {
            attrs: Box::new([]),
            groups: Box::new([group(&["x"], int_ty())]),
            span: Span::default(),
        }]);
        let e = ex(ExprKind::Code(Box::new(CodeExpr { locals, blocks })));
        assert_eq!(p(&e), "|{ var x: int; A: assert x > 0; goto B, C; B: return x; }|");
    }

    #[test]
    fn types() {
        let map = |tps: &[&str], args, result| {
            ty(TypeKind::Map(Box::new(MapType { type_params: tps.iter().map(|t| id(t)).collect(), args, result })))
        };
        assert_eq!(print_type(&named("C", Box::new([named("a", Box::new([])), int_ty()]))), "C a int");
        assert_eq!(print_type(&named("C", Box::new([named("D", Box::new([named("a", Box::new([]))]))]))), "C (D a)");
        let m = map(&[], Box::new([int_ty()]), int_ty());
        assert_eq!(print_type(&named("C", Box::new([m.clone(), int_ty()]))), "C ([int]int) int");
        let poly = map(
            &["a"],
            Box::new([int_ty(), named("a", Box::new([]))]),
            named("C", Box::new([named("a", Box::new([]))])),
        );
        assert_eq!(print_type(&poly), "<a>[int, a]C a");
        assert_eq!(print_type(&map(&[], Box::new([m.clone()]), m)), "[[int]int][int]int");
        assert_eq!(print_type(&map(&[], Box::new([int_ty()]), poly)), "[int](<a>[int, a]C a)");
    }

    #[test]
    fn commands() {
        let lhs = AssignLhs::Field {
            base: Box::new(AssignLhs::Select {
                base: Box::new(AssignLhs::Select {
                    base: Box::new(AssignLhs::Var(id("m"))),
                    indexes: Box::new([v("i")]),
                    span: Span::default(),
                }),
                indexes: Box::new([v("j"), v("k")]),
                span: Span::default(),
            }),
            field: id("f"),
            span: Span::default(),
        };
        let assign = cmd(CmdKind::Assign {
            lhss: Box::new([AssignLhs::Var(id("x")), lhs]),
            attrs: Box::new([attr("a", Box::new([]))]),
            rhss: Box::new([int("1"), int("2")]),
        });
        assert_eq!(cmd_text(&assign), "x, m[i][j, k]->f := {:a} 1, 2;");
        let unpack = cmd(CmdKind::Unpack {
            ctor: id("Cons"),
            vars: Box::new([id("h"), id("t")]),
            attrs: Box::new([]),
            rhs: Box::new(v("l")),
        });
        assert_eq!(cmd_text(&unpack), "Cons(h, t) := l;");
        let callcmd = |outs: &[&str], callee: &str, is_async, is_free| CallCmd {
            is_async,
            is_free,
            attrs: Box::new([]),
            outs: outs.iter().map(|o| id(o)).collect(),
            callee: id(callee),
            args: Box::new([v("a")]),
            span: Span::default(),
        };
        assert_eq!(
            cmd_text(&cmd(CmdKind::Call(Box::new(callcmd(&["x", "y"], "P", false, false))))),
            "call x, y := P(a);"
        );
        assert_eq!(cmd_text(&cmd(CmdKind::Call(Box::new(callcmd(&[], "P", true, true))))), "async free call P(a);");
        let par = cmd(CmdKind::ParCall {
            calls: Box::new([callcmd(&[], "A", false, false), callcmd(&["r"], "B", false, false)]),
        });
        assert_eq!(cmd_text(&par), "call A(a) | r := B(a);");
        assert_eq!(cmd_text(&cmd(CmdKind::HideReveal { hide: false, name: None })), "reveal *;");
        assert_eq!(cmd_text(&cmd(CmdKind::HideReveal { hide: true, name: Some(id("f")) })), "hide f;");
        assert_eq!(cmd_text(&cmd(CmdKind::ChangeScope { push: true })), "push;");
        let measure = cmd(CmdKind::Measure { attrs: Box::new([]), exprs: Box::new([v("n"), int("0")]) });
        assert_eq!(cmd_text(&measure), "measure n, 0;");
        assert_eq!(cmd_text(&cmd(CmdKind::Assume { attrs: Box::new([]), expr: v("b") })), "assume b;");
    }

    fn program<const N: usize>(decls: Box<[Decl; N]>) -> Program {
        Program { decls: Vec::from(decls as Box<[Decl]>) }
    }

    #[test]
    fn procedure_and_implementation_layout() {
        let proc_decl = ProcedureDecl {
            pure: false,
            attrs: Box::new([attr("inline", Box::new([AttrParam::Expr(int("1"))]))]),
            name: id("P"),
            type_params: Box::new([]),
            ins: Box::new([group(&["x"], int_ty())]),
            outs: Box::new([group(&["r"], int_ty())]),
            specs: Box::new([
                Spec::Requires {
                    free: false,
                    attrs: Box::new([]),
                    expr: bin(Gt, v("x"), int("0")),
                    span: Span::default(),
                },
                Spec::Modifies { vars: Box::new([id("g")]), span: Span::default() },
                Spec::Ensures {
                    free: true,
                    attrs: Box::new([]),
                    expr: bin(Gt, v("r"), int("0")),
                    span: Span::default(),
                },
            ]),
            body: None,
            span: Span::default(),
        };
        let if_cmd = IfCmd {
            attrs: Box::new([]),
            guard: Some(bin(Gt, v("x"), int("0"))),
            then: stmts(Box::new([block(None, Box::new([assert_cmd(v("b"))]), None)])),
            els: Some(ElseBranch::If(Box::new(IfCmd {
                attrs: Box::new([]),
                guard: None,
                then: stmts(Box::new([block(
                    None,
                    Box::new([]),
                    Some(BlockTail::Break { label: Some(id("L")), span: Span::default() }),
                )])),
                els: Some(ElseBranch::Block(stmts(Box::new([block(None, Box::new([]), None)])))),
                span: Span::default(),
            }))),
            span: Span::default(),
        };
        let while_cmd = WhileCmd {
            guard: None,
            invariants: Box::new([
                LoopSpec::Invariant { free: false, attrs: Box::new([]), expr: v("i"), span: Span::default() },
                LoopSpec::Invariant { free: true, attrs: Box::new([]), expr: v("j"), span: Span::default() },
            ]),
            body: stmts(Box::new([block(None, Box::new([]), None)])),
            span: Span::default(),
        };
        let body = Body {
            locals: Box::new([LocalVars {
                attrs: Box::new([]),
                groups: Box::new([group(&["y"], int_ty())]),
                span: Span::default(),
            }]),
            stmts: stmts(Box::new([
                block(Some("L"), Box::new([assert_cmd(v("a"))]), Some(BlockTail::If(Box::new(if_cmd)))),
                block(None, Box::new([]), Some(BlockTail::While(Box::new(while_cmd)))),
                block(
                    Some("M"),
                    Box::new([]),
                    Some(BlockTail::Goto {
                        attrs: Box::new([]),
                        targets: Box::new([id("L"), id("M")]),
                        span: Span::default(),
                    }),
                ),
                block(Some("N"), Box::new([]), Some(BlockTail::Return { attrs: Box::new([]), span: Span::default() })),
            ])),
            span: Span::default(),
        };
        let impl_decl = ImplementationDecl {
            attrs: Box::new([]),
            name: id("P"),
            type_params: Box::new([]),
            ins: Box::new([group(&["x"], int_ty())]),
            outs: Box::new([group(&["r"], int_ty())]),
            body,
            span: Span::default(),
        };
        let text = print_program(
            &program(Box::new([Decl::Procedure(Box::new(proc_decl)), Decl::Implementation(Box::new(impl_decl))])),
            &PrintOptions::default(),
        );
        let expected = "\
procedure {:inline 1} P(x: int) returns (r: int);
  requires x > 0;
  modifies g;
  free ensures r > 0;

implementation P(x: int) returns (r: int)
{
  var y: int;

  L:
    assert a;
    if (x > 0)
    {
        assert b;
    }
    else if (*)
    {
        break L;
    }
    else
    {
    }
    while (*)
      invariant i;
      free invariant j;
    {
    }

  M:
    goto L, M;

  N:
    return;
}
";
        assert_eq!(text, expected);
    }

    #[test]
    fn procedure_with_body_has_no_semicolon() {
        let proc_decl = ProcedureDecl {
            pure: true,
            attrs: Box::new([]),
            name: id("Q"),
            type_params: Box::new([id("T")]),
            ins: Box::new([]),
            outs: Box::new([]),
            specs: Box::new([Spec::Requires { free: false, attrs: Box::new([]), expr: v("b"), span: Span::default() }]),
            body: Some(Body {
                locals: Box::new([]),
                stmts: stmts(Box::new([block(None, Box::new([assert_cmd(v("b"))]), None)])),
                span: Span::default(),
            }),
            span: Span::default(),
        };
        let text = print_program(&program(Box::new([Decl::Procedure(Box::new(proc_decl))])), &PrintOptions::default());
        assert_eq!(text, "pure procedure Q<T>()\n  requires b;\n{\n    assert b;\n}\n");
    }

    #[test]
    fn declarations() {
        let axiom = |e| AxiomDecl { hideable: false, attrs: Box::new([]), expr: e, span: Span::default() };
        let decls = Box::new([
            Decl::Type(Box::new(TypeDecl {
                attrs: Box::new([attr("builtin", Box::new([AttrParam::Str("Seq".into(), Span::default())]))]),
                name: id("Seq"),
                params: Box::new([id("a")]),
                synonym: None,
                span: Span::default(),
            })),
            Decl::Type(Box::new(TypeDecl {
                attrs: Box::new([]),
                name: id("S"),
                params: Box::new([id("a")]),
                synonym: Some(named("Seq", Box::new([named("a", Box::new([]))]))),
                span: Span::default(),
            })),
            Decl::Const(Box::new(ConstDecl {
                attrs: Box::new([]),
                unique: true,
                names: Box::new([id("c"), id("d")]),
                ty: named("T", Box::new([])),
                order: Some(OrderSpec { parents: Box::new([(true, id("p")), (false, id("q"))]), complete: true }),
                uses: None,
                span: Span::default(),
            })),
            Decl::Const(Box::new(ConstDecl {
                attrs: Box::new([]),
                unique: false,
                names: Box::new([id("k")]),
                ty: int_ty(),
                order: Some(OrderSpec { parents: Box::new([]), complete: false }),
                uses: Some(Box::new([axiom(bin(Gt, v("k"), int("0")))])),
                span: Span::default(),
            })),
            Decl::Function(Box::new(FunctionDecl {
                revealed: false,
                attrs: Box::new([]),
                name: id("f"),
                type_params: Box::new([]),
                params: Box::new([
                    FnParam { attrs: Box::new([]), name: Some(id("x")), ty: int_ty(), span: Span::default() },
                    FnParam { attrs: Box::new([]), name: None, ty: ty(TypeKind::Bool), span: Span::default() },
                ]),
                result: FnParam { attrs: Box::new([]), name: None, ty: int_ty(), span: Span::default() },
                returns_form: false,
                body: None,
                uses: None,
                span: Span::default(),
            })),
            Decl::Function(Box::new(FunctionDecl {
                revealed: true,
                attrs: Box::new([]),
                name: id("g"),
                type_params: Box::new([id("a")]),
                params: Box::new([FnParam {
                    attrs: Box::new([]),
                    name: Some(id("x")),
                    ty: named("a", Box::new([])),
                    span: Span::default(),
                }]),
                result: FnParam {
                    attrs: Box::new([]),
                    name: Some(id("r")),
                    ty: named("a", Box::new([])),
                    span: Span::default(),
                },
                returns_form: true,
                body: Some(v("x")),
                uses: Some(Box::new([axiom(ex(ExprKind::BoolLit(true)))])),
                span: Span::default(),
            })),
            Decl::Axiom(Box::new(AxiomDecl {
                hideable: true,
                attrs: Box::new([attr("a", Box::new([]))]),
                expr: v("b"),
                span: Span::default(),
            })),
            Decl::Var(Box::new(GlobalVarDecl {
                attrs: Box::new([]),
                groups: Box::new([
                    group(&["x", "y"], int_ty()),
                    VarGroup { where_clause: Some(Box::new(v("z"))), ..group(&["z"], ty(TypeKind::Bool)) },
                ]),
                span: Span::default(),
            })),
            Decl::Datatype(Box::new(DatatypeDecl {
                attrs: Box::new([]),
                name: id("List"),
                type_params: Box::new([id("a")]),
                ctors: Box::new([
                    Constructor { name: id("Nil"), fields: Box::new([]) },
                    Constructor {
                        name: id("Cons"),
                        fields: Box::new([
                            group(&["head"], named("a", Box::new([]))),
                            group(&["tail"], named("List", Box::new([named("a", Box::new([]))]))),
                        ]),
                    },
                ]),
                span: Span::default(),
            })),
        ]);
        let text = print_program(&program(decls), &PrintOptions::default());
        let expected = "\
type {:builtin \"Seq\"} Seq a;
type S a = Seq a;
const unique c, d: T extends unique p, q complete;
const k: int extends
uses {
  axiom k > 0;
}

function f(x: int, bool) : int;
revealed function g<a>(x: a) returns (r: a)
{
  x
}
uses {
  axiom true;
}

hideable axiom {:a} b;
var x, y: int, z: bool where z;
datatype List<a> {
  Nil(),
  Cons(head: a, tail: List a)
}
";
        assert_eq!(text, expected);
    }

    #[test]
    fn pretty_separates_kinds() {
        let var = |name: &str| {
            Decl::Var(Box::new(GlobalVarDecl {
                attrs: Box::new([]),
                groups: Box::new([group(&[name], int_ty())]),
                span: Span::default(),
            }))
        };
        let axiom = Decl::Axiom(Box::new(AxiomDecl {
            hideable: false,
            attrs: Box::new([]),
            expr: v("x"),
            span: Span::default(),
        }));
        let prog = program(Box::new([var("x"), var("y"), axiom]));
        assert_eq!(
            print_program(
                &prog,
                &PrintOptions { pretty: true, emit: false, where_comments: false, ..Default::default() }
            ),
            "var x: int;\nvar y: int;\n\naxiom x;\n"
        );
        assert_eq!(
            print_program(
                &prog,
                &PrintOptions { pretty: false, emit: false, where_comments: false, ..Default::default() }
            ),
            "var x: int;\nvar y: int;\naxiom x;\n"
        );
    }

    #[test]
    fn civl_declarations() {
        let call_y = CallCmd {
            is_async: false,
            is_free: false,
            attrs: Box::new([]),
            outs: Box::new([]),
            callee: id("Inv"),
            args: Box::new([v("x")]),
            span: Span::default(),
        };
        let decls = Box::new([
            Decl::YieldInvariant(Box::new(YieldInvariantDecl {
                is_yield: true,
                attrs: Box::new([attr("layer", Box::new([AttrParam::Expr(int("1"))]))]),
                name: id("Inv"),
                params: Box::new([group(&["x"], int_ty())]),
                preserves: Box::new([(Box::new([]), bin(Gt, v("x"), int("0")), Span::default())]),
                span: Span::default(),
            })),
            Decl::Action(Box::new(ActionDecl {
                pure: false,
                mover: Some(Mover::Left),
                attrs: Box::new([]),
                name: id("A"),
                ins: Box::new([group(&["x"], int_ty())]),
                outs: Box::new([]),
                specs: Box::new([
                    ActionSpec::Refines { attrs: Box::new([]), name: id("B"), span: Span::default() },
                    ActionSpec::Modifies { vars: Box::new([id("g")]), span: Span::default() },
                    ActionSpec::Requires { body: YieldClauseBody::Call(call_y.clone()), span: Span::default() },
                    ActionSpec::Asserts { attrs: Box::new([]), expr: v("b"), span: Span::default() },
                ]),
                body: None,
                span: Span::default(),
            })),
            Decl::YieldProcedure(Box::new(YieldProcedureDecl {
                mover: None,
                attrs: Box::new([]),
                name: id("P"),
                ins: Box::new([]),
                outs: Box::new([group(&["r"], int_ty())]),
                specs: Box::new([
                    YieldSpec::RefinesInline {
                        attrs: Box::new([]),
                        mover: Some(Mover::Both),
                        action_attrs: Box::new([]),
                        name: id("_"),
                        body: Body {
                            locals: Box::new([]),
                            stmts: stmts(Box::new([block(None, Box::new([assert_cmd(v("b"))]), None)])),
                            span: Span::default(),
                        },
                        span: Span::default(),
                    },
                    YieldSpec::Preserves { body: YieldClauseBody::Call(call_y), span: Span::default() },
                    YieldSpec::Ensures {
                        body: YieldClauseBody::Expr { attrs: Box::new([]), expr: v("b") },
                        span: Span::default(),
                    },
                ]),
                body: Some(Body {
                    locals: Box::new([]),
                    stmts: stmts(Box::new([block(None, Box::new([]), None)])),
                    span: Span::default(),
                }),
                span: Span::default(),
            })),
        ]);
        let text = print_program(&program(decls), &PrintOptions::default());
        let expected = "\
yield invariant {:layer 1} Inv(x: int);
  preserves x > 0;

left action A(x: int);
  refines B;
  modifies g;
  requires call Inv(x);
  asserts b;

yield procedure P() returns (r: int)
  refines both action _
  {
      assert b;
  }
  preserves call Inv(x);
  ensures b;
{
}
";
        assert_eq!(text, expected);
    }
}

#[cfg(test)]
mod round_trip {
    use super::{PrintOptions, print_expr, print_program};
    use crate::ast::{
        ArithCoercion, AttrParam, Attribute, BinaryOp, Expr, ExprKind, Ident, LetVar, Program, QuantKind, Quantifier,
        RoundingMode, Span, Trigger, Type, TypeKind, UnaryOp, VarGroup,
    };
    use crate::ast::{FieldUpdateExpr, LetExpr, MapType, StoreExpr, Symbol};
    use crate::source::SourceMap;

    fn parse(name: &str, text: &str) -> Option<Program> {
        let mut sources = SourceMap::new();
        let file = sources.add(name, name, text.to_string());
        crate::parser::parse(&mut sources, file, &[]).ok()
    }

    /// Walks Boogie's own test suite: every file that parses must print, re-parse to an equal
    /// tree, and print again to the same text. Set `BOOGIE_TESTS` to the suite's directory.
    #[test]
    #[ignore = "needs Boogie's test suite; run with BOOGIE_TESTS=<dir> cargo test -- --ignored"]
    fn boogie_test_suite() {
        let root = std::env::var("BOOGIE_TESTS").unwrap_or_else(|_| "/tmp/bt/Test".to_string());
        let files: Vec<std::path::PathBuf> = walkdir::WalkDir::new(&root)
            .sort_by_file_name()
            .into_iter()
            .flatten()
            .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "bpl"))
            .map(walkdir::DirEntry::into_path)
            .collect();
        assert!(!files.is_empty(), "no .bpl files under {root}");
        let (mut parsed, mut failures) = (0, Vec::new());
        for path in &files {
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            let name = path.display().to_string();
            let Some(program) = parse(&name, &text) else {
                continue;
            };
            parsed += 1;
            for pretty in [false, true] {
                let printed = print_program(
                    &program,
                    &PrintOptions { pretty, emit: false, where_comments: false, ..Default::default() },
                );
                match parse(&name, &printed) {
                    Some(again) if again == program => {
                        let reprinted = print_program(
                            &again,
                            &PrintOptions { pretty, emit: false, where_comments: false, ..Default::default() },
                        );
                        if reprinted != printed {
                            failures.push(format!("{name}: printing is not stable"));
                        }
                    }
                    Some(_) => failures.push(format!("{name}: re-parsed to a different tree")),
                    None => failures.push(format!("{name}: printed text does not parse")),
                }
            }
        }
        eprintln!("{parsed} of {} files parsed; {} round-trip failures", files.len(), failures.len());
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// A seeded generator, so failures reproduce.
    struct Rng(fastrand::Rng);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0.usize(..n)
        }
        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[self.below(items.len())]
        }
    }

    fn id(name: &str) -> Ident {
        Ident::at(Symbol::intern(name), Span::default())
    }

    fn ex(kind: ExprKind) -> Expr {
        Expr { kind, span: Span::default(), id: crate::ast::NodeId::NONE }
    }

    const NAMES: &[&str] = &["x", "y'", "a.b", "int", "left", "hide", "then", "is", "RNE"];

    fn random_type(rng: &mut Rng, depth: usize) -> Type {
        let kind = match if depth == 0 { rng.below(3) } else { rng.below(5) } {
            0 => TypeKind::Int,
            1 => TypeKind::Bool,
            2 => TypeKind::Named { name: id(rng.pick(&["C", "bv8", "where"])), args: Box::new([]) },
            3 => {
                let args = (0..rng.below(3)).map(|_| random_type(rng, depth - 1)).collect();
                TypeKind::Named { name: id("C"), args }
            }
            _ => TypeKind::Map(Box::new(MapType {
                type_params: if rng.below(2) == 0 { Box::new([]) } else { Box::new([id("a")]) },
                args: (0..rng.below(3)).map(|_| random_type(rng, depth - 1)).collect(),
                result: random_type(rng, depth - 1),
            })),
        };
        Type::new(kind, Span::default())
    }

    fn random_expr(rng: &mut Rng, depth: usize) -> Expr {
        const OPS: &[BinaryOp] = &[
            BinaryOp::Iff,
            BinaryOp::Imp,
            BinaryOp::And,
            BinaryOp::Or,
            BinaryOp::Eq,
            BinaryOp::Neq,
            BinaryOp::Lt,
            BinaryOp::Le,
            BinaryOp::Gt,
            BinaryOp::Ge,
            BinaryOp::Subtype,
            BinaryOp::Add,
            BinaryOp::Sub,
            BinaryOp::Mul,
            BinaryOp::Div,
            BinaryOp::Mod,
            BinaryOp::RealDiv,
            BinaryOp::Pow,
        ];
        let sub = |rng: &mut Rng| Box::new(random_expr(rng, depth - 1));
        let choice = if depth == 0 { rng.below(8) } else { 8 + rng.below(20) };
        let kind = match choice {
            0 => ExprKind::Var(id(rng.pick(NAMES))),
            1 => ExprKind::IntLit(rng.pick(&["0", "42"]).into()),
            2 => ExprKind::FloatLit(rng.pick(&["0x1.8e1f24e8", "-0x1.0e0f24e8"]).into()),
            3 => ExprKind::DecLit(rng.pick(&["1.5", "1e5", "2.5e-3"]).into()),
            4 => ExprKind::BvLit { value: "5".into(), width: 8 },
            5 => ExprKind::RoundingMode(RoundingMode::Rtz),
            6 => ExprKind::StrLit("s t".into()),
            7 => ExprKind::BoolLit(true),
            8..=11 => ExprKind::Binary { op: OPS[rng.below(OPS.len())], lhs: sub(rng), rhs: sub(rng) },
            12 | 13 => {
                let op = if rng.below(2) == 0 { UnaryOp::Neg } else { UnaryOp::Not };
                ExprKind::Unary { op, arg: sub(rng) }
            }
            14 => ExprKind::BvConcat { lhs: sub(rng), rhs: sub(rng) },
            15 => ExprKind::Is { arg: sub(rng), ctor: id(rng.pick(&["Nil", "left"])) },
            16 => ExprKind::Coerce { arg: sub(rng), ty: Box::new(random_type(rng, 2)) },
            17 => ExprKind::Select { map: sub(rng), indexes: (0..rng.below(3)).map(|_| *sub(rng)).collect() },
            18 => ExprKind::Store(Box::new(StoreExpr {
                map: *sub(rng),
                indexes: (0..rng.below(3)).map(|_| *sub(rng)).collect(),
                value: *sub(rng),
            })),
            19 => ExprKind::Extract { arg: sub(rng), hi: 8, lo: 0 },
            20 => ExprKind::Field { arg: sub(rng), field: id(rng.pick(NAMES)) },
            21 => ExprKind::FieldUpdate(Box::new(FieldUpdateExpr { arg: *sub(rng), field: id("f"), value: *sub(rng) })),
            22 => ExprKind::IfThenElse { cond: sub(rng), then: sub(rng), els: sub(rng) },
            23 => ExprKind::Call {
                func: rng.pick(&["f", "old"]).into(),
                args: (0..rng.below(3)).map(|_| *sub(rng)).collect(),
            },
            24 => ExprKind::Old(sub(rng)),
            25 => ExprKind::Arith { to: ArithCoercion::ToReal, arg: sub(rng) },
            26 => {
                let kind = [QuantKind::Forall, QuantKind::Exists, QuantKind::Lambda][rng.below(3)];
                let triggers = if kind == QuantKind::Lambda || rng.below(2) == 0 {
                    vec![]
                } else {
                    // The parser reads a string parameter as `AttrParam::Str`, never as an
                    // expression, so `{:nopats "s"}` is no trigger.
                    let e = *sub(rng);
                    let positive = rng.below(2) == 0 || matches!(e.kind, ExprKind::StrLit(_));
                    vec![Trigger { positive, exprs: Box::new([e]), span: Span::default() }]
                };
                let param = match *sub(rng) {
                    Expr { kind: ExprKind::StrLit(s), span, .. } => AttrParam::Str(s.to_string(), span),
                    e => AttrParam::Expr(e),
                };
                let attrs =
                    vec![Attribute { key: Symbol::intern("w"), params: Box::new([param]), span: Span::default() }];
                let vars = vec![VarGroup {
                    attrs: Box::new([]),
                    names: Box::new([id("i"), id("left")]),
                    ty: random_type(rng, 1),
                    where_clause: None,
                    span: Span::default(),
                }];
                let body = *sub(rng);
                ExprKind::Quant(Box::new(Quantifier {
                    kind,
                    type_params: Box::new([]),
                    vars: vars.into(),
                    attrs: attrs.into(),
                    triggers: triggers.into(),
                    body,
                }))
            }
            _ => ExprKind::Let(Box::new(LetExpr {
                vars: Box::new([LetVar { attrs: Box::new([]), name: id("v") }]),
                rhss: Box::new([*sub(rng)]),
                attrs: Box::new([]),
                body: *sub(rng),
            })),
        };
        ex(kind)
    }

    /// Random expressions over every construct print to text that parses back to them.
    #[test]
    fn random_expressions() {
        let mut rng = Rng(fastrand::Rng::with_seed(0x9e37_79b9_7f4a_7c15));
        for _ in 0..3000 {
            let depth = 1 + rng.below(4);
            let e = random_expr(&mut rng, depth);
            let text = print_expr(&e);
            let mut sources = SourceMap::new();
            let file = sources.add("e", "e", text.clone());
            match crate::parser::parse_expression(&mut sources, file) {
                Ok(again) => assert_eq!(again, e, "{text}"),
                Err(errors) => panic!("{text}\ndoes not parse: {errors:?}"),
            }
        }
    }
}
