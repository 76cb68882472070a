//! What the grammar's actions call: span bookkeeping, Boogie's semantic checks made while
//! parsing (the `SemErr` calls of Boogie's `BoogiePL.atg`), and the grouping of statements
//! into big blocks.
//!
//! Boogie reports a semantic error at `t`, the last token the parser consumed, and drops an
//! error that comes fewer than two tokens after the previous one (Coco/R's `errDist`);
//! [`Ctx::sem_err`] does the same, and so does [`Ctx::syntax_error`] for syntax errors, at the
//! token that did not fit. Errors Boogie reports at an explicit token (label errors,
//! parameter-name errors) go through [`Ctx::error_at`] and are never dropped.

use crate::ast::*;
use crate::diagnostics::{Diagnostic, Phase};

pub struct Ctx<'input> {
    pub file: FileId,
    text: &'input str,
    /// Where every 64th token starts (filled by the lexer), to find tokens again.
    token_checkpoints: super::lexer::Checkpoints,
    pub errors: Vec<Diagnostic>,
    /// The index of the last token consumed before the last error (-1: none), for `errDist`.
    last_error_token: Option<i64>,
    /// Syntax errors an earlier parse found before tokens it assumed (see `coco`), in order:
    /// reported when the parse passes them, among the other errors.
    recovered: std::collections::VecDeque<(u32, String)>,
    /// Reused by [`Ctx::stmt_list`].
    cmd_buffer: Vec<Cmd>,
    block_buffer: Vec<BigBlock>,
}

/// A statement as the grammar reads it, before grouping into big blocks.
pub enum RawStmt {
    Cmd(Box<Cmd>),
    Label(Ident),
    /// A structured or transfer command; its span is [`tail_span`]. (No span beside it: the
    /// parser's stack holds a `RawStmt` per statement, and its largest variant sets the size
    /// of every stack entry.)
    Tail(BlockTail),
}

/// Where a block's tail starts: its keyword.
fn tail_span(tail: &BlockTail) -> Span {
    match tail {
        BlockTail::If(i) => i.span,
        BlockTail::While(w) => w.span,
        BlockTail::Break { span, .. } | BlockTail::Goto { span, .. } | BlockTail::Return { span, .. } => *span,
    }
}

/// An attribute-or-trigger as read, before the context decides which are allowed.
pub enum AttrOrTrigger {
    Attr(Attribute),
    Trigger(Trigger),
    /// `{:nopats ...}` with a bad parameter; already reported.
    Invalid,
}

/// One index or field step of an assignment's left-hand side.
pub enum LhsStep {
    Index(Box<[Expr]>, Span),
    Field(Ident, Span),
}

/// An operator of the arithmetic levels (see `BvTerm` in the grammar): `None` for `++`, with
/// the start and length of its token. Eight bytes, so that an operand with its operator (the
/// items of the `BvTerm` list, which sit on the parser's stack) fits the stack entries other
/// symbols need.
#[derive(Clone, Copy)]
pub struct ArithOp {
    op: Option<BinaryOp>,
    len: u8,
    start: u32,
}

impl ArithOp {
    pub fn new(op: Option<BinaryOp>, span: Span) -> ArithOp {
        ArithOp { op, len: (span.end - span.start) as u8, start: span.start }
    }

    /// Boogie's levels: BvTerm (`++`) < Term (`+ -`) < Factor (`* div mod /`) < Power (`**`).
    fn level(self) -> u8 {
        match self.op {
            None => 1,
            Some(BinaryOp::Add | BinaryOp::Sub) => 2,
            Some(BinaryOp::Pow) => 4,
            Some(_) => 3,
        }
    }

    fn apply(self, file: FileId, lhs: Expr, rhs: Expr) -> Expr {
        let span = Span { file, start: self.start, end: self.start + u32::from(self.len) };
        let (lhs, rhs) = (Box::new(lhs), Box::new(rhs));
        let kind = match self.op {
            None => ExprKind::BvConcat { lhs, rhs },
            Some(op) => ExprKind::Binary { op, lhs, rhs },
        };
        Expr { kind, span, id: NodeId::NONE }
    }
}

/// The contents of `[...]` after an expression; each expression with the end offset of its
/// last token.
pub enum Bracket {
    Select(Box<[(Expr, u32)]>),
    Store(Box<[(Expr, u32)]>, (Expr, u32)),
}

/// A variable group as read, with the end of its where clause (for the error that says where
/// clauses are not allowed).
pub struct RawGroup {
    pub group: VarGroup,
    pub where_end: u32,
}

impl<'input> Ctx<'input> {
    pub fn new(file: FileId, text: &'input str, token_checkpoints: super::lexer::Checkpoints) -> Ctx<'input> {
        Ctx {
            file,
            text,
            token_checkpoints,
            errors: Vec::new(),
            last_error_token: None,
            recovered: std::collections::VecDeque::new(),
            cmd_buffer: Vec::new(),
            block_buffer: Vec::new(),
        }
    }

    /// `yield;` as `assume {:yield} true;`.
    pub fn yield_cmd(&self, span: Span) -> Cmd {
        let attr = Attribute { key: Symbol::intern("yield"), params: Box::new([]), span };
        let expr = Expr { kind: ExprKind::BoolLit(true), span, id: NodeId::NONE };
        Cmd { kind: CmdKind::Assume { attrs: Box::new([attr]), expr }, span }
    }

    pub fn span(&self, l: u32, r: u32) -> Span {
        Span { file: self.file, start: l, end: r }
    }

    /// Index and byte range of the last token that ends at or before `offset`.
    fn token_ending_by(&self, offset: u32) -> Option<(usize, usize, usize)> {
        super::lexer::token_ending_by(self.text, &self.token_checkpoints.borrow(), offset as usize)
    }

    /// The span of the last token that ends at or before `offset` (Boogie's `t`).
    pub fn last_token(&self, offset: u32) -> Span {
        let (_, start, end) = self.token_ending_by(offset).unwrap_or((0, 0, 0));
        Span::new(self.file, start, end)
    }

    /// Boogie's parser `SemErr(msg)`: at the last token consumed before `offset`, unless
    /// fewer than two tokens were consumed since the previous error.
    pub fn sem_err(&mut self, offset: u32, message: impl Into<String>) {
        self.report_recovered_before(offset);
        let (index, start, end) = self.token_ending_by(offset).unwrap_or((0, 0, 0));
        if self.far_from_last_error(index as i64) {
            self.errors.push(Diagnostic::error(Phase::Parse, Span::new(self.file, start, end), message));
        }
    }

    /// An error at an explicit position (Boogie's `errors.SemErr(tok, msg)`).
    pub fn error_at(&mut self, span: Span, message: impl Into<String>) {
        self.report_recovered_before(span.start);
        self.errors.push(Diagnostic::error(Phase::Parse, span, message));
    }

    /// Coco's `errDist` rule: whether at least two tokens were consumed between the last error
    /// and one whose last consumed token is `index`; notes the new error.
    fn far_from_last_error(&mut self, index: i64) -> bool {
        let far = self.last_error_token.is_none_or(|last| index >= last + 2);
        self.last_error_token = Some(index);
        far
    }

    /// Boogie's parser `SynErr`: at the token that starts at `offset`, unless fewer than two
    /// tokens were consumed since the previous error.
    pub fn syntax_error(&mut self, offset: u32, message: String) {
        self.report_recovered_before(offset + 1);
        self.report_syntax_error(offset, message);
    }

    fn report_syntax_error(&mut self, offset: u32, message: String) {
        let index = self.token_ending_by(offset).map_or(-1, |(index, _, _)| index as i64);
        if self.far_from_last_error(index) {
            self.errors.push(Diagnostic::error(Phase::Parse, self.span(offset, offset), message));
        }
    }

    /// Sets the syntax errors an earlier parse recovered from, in order of offset.
    pub fn set_recovered(&mut self, recovered: impl IntoIterator<Item = (u32, String)>) {
        self.recovered = recovered.into_iter().collect();
    }

    /// Reports the recovered syntax errors that stand before `offset`.
    pub fn report_recovered_before(&mut self, offset: u32) {
        while let Some((at, _)) = self.recovered.front()
            && *at < offset
        {
            let (at, message) = self.recovered.pop_front().expect("a recovered error");
            self.report_syntax_error(at, message);
        }
    }

    /// The input between `l` and `r`: the text of the token(s) there. (Empty for a token
    /// assumed in error recovery, which has an empty span.)
    pub fn slice(&self, l: u32, r: u32) -> &'input str {
        self.text.get(l as usize..r as usize).unwrap_or_default()
    }

    /// The identifier (or keyword standing for one) between `l` and `r`, without the leading
    /// backslash that escapes a keyword.
    pub fn ident(&self, l: u32, r: u32) -> Ident {
        let text = self.slice(l, r);
        let name = text.strip_prefix('\\').unwrap_or(text);
        Ident::new(name, self.span(l, r))
    }

    /// The string literal between `l` and `r`, its quotes dropped.
    pub fn string_literal(&self, l: u32, r: u32) -> Expr {
        let text = self.slice(l, r);
        let contents = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text);
        self.expr(ExprKind::StrLit(Symbol::intern(contents)), l, r)
    }

    pub fn expr(&self, kind: ExprKind, l: u32, r: u32) -> Expr {
        Expr { kind, span: self.span(l, r), id: NodeId::NONE }
    }

    /// Attributes in a place where triggers are not allowed.
    pub fn attributes(&mut self, items: Vec<(AttrOrTrigger, u32)>) -> Box<[Attribute]> {
        let mut attrs = Vec::with_capacity(items.len());
        for (item, end) in items {
            match item {
                AttrOrTrigger::Attr(a) => attrs.push(a),
                AttrOrTrigger::Trigger(_) => self.sem_err(end, "only attributes, not triggers, allowed here"),
                AttrOrTrigger::Invalid => {}
            }
        }
        exact(attrs)
    }

    /// Reads `{:key params}`; `{:nopats e}` is a negative trigger.
    pub fn attribute(&mut self, key: Ident, params: Box<[Expr]>, l: u32, r: u32) -> AttrOrTrigger {
        let span = self.span(l, l + 1);
        let params: Box<[AttrParam]> = exact(
            params
                .into_iter()
                .map(|e| match e.kind {
                    ExprKind::StrLit(s) => AttrParam::Str(s.to_string(), e.span),
                    _ => AttrParam::Expr(e),
                })
                .collect(),
        );
        if key.name == "nopats" {
            if let [AttrParam::Expr(e)] = &params[..] {
                return AttrOrTrigger::Trigger(Trigger { positive: false, exprs: Box::new([e.clone()]), span });
            }
            // Boogie reports this after reading the parameters, before the closing brace.
            let before_brace = self.last_token(r.saturating_sub(1));
            self.sem_err(before_brace.end, "the 'nopats' quantifier attribute expects a string-literal parameter");
            return AttrOrTrigger::Invalid;
        }
        AttrOrTrigger::Attr(Attribute { key: key.name, params, span })
    }

    /// Variable groups in a place that may or may not allow where clauses (`context` names
    /// the place in Boogie's message).
    // The grammar boxes each group so that parser stack entries stay small.
    #[allow(clippy::vec_box)]
    pub fn groups(&mut self, raws: Box<[Box<RawGroup>]>, allowed: bool, context: &str) -> Box<[VarGroup]> {
        raws.into_iter()
            .map(|raw| {
                let RawGroup { mut group, where_end } = *raw;
                if !allowed && group.where_clause.take().is_some() {
                    self.sem_err(where_end, format!("where clause not allowed on {context}"));
                }
                group
            })
            .collect()
    }

    /// `e : n` in an expression: the bounds of an extract (`e[hi:lo]`). Boogie accepts only an
    /// integer literal before the colon.
    pub fn bv_bounds(&mut self, lhs: Expr, hi_text: &str, colon: Span, r: u32) -> Expr {
        let lo = match &lhs.kind {
            ExprKind::IntLit(digits) => Some(digits.parse::<u32>().unwrap_or(u32::MAX)),
            _ => None,
        };
        let hi = hi_text.parse::<u32>().unwrap_or(u32::MAX);
        let lo = match lo {
            Some(lo) => lo,
            None => {
                self.sem_err(r, "arguments of extract need to be integer literals");
                0
            }
        };
        // Boogie's BvBounds(x, bn, lower): the number after the colon is the upper bound.
        Expr { kind: ExprKind::BvBounds { hi: lo, lo: hi }, span: colon, id: NodeId::NONE }
    }

    /// `e[...]`: a select, a store, or an extract when the only index is `hi:lo`.
    pub fn bracket(&mut self, map: Expr, contents: Option<Bracket>, open: Span) -> Expr {
        let kind = match contents {
            None => ExprKind::Select { map: Box::new(map), indexes: Box::default() },
            Some(Bracket::Select(indexes)) => {
                let extract = match indexes.first() {
                    Some((Expr { kind: ExprKind::BvBounds { hi, lo }, .. }, _)) => Some((*hi, *lo)),
                    _ => None,
                };
                for (e, end) in indexes.iter().skip(1) {
                    if extract.is_some() || matches!(e.kind, ExprKind::BvBounds { .. }) {
                        self.sem_err(*end, "bitvectors only have one dimension");
                    }
                }
                match extract {
                    Some((hi, lo)) => ExprKind::Extract { arg: Box::new(map), hi, lo },
                    None => ExprKind::Select { map: Box::new(map), indexes: exprs_of(indexes) },
                }
            }
            Some(Bracket::Store(indexes, (value, end))) => {
                let first_is_bounds =
                    matches!(indexes.first(), Some((Expr { kind: ExprKind::BvBounds { .. }, .. }, _)));
                for (e, end) in indexes.iter().skip(1) {
                    if first_is_bounds || matches!(e.kind, ExprKind::BvBounds { .. }) {
                        self.sem_err(*end, "bitvectors only have one dimension");
                    }
                }
                if first_is_bounds || matches!(value.kind, ExprKind::BvBounds { .. }) {
                    self.sem_err(end, "assignment to bitvectors is not possible");
                }
                ExprKind::Store(Box::new(StoreExpr { map, indexes: exprs_of(indexes), value }))
            }
        };
        Expr { kind, span: open, id: NodeId::NONE }
    }

    /// Builds the tree of `e1 op1 e2 op2 ... en` by precedence climbing: all operators are
    /// left-associative except `**`.
    pub fn arithmetic(&mut self, ops: Vec<(Expr, ArithOp)>, last: Expr) -> Expr {
        if ops.is_empty() {
            return last;
        }
        let mut operands: Vec<Expr> = Vec::with_capacity(ops.len() + 1);
        let mut pending: Vec<ArithOp> = Vec::with_capacity(ops.len());
        let file = self.file;
        let reduce = |operands: &mut Vec<Expr>, op: ArithOp| {
            let rhs = operands.pop().expect("an operand per operator");
            let lhs = operands.pop().expect("an operand per operator");
            operands.push(op.apply(file, lhs, rhs));
        };
        let steps = ops.into_iter().map(|(e, op)| (e, Some(op))).chain(std::iter::once((last, None)));
        for (operand, op) in steps {
            operands.push(operand);
            let Some(op) = op else { break };
            // Left-associative operators first reduce pending operators of the same level;
            // `**` (right-associative) only those of higher levels (there are none).
            while let Some(&top) = pending.last() {
                let reduce_top = if op.level() == 4 { top.level() > 4 } else { top.level() >= op.level() };
                if !reduce_top {
                    break;
                }
                pending.pop();
                reduce(&mut operands, top);
            }
            pending.push(op);
        }
        while let Some(op) = pending.pop() {
            reduce(&mut operands, op);
        }
        operands.pop().expect("one expression")
    }

    /// Builds an assignment target from a variable and its index/field steps.
    pub fn lhs(&self, var: Ident, steps: Vec<LhsStep>) -> AssignLhs {
        let mut lhs = AssignLhs::Var(var);
        for step in steps {
            lhs = match step {
                LhsStep::Index(indexes, span) => AssignLhs::Select { base: Box::new(lhs), indexes, span },
                LhsStep::Field(field, span) => AssignLhs::Field { base: Box::new(lhs), field, span },
            };
        }
        lhs
    }

    /// A quantifier or lambda; `triggers` are reported for lambdas as Boogie does.
    #[allow(clippy::too_many_arguments, clippy::vec_box)]
    pub fn quantifier(
        &mut self,
        kind: QuantKind,
        keyword: Span,
        type_params: Box<[Ident]>,
        vars: Box<[Box<RawGroup>]>,
        items: Vec<AttrOrTrigger>,
        body: Expr,
        body_end: u32,
    ) -> Expr {
        let vars = self.groups(vars, false, "bound variables");
        let mut attrs = Vec::new();
        let mut triggers = Vec::new();
        for item in items {
            match item {
                AttrOrTrigger::Attr(a) => attrs.push(a),
                AttrOrTrigger::Trigger(t) => triggers.push(t),
                AttrOrTrigger::Invalid => {}
            }
        }
        if kind == QuantKind::Lambda && !triggers.is_empty() {
            self.sem_err(body_end, "triggers not allowed in lambda expressions");
            triggers.clear();
        }
        Expr {
            kind: ExprKind::Quant(Box::new(Quantifier {
                kind,
                type_params,
                vars,
                attrs: exact(attrs),
                triggers: exact(triggers),
                body,
            })),
            span: keyword,
            id: NodeId::NONE,
        }
    }

    /// Boogie's fix-up of function formals: in `f(x: int, y, z: bool)`, an unnamed formal
    /// that is a bare identifier before a named one takes that one's type.
    pub fn function_params(&mut self, mut params: Box<[FnParam]>) -> Box<[FnParam]> {
        if params.iter().all(|p| p.name.is_none()) {
            return params;
        }
        let mut prev_type: Option<Type> = None;
        for p in params.iter_mut().rev() {
            if p.name.is_some() {
                prev_type = Some(p.ty.clone());
                continue;
            }
            let Some(ty) = &prev_type else {
                self.error_at(p.span, "the type of the last parameter is unspecified");
                break;
            };
            match &p.ty.kind {
                TypeKind::Named { name, args } if args.is_empty() => {
                    p.name = Some(*name);
                    p.ty = ty.clone();
                }
                _ => self.error_at(p.span, "expecting an identifier as parameter name"),
            }
        }
        params
    }

    /// Boogie's checks on a function's `{:inline}` / `{:define}` body.
    pub fn function_checks(&mut self, f: &FunctionDecl, end: u32) {
        if f.body.is_none() {
            return;
        }
        let inline = find_bool_attribute(&f.attrs, "inline");
        let define = find_bool_attribute(&f.attrs, "define");
        if inline && define {
            self.sem_err(end, "function cannot have both :inline and :define attributes");
        } else if !inline && define && !f.type_params.is_empty() {
            self.sem_err(end, "function with :define attribute has to be monomorphic");
        }
    }

    /// Groups statements into big blocks exactly as Boogie's `StmtList` production does.
    pub fn stmt_list(&mut self, stmts: Vec<RawStmt>, end: Span) -> StmtList {
        // Commands and blocks gather in buffers kept from list to list, and leave them in
        // exactly sized slices; a vector per list would keep up to half its room unused.
        let mut blocks = std::mem::take(&mut self.block_buffer);
        let mut cmds = std::mem::take(&mut self.cmd_buffer);
        let mut start: Option<Span> = None;
        let mut label: Option<Ident> = None;
        for stmt in stmts {
            match stmt {
                RawStmt::Cmd(c) => {
                    start.get_or_insert(c.span);
                    cmds.push(*c);
                }
                RawStmt::Label(l) => {
                    if let Some(span) = start.take() {
                        blocks.push(BigBlock { label: label.take(), cmds: drain_exact(&mut cmds), tail: None, span });
                    }
                    start = Some(l.span);
                    label = Some(l);
                }
                RawStmt::Tail(tail) => {
                    let span = start.take().unwrap_or_else(|| tail_span(&tail));
                    blocks.push(BigBlock { label: label.take(), cmds: drain_exact(&mut cmds), tail: Some(tail), span });
                }
            }
        }
        if start.is_none() && blocks.is_empty() {
            start = Some(end);
        }
        if let Some(span) = start {
            blocks.push(BigBlock { label, cmds: drain_exact(&mut cmds), tail: None, span });
        }
        let list = StmtList { blocks: drain_exact(&mut blocks), end };
        self.block_buffer = blocks;
        self.cmd_buffer = cmds;
        list
    }

    /// The label checks Boogie makes when it builds an implementation's blocks: every `goto`
    /// target is a label of the implementation, and every `break` leaves an enclosing loop
    /// (or, with a label, an enclosing labelled statement).
    pub fn check_labels(&mut self, body: &StmtList) {
        let mut all = std::collections::HashSet::new();
        collect_labels(body, &mut all);
        let mut enclosing: Vec<&BigBlock> = Vec::new();
        self.check_list(body, &all, &mut enclosing);
    }

    fn check_list<'b>(
        &mut self,
        list: &'b StmtList,
        all: &std::collections::HashSet<Symbol>,
        enclosing: &mut Vec<&'b BigBlock>,
    ) {
        for bb in &list.blocks {
            match &bb.tail {
                Some(BlockTail::Goto { targets, span, .. }) => {
                    for t in targets {
                        if !all.contains(&t.name) {
                            self.error_at(*span, format!("Error: goto label '{}' is undefined", t.name));
                        }
                    }
                }
                Some(BlockTail::Break { label, span }) => {
                    let mut found = false;
                    for outer in enclosing.iter().rev() {
                        match label {
                            None => {
                                if matches!(outer.tail, Some(BlockTail::While(_))) {
                                    found = true;
                                    break;
                                }
                            }
                            Some(l) => {
                                if outer.label.is_some_and(|ol| ol.name == l.name) {
                                    if !outer.cmds.is_empty() {
                                        self.error_at(
                                            *span,
                                            format!(
                                                "Error: break label '{}' must designate an enclosing statement",
                                                l.name
                                            ),
                                        );
                                    }
                                    found = true;
                                    break;
                                }
                            }
                        }
                    }
                    if !found {
                        match label {
                            None => self.error_at(*span, "Error: break statement is not inside a loop"),
                            Some(l) => self.error_at(
                                *span,
                                format!("Error: break label '{}' must designate an enclosing statement", l.name),
                            ),
                        }
                    }
                }
                Some(tail @ (BlockTail::While(_) | BlockTail::If(_))) => {
                    enclosing.push(bb);
                    for nested in tail.nested_lists() {
                        self.check_list(nested, all, enclosing);
                    }
                    enclosing.pop();
                }
                _ => {}
            }
        }
    }
}

fn collect_labels(list: &StmtList, all: &mut std::collections::HashSet<Symbol>) {
    for bb in &list.blocks {
        if let Some(l) = &bb.label {
            all.insert(l.name);
        }
        for nested in bb.tail.iter().flat_map(BlockTail::nested_lists) {
            collect_labels(nested, all);
        }
    }
}

/// Moves the contents of `buffer` to an exactly sized slice, keeping the buffer's room.
fn drain_exact<T>(buffer: &mut Vec<T>) -> Box<[T]> {
    let mut items = Vec::with_capacity(buffer.len());
    items.append(buffer);
    items.into_boxed_slice()
}

/// The expressions of an index list, without their end offsets.
fn exprs_of(indexes: Box<[(Expr, u32)]>) -> Box<[Expr]> {
    exact(indexes.into_iter().map(|(e, _)| e).collect())
}

/// Boogie's `FindBoolAttribute`: present with no parameter or with the single literal `true`.
pub fn find_bool_attribute(attrs: &[Attribute], key: &str) -> bool {
    attrs.iter().any(|a| {
        a.key == key
            && (a.params.is_empty()
                || matches!(&a.params[..], [AttrParam::Expr(Expr { kind: ExprKind::BoolLit(true), .. })]))
    })
}

impl Ctx<'_> {
    /// `5bv32`
    pub fn bv_literal(&mut self, text: &str, l: u32, r: u32) -> Expr {
        let (value, width) = text.split_once("bv").unwrap_or((text, "0"));
        let width = match width.parse::<u32>() {
            Ok(w) => w,
            Err(_) => {
                self.sem_err(r, "incorrectly formatted bitvector");
                0
            }
        };
        self.expr(ExprKind::BvLit { value: Symbol::intern(value), width }, l, r)
    }

    /// A float literal; Boogie rejects one whose value does not fit its format exactly.
    pub fn float_literal(&mut self, text: &str, l: u32, r: u32) -> Expr {
        if !crate::parser::float::is_well_formed(text) {
            self.sem_err(r, "incorrectly formatted floating point");
        }
        self.expr(ExprKind::FloatLit(Symbol::intern(text)), l, r)
    }
}
