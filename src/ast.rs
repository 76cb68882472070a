//! The BoogiePL abstract syntax tree, as the parser builds it.
//!
//! The tree follows the concrete syntax closely (Boogie's own `Absy` classes are the model):
//! declarations keep the grouping the source used (`var x, y: int;` is one [`VarGroup`]), a
//! procedure body is a list of [`BigBlock`]s exactly as Boogie's `StmtListBuilder` forms them,
//! and every declaration, command, expression, type and attribute carries one [`Span`].
//! Equality of trees ignores spans (see [`Span`]'s `PartialEq`), which is what the printer's
//! round-trip property needs.
//!
//! Lists in the tree are exactly sized boxed slices (`Box<[T]>`), not vectors: 8 bytes less
//! in every node that has a list, and no spare capacity (the parser builds them with
//! [`exact`]); only the program's list of declarations, which passes extend, is a `Vec`.
//!
//! Later stages never mutate flags on these nodes; what they learn goes in side tables keyed
//! by the node's position (see ../shared/STYLE.md).

use std::fmt;

/// `items` as an exactly sized slice. When `items` has spare capacity the elements move to a
/// new allocation of the exact size: mimalloc shrinks a block in place, keeping the spare
/// room, when less than half of it would be freed, so `into_boxed_slice` alone would not give
/// the memory back.
pub fn exact<T>(items: Vec<T>) -> Box<[T]> {
    if items.len() == items.capacity() {
        return items.into_boxed_slice();
    }
    let mut fresh = Vec::with_capacity(items.len());
    fresh.extend(items);
    fresh.into_boxed_slice()
}

/// Identifies one source file (or prelude) in a [`crate::source::SourceMap`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A byte range in one file. Line and column are computed only when printing.
///
/// Two spans always compare equal, so that `==` on trees compares structure only: the printer's
/// round trip (print, parse again) must give an equal tree although every offset moved. Use
/// [`Span::same_as`] to compare positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl PartialEq for Span {
    fn eq(&self, _other: &Span) -> bool {
        true
    }
}
impl Eq for Span {}

/// Consistent with `==`: spans do not take part in hashing either.
impl std::hash::Hash for Span {
    fn hash<H: std::hash::Hasher>(&self, _state: &mut H) {}
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span { file, start: start as u32, end: end as u32 }
    }
    /// The span covering both `self` and `other` (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }
    /// Position equality (the derived `==` ignores positions on purpose).
    pub fn same_as(&self, other: &Span) -> bool {
        self.file == other.file && self.start == other.start && self.end == other.end
    }
}

/// An interned name: four bytes, compared and hashed as a number, read back as `&str`.
///
/// Programs mention the same few names over and over; interning keeps the tree small (the
/// front end's memory target is a few times the input) and makes name lookups cheap in every
/// later stage. The interner is global and never shrinks, as in most compilers.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Symbol(std::num::NonZeroU32);

impl Symbol {
    pub fn intern(name: &str) -> Symbol {
        Symbol(crate::intern::intern(name))
    }
    pub fn as_str(self) -> &'static str {
        crate::intern::resolve(self.0)
    }
}

impl From<&str> for Symbol {
    fn from(name: &str) -> Symbol {
        Symbol::intern(name)
    }
}

impl std::ops::Deref for Symbol {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for Symbol {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Symbol {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A name as written, with a leading backslash escape already removed.
///
/// `span` locates it in messages; `id` is its identity: resolution numbers every identifier
/// occurrence of the program (as it numbers expressions) and records what each names by that
/// number, so two copies of one occurrence (a pass's instances, an inlined body) are told
/// apart although they share a position. A built name starts [`NodeId::NONE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: Symbol,
    pub span: Span,
    pub id: NodeId,
}

impl Ident {
    pub fn new(name: &str, span: Span) -> Ident {
        Ident::at(Symbol::intern(name), span)
    }
    /// `name` located at `span`, not numbered yet.
    pub fn at(name: Symbol, span: Span) -> Ident {
        Ident { name, span, id: NodeId::NONE }
    }
    /// Whether `self` and `other` are the same numbered occurrence (copies of it included).
    pub fn same_node(&self, other: &Ident) -> bool {
        self.id.0 == other.id.0 && self.id.0 != NodeId::NONE.0
    }
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

// ---------------------------------------------------------------------------------------------
// Attributes and triggers

/// `{:key p1, p2}`
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub key: Symbol,
    pub params: Box<[AttrParam]>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AttrParam {
    /// A string literal parameter, without its quotes (escapes kept as written).
    Str(String, Span),
    Expr(Expr),
}

/// `{ e1, e2 }` in a quantifier; `{:nopats e}` is a negative trigger (`positive == false`).
#[derive(Clone, Debug, PartialEq)]
pub struct Trigger {
    pub positive: bool,
    pub exprs: Box<[Expr]>,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------------
// Types

/// A type as written. Like an [`Ident`], it has an identity apart from its position: what it
/// resolved to is recorded by `id`.
#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    pub kind: TypeKind,
    pub span: Span,
    pub id: NodeId,
}

impl Type {
    /// `kind` located at `span`, not numbered yet.
    pub fn new(kind: TypeKind, span: Span) -> Type {
        Type { kind, span, id: NodeId::NONE }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    Int,
    Real,
    Bool,
    /// A type constructor, synonym, type variable or built-in named type (`bv32`,
    /// `float24e8`, `rmode`, `string`, ...): which one is decided by resolution.
    Named {
        name: Ident,
        args: Box<[Type]>,
    },
    /// `<a>[T1, T2]R`
    Map(Box<MapType>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct MapType {
    pub type_params: Box<[Ident]>,
    pub args: Box<[Type]>,
    pub result: Type,
}

// ---------------------------------------------------------------------------------------------
// Expressions

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// The key of this expression in the type checker's side tables (its type, what its name
    /// refers to, a polymorphic use's instantiation). The parser leaves it [`NodeId::NONE`];
    /// type checking numbers every expression of the program; a pass that builds an
    /// expression takes a fresh id from the typed program. It fills what would otherwise be
    /// padding, so it costs no memory.
    pub id: NodeId,
}

/// Numbers an [`Expr`], [`Ident`] or [`Type`] within one program (one numbering for the
/// three). Like [`Span`], it takes no part in `==` or hashing: trees compare by structure.
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeId(pub u32);

impl NodeId {
    /// Not numbered yet.
    pub const NONE: NodeId = NodeId(u32::MAX);
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Always equal, so that trees compare by structure. A side table keyed by node uses
/// [`NodeId::index`] (or `.0`), never the id itself.
impl PartialEq for NodeId {
    fn eq(&self, _other: &NodeId) -> bool {
        true
    }
}
impl Eq for NodeId {}

/// Consistent with `==`: ids take no part in hashing.
impl std::hash::Hash for NodeId {
    fn hash<H: std::hash::Hasher>(&self, _state: &mut H) {}
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Iff,
    Imp,
    And,
    Or,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    /// `<:`, the partial-order operator of Boogie 2 (kept for old front ends).
    Subtype,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    RealDiv,
    Pow,
}

impl BinaryOp {
    /// The operator as Boogie prints it.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Iff => "<==>",
            BinaryOp::Imp => "==>",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
            BinaryOp::Eq => "==",
            BinaryOp::Neq => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Subtype => "<:",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "div",
            BinaryOp::Mod => "mod",
            BinaryOp::RealDiv => "/",
            BinaryOp::Pow => "**",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundingMode {
    Rne,
    Rna,
    Rtp,
    Rtn,
    Rtz,
}

impl RoundingMode {
    pub fn name(self) -> &'static str {
        match self {
            RoundingMode::Rne => "RNE",
            RoundingMode::Rna => "RNA",
            RoundingMode::Rtp => "RTP",
            RoundingMode::Rtn => "RTN",
            RoundingMode::Rtz => "RTZ",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuantKind {
    Forall,
    Exists,
    Lambda,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithCoercion {
    ToInt,
    ToReal,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    BoolLit(bool),
    /// Decimal digits, as written. (Literals are interned like names: they repeat too.)
    IntLit(Symbol),
    /// A `decimal` (`1e5`) or `dec_float` (`1.5`, `1.5e-3`) literal, as written.
    DecLit(Symbol),
    /// A float literal (`0x1.8e1f24e8`, `0NaN24e8`, `-0x...`), as written.
    FloatLit(Symbol),
    /// `5bv32`: value digits and width.
    BvLit {
        value: Symbol,
        width: u32,
    },
    /// A string literal without its quotes.
    StrLit(Symbol),
    RoundingMode(RoundingMode),
    Var(Ident),
    /// `f(args)`. The function's name stands at the expression's span (`Expr::span` is the
    /// name's span), so the name is a bare [`Symbol`]: that keeps this variant within the
    /// 24 bytes every payload fits in, without a box per call.
    Call {
        func: Symbol,
        args: Box<[Expr]>,
    },
    Old(Box<Expr>),
    /// `int(e)` / `real(e)`
    Arith {
        to: ArithCoercion,
        arg: Box<Expr>,
    },
    Unary {
        op: UnaryOp,
        arg: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `a ++ b`
    BvConcat {
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `e is C`
    Is {
        arg: Box<Expr>,
        ctor: Ident,
    },
    /// `e : T`
    Coerce {
        arg: Box<Expr>,
        ty: Box<Type>,
    },
    /// `m[i, j]`
    Select {
        map: Box<Expr>,
        indexes: Box<[Expr]>,
    },
    /// `m[i, j := v]`
    Store(Box<StoreExpr>),
    /// `e[hi:lo]`
    Extract {
        arg: Box<Expr>,
        hi: u32,
        lo: u32,
    },
    /// The bounds `hi:lo` of an extract found outside an index position. Boogie's parser
    /// builds the same placeholder; resolution reports "bitvector bounds in illegal position".
    BvBounds {
        hi: u32,
        lo: u32,
    },
    /// `e->f`
    Field {
        arg: Box<Expr>,
        field: Ident,
    },
    /// `e->(f := v)`
    FieldUpdate(Box<FieldUpdateExpr>),
    Quant(Box<Quantifier>),
    /// `(var x, y := e1, e2; body)`
    Let(Box<LetExpr>),
    /// `if c then a else b`
    IfThenElse {
        cond: Box<Expr>,
        then: Box<Expr>,
        els: Box<Expr>,
    },
    /// `|{ var ...; A: cmds goto B; B: return e; }|`
    Code(Box<CodeExpr>),
}

// Expressions are the most numerous nodes: every payload above is at most 24 bytes (rare
// variants are boxed, lists are exactly sized slices), so that an `Expr` takes 48 bytes.
const _: () = assert!(std::mem::size_of::<ExprKind>() <= 32);
const _: () = assert!(std::mem::size_of::<Expr>() <= 48);

impl Expr {
    /// Calls `f` on each direct subexpression, in source order: operands, indexes, a
    /// quantifier's triggers then body, a let's right-hand sides then body. Not attributes,
    /// nor the commands of a code expression.
    pub fn for_each_child<'e>(&'e self, f: &mut dyn FnMut(&'e Expr)) {
        match &self.kind {
            ExprKind::Call { args, .. } => args.iter().for_each(f),
            ExprKind::Old(a)
            | ExprKind::Arith { arg: a, .. }
            | ExprKind::Unary { arg: a, .. }
            | ExprKind::Is { arg: a, .. }
            | ExprKind::Coerce { arg: a, .. }
            | ExprKind::Extract { arg: a, .. }
            | ExprKind::Field { arg: a, .. } => f(a),
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::BvConcat { lhs, rhs } => {
                f(lhs);
                f(rhs);
            }
            ExprKind::Select { map, indexes } => {
                f(map);
                indexes.iter().for_each(f);
            }
            ExprKind::Store(s) => {
                f(&s.map);
                s.indexes.iter().for_each(&mut *f);
                f(&s.value);
            }
            ExprKind::FieldUpdate(u) => {
                f(&u.arg);
                f(&u.value);
            }
            ExprKind::Quant(q) => {
                for t in &q.triggers {
                    t.exprs.iter().for_each(&mut *f);
                }
                f(&q.body);
            }
            ExprKind::Let(l) => {
                l.rhss.iter().for_each(&mut *f);
                f(&l.body);
            }
            ExprKind::IfThenElse { cond, then, els } => {
                f(cond);
                f(then);
                f(els);
            }
            _ => {}
        }
    }
}

/// `m[i, j := v]`
#[derive(Clone, Debug, PartialEq)]
pub struct StoreExpr {
    pub map: Expr,
    pub indexes: Box<[Expr]>,
    pub value: Expr,
}

/// `e->(f := v)`
#[derive(Clone, Debug, PartialEq)]
pub struct FieldUpdateExpr {
    pub arg: Expr,
    pub field: Ident,
    pub value: Expr,
}

/// `(var x, y := e1, e2; body)`
#[derive(Clone, Debug, PartialEq)]
pub struct LetExpr {
    pub vars: Box<[LetVar]>,
    pub rhss: Box<[Expr]>,
    pub attrs: Box<[Attribute]>,
    pub body: Expr,
}

/// `|{ var ...; A: cmds goto B; B: return e; }|`
#[derive(Clone, Debug, PartialEq)]
pub struct CodeExpr {
    pub locals: Box<[LocalVars]>,
    pub blocks: Box<[SpecBlock]>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Quantifier {
    pub kind: QuantKind,
    pub type_params: Box<[Ident]>,
    pub vars: Box<[VarGroup]>,
    pub attrs: Box<[Attribute]>,
    pub triggers: Box<[Trigger]>,
    pub body: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LetVar {
    pub attrs: Box<[Attribute]>,
    pub name: Ident,
}

/// A block of a code expression.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecBlock {
    pub label: Ident,
    pub cmds: Box<[Cmd]>,
    pub transfer: SpecTransfer,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SpecTransfer {
    Goto { attrs: Box<[Attribute]>, targets: Box<[Ident]>, span: Span },
    Return { attrs: Box<[Attribute]>, value: Expr, span: Span },
}

// ---------------------------------------------------------------------------------------------
// Variables

/// `{:attrs} x, y: T where e` — one group of formals, locals, globals, bound variables or
/// datatype fields sharing a type (and where clause).
#[derive(Clone, Debug, PartialEq)]
pub struct VarGroup {
    pub attrs: Box<[Attribute]>,
    pub names: Box<[Ident]>,
    pub ty: Type,
    /// Boxed: most groups have none, and an `Expr` inline would take 40 bytes more in each.
    pub where_clause: Option<Box<Expr>>,
    pub span: Span,
}

/// `var {:attrs} groups;` in an implementation body (or a code expression).
#[derive(Clone, Debug, PartialEq)]
pub struct LocalVars {
    pub attrs: Box<[Attribute]>,
    pub groups: Box<[VarGroup]>,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------------
// Commands and statements

#[derive(Clone, Debug, PartialEq)]
pub struct Cmd {
    pub kind: CmdKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CmdKind {
    Assert {
        attrs: Box<[Attribute]>,
        expr: Expr,
    },
    Assume {
        attrs: Box<[Attribute]>,
        expr: Expr,
    },
    Havoc {
        vars: Box<[Ident]>,
    },
    /// `lhs1, lhs2 := {:attrs} rhs1, rhs2` (span: the `:=` token, as in Boogie)
    Assign {
        lhss: Box<[AssignLhs]>,
        attrs: Box<[Attribute]>,
        rhss: Box<[Expr]>,
    },
    /// `C(x, y) := {:attrs} e` (datatype unpack; span: the `:=` token)
    Unpack {
        ctor: Ident,
        vars: Box<[Ident]>,
        attrs: Box<[Attribute]>,
        rhs: Box<Expr>,
    },
    Call(Box<CallCmd>),
    /// `call A() | B() | ...` (span: the `call` token)
    ParCall {
        calls: Box<[CallCmd]>,
    },
    /// `measure e1, e2;` (Civl)
    Measure {
        attrs: Box<[Attribute]>,
        exprs: Box<[Expr]>,
    },
    /// `hide f;` / `reveal *;` (`None` for `*`)
    HideReveal {
        hide: bool,
        name: Option<Ident>,
    },
    /// `push;` / `pop;`
    ChangeScope {
        push: bool,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum AssignLhs {
    Var(Ident),
    /// `base[indexes]` (span: the `[` token)
    Select {
        base: Box<AssignLhs>,
        indexes: Box<[Expr]>,
        span: Span,
    },
    /// `base->field` (span: the `->` token)
    Field {
        base: Box<AssignLhs>,
        field: Ident,
        span: Span,
    },
}

/// `[async] [free] call {:attrs} outs := name(args)`
#[derive(Clone, Debug, PartialEq)]
pub struct CallCmd {
    pub is_async: bool,
    pub is_free: bool,
    pub attrs: Box<[Attribute]>,
    pub outs: Box<[Ident]>,
    pub callee: Ident,
    pub args: Box<[Expr]>,
    pub span: Span,
}

/// A structured statement list, `{ ... }`, grouped into big blocks as Boogie does: each big
/// block is an optional label, a run of simple commands, and at most one structured or
/// transfer command that ends it.
#[derive(Clone, Debug, PartialEq)]
pub struct StmtList {
    pub blocks: Box<[BigBlock]>,
    /// The closing brace.
    pub end: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BigBlock {
    pub label: Option<Ident>,
    pub cmds: Box<[Cmd]>,
    pub tail: Option<BlockTail>,
    /// Boogie's start token: the label, else the first command, else the tail.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BlockTail {
    If(Box<IfCmd>),
    While(Box<WhileCmd>),
    Break { label: Option<Ident>, span: Span },
    Goto { attrs: Box<[Attribute]>, targets: Box<[Ident]>, span: Span },
    Return { attrs: Box<[Attribute]>, span: Span },
}

impl BlockTail {
    /// The statement lists directly inside this tail: a loop's body, or every branch of an
    /// `if ... else if ... else` chain in order; none for break, goto and return.
    pub fn nested_lists(&self) -> Vec<&StmtList> {
        match self {
            BlockTail::While(w) => vec![&w.body],
            BlockTail::If(first) => {
                let mut lists = Vec::new();
                let mut ifcmd = Some(&**first);
                while let Some(c) = ifcmd {
                    lists.push(&c.then);
                    ifcmd = match &c.els {
                        Some(ElseBranch::If(next)) => Some(&**next),
                        Some(ElseBranch::Block(b)) => {
                            lists.push(b);
                            None
                        }
                        None => None,
                    };
                }
                lists
            }
            _ => Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct IfCmd {
    pub attrs: Box<[Attribute]>,
    /// `None` for `if (*)`.
    pub guard: Option<Expr>,
    pub then: StmtList,
    pub els: Option<ElseBranch>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ElseBranch {
    If(Box<IfCmd>),
    Block(StmtList),
}

#[derive(Clone, Debug, PartialEq)]
pub struct WhileCmd {
    /// `None` for `while (*)`.
    pub guard: Option<Expr>,
    pub invariants: Box<[LoopSpec]>,
    pub body: StmtList,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LoopSpec {
    Invariant {
        free: bool,
        attrs: Box<[Attribute]>,
        expr: Expr,
        span: Span,
    },
    /// `invariant {:attrs} call Y();` (Civl yield invariant)
    YieldInvariant {
        attrs: Box<[Attribute]>,
        /// Boxed: rare, and twice the size of the other clauses.
        call: Box<CallCmd>,
        span: Span,
    },
    Measure {
        attrs: Box<[Attribute]>,
        exprs: Box<[Expr]>,
        span: Span,
    },
}

// ---------------------------------------------------------------------------------------------
// Declarations

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub decls: Vec<Decl>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Decl {
    Type(Box<TypeDecl>),
    Datatype(Box<DatatypeDecl>),
    Const(Box<ConstDecl>),
    Function(Box<FunctionDecl>),
    Axiom(Box<AxiomDecl>),
    Var(Box<GlobalVarDecl>),
    Procedure(Box<ProcedureDecl>),
    Implementation(Box<ImplementationDecl>),
    YieldInvariant(Box<YieldInvariantDecl>),
    Action(Box<ActionDecl>),
    YieldProcedure(Box<YieldProcedureDecl>),
}

impl Decl {
    pub fn span(&self) -> Span {
        match self {
            Decl::Type(d) => d.span,
            Decl::Datatype(d) => d.span,
            Decl::Const(d) => d.span,
            Decl::Function(d) => d.span,
            Decl::Axiom(d) => d.span,
            Decl::Var(d) => d.span,
            Decl::Procedure(d) => d.span,
            Decl::Implementation(d) => d.span,
            Decl::YieldInvariant(d) => d.span,
            Decl::Action(d) => d.span,
            Decl::YieldProcedure(d) => d.span,
        }
    }
}

/// `type {:attrs} C a b;` or `type {:attrs} S a = T;`. One `type` keyword may declare several
/// (`type A, B;`); the parser makes one `TypeDecl` each, sharing the attributes, as Boogie does.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDecl {
    pub attrs: Box<[Attribute]>,
    pub name: Ident,
    pub params: Box<[Ident]>,
    /// `Some` for a synonym.
    pub synonym: Option<Type>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DatatypeDecl {
    pub attrs: Box<[Attribute]>,
    pub name: Ident,
    pub type_params: Box<[Ident]>,
    pub ctors: Box<[Constructor]>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Constructor {
    pub name: Ident,
    pub fields: Box<[VarGroup]>,
}

/// `const {:attrs} unique x, y: T extends ... complete;` or `... uses { axioms }`
#[derive(Clone, Debug, PartialEq)]
pub struct ConstDecl {
    pub attrs: Box<[Attribute]>,
    pub unique: bool,
    pub names: Box<[Ident]>,
    pub ty: Type,
    /// Boogie 2's partial-order specification (`extends`, `complete`).
    pub order: Option<OrderSpec>,
    /// `uses { axiom ...; }`; `None` when the declaration ended in `;`.
    pub uses: Option<Box<[AxiomDecl]>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OrderSpec {
    /// `(unique, parent)`
    pub parents: Box<[(bool, Ident)]>,
    pub complete: bool,
}

/// A function formal: `{:attrs} x: T`, or just `T` (unnamed).
#[derive(Clone, Debug, PartialEq)]
pub struct FnParam {
    pub attrs: Box<[Attribute]>,
    pub name: Option<Ident>,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    pub revealed: bool,
    pub attrs: Box<[Attribute]>,
    pub name: Ident,
    pub type_params: Box<[Ident]>,
    pub params: Box<[FnParam]>,
    pub result: FnParam,
    /// The result was declared `returns (r: T)` rather than `: T`.
    pub returns_form: bool,
    pub body: Option<Expr>,
    pub uses: Option<Box<[AxiomDecl]>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AxiomDecl {
    pub hideable: bool,
    pub attrs: Box<[Attribute]>,
    pub expr: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVarDecl {
    pub attrs: Box<[Attribute]>,
    pub groups: Box<[VarGroup]>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    Requires { free: bool, attrs: Box<[Attribute]>, expr: Expr, span: Span },
    Ensures { free: bool, attrs: Box<[Attribute]>, expr: Expr, span: Span },
    Modifies { vars: Box<[Ident]>, span: Span },
    Measure { free: bool, attrs: Box<[Attribute]>, exprs: Box<[Expr]>, span: Span },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    pub locals: Box<[LocalVars]>,
    pub stmts: StmtList,
    /// The opening brace.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ProcedureDecl {
    pub pure: bool,
    pub attrs: Box<[Attribute]>,
    pub name: Ident,
    pub type_params: Box<[Ident]>,
    pub ins: Box<[VarGroup]>,
    pub outs: Box<[VarGroup]>,
    /// `procedure P(); specs` when false, `procedure P() specs { ... }` when a body follows.
    pub specs: Box<[Spec]>,
    pub body: Option<Body>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ImplementationDecl {
    pub attrs: Box<[Attribute]>,
    pub name: Ident,
    pub type_params: Box<[Ident]>,
    pub ins: Box<[VarGroup]>,
    pub outs: Box<[VarGroup]>,
    pub body: Body,
    pub span: Span,
}

impl ProcedureDecl {
    /// A copy with `body` in place of its own, which is not copied (a pass that rewrites the
    /// body would otherwise copy it only to replace it).
    pub fn with_body(&self, body: Option<Body>) -> ProcedureDecl {
        ProcedureDecl {
            pure: self.pure,
            attrs: self.attrs.clone(),
            name: self.name,
            type_params: self.type_params.clone(),
            ins: self.ins.clone(),
            outs: self.outs.clone(),
            specs: self.specs.clone(),
            body,
            span: self.span,
        }
    }
}

impl ImplementationDecl {
    /// A copy with `body` in place of its own, which is not copied.
    pub fn with_body(&self, body: Body) -> ImplementationDecl {
        ImplementationDecl {
            attrs: self.attrs.clone(),
            name: self.name,
            type_params: self.type_params.clone(),
            ins: self.ins.clone(),
            outs: self.outs.clone(),
            body,
            span: self.span,
        }
    }
}

// --- Civl: parsed and printed; later stages refuse it.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mover {
    Left,
    Right,
    Both,
    Atomic,
}

impl Mover {
    pub fn keyword(self) -> &'static str {
        match self {
            Mover::Left => "left",
            Mover::Right => "right",
            Mover::Both => "both",
            Mover::Atomic => "atomic",
        }
    }
}

/// `[yield] invariant {:attrs} Name(formals); preserves e; ...`
#[derive(Clone, Debug, PartialEq)]
pub struct YieldInvariantDecl {
    pub is_yield: bool,
    pub attrs: Box<[Attribute]>,
    pub name: Ident,
    pub params: Box<[VarGroup]>,
    #[allow(clippy::type_complexity)]
    pub preserves: Box<[(Box<[Attribute]>, Expr, Span)]>,
    pub span: Span,
}

/// A requires/preserves/ensures clause of a yield procedure or action: a proposition or a
/// call of a yield invariant.
#[derive(Clone, Debug, PartialEq)]
pub enum YieldClauseBody {
    Expr { attrs: Box<[Attribute]>, expr: Expr },
    Call(CallCmd),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ActionSpec {
    Refines { attrs: Box<[Attribute]>, name: Ident, span: Span },
    Modifies { vars: Box<[Ident]>, span: Span },
    Requires { body: YieldClauseBody, span: Span },
    Asserts { attrs: Box<[Attribute]>, expr: Expr, span: Span },
}

/// `[pure] [mover] action {:attrs} Name(ins) returns (outs) specs [body]`
#[derive(Clone, Debug, PartialEq)]
pub struct ActionDecl {
    pub pure: bool,
    pub mover: Option<Mover>,
    pub attrs: Box<[Attribute]>,
    pub name: Ident,
    pub ins: Box<[VarGroup]>,
    pub outs: Box<[VarGroup]>,
    pub specs: Box<[ActionSpec]>,
    pub body: Option<Body>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum YieldSpec {
    /// `refines {:attrs} A;`
    Refines {
        attrs: Box<[Attribute]>,
        name: Ident,
        span: Span,
    },
    /// `refines {:attrs} [mover] action {:attrs} A { body }`
    RefinesInline {
        attrs: Box<[Attribute]>,
        mover: Option<Mover>,
        action_attrs: Box<[Attribute]>,
        name: Ident,
        body: Body,
        span: Span,
    },
    Requires {
        body: YieldClauseBody,
        span: Span,
    },
    Preserves {
        body: YieldClauseBody,
        span: Span,
    },
    Ensures {
        body: YieldClauseBody,
        span: Span,
    },
    Measure {
        attrs: Box<[Attribute]>,
        exprs: Box<[Expr]>,
        span: Span,
    },
    Modifies {
        vars: Box<[Ident]>,
        span: Span,
    },
}

/// `yield [mover] procedure {:attrs} Name(ins) returns (outs) specs [body]`
#[derive(Clone, Debug, PartialEq)]
pub struct YieldProcedureDecl {
    pub mover: Option<Mover>,
    pub attrs: Box<[Attribute]>,
    pub name: Ident,
    pub ins: Box<[VarGroup]>,
    pub outs: Box<[VarGroup]>,
    pub specs: Box<[YieldSpec]>,
    pub body: Option<Body>,
    pub span: Span,
}
