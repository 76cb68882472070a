//! Implementation division: one implementation's passive program as several VCs ("splits"),
//! each checking some of its assertions and assuming the others (Boogie's
//! `ManualSplitFinder` and its handlers, `FocusAttributeHandler`,
//! `IsolateAttributeOnJumpsHandler`, `IsolateAttributeOnAssertsHandler`,
//! `SplitAttributeHandler` and `BlockRewriter`).
//!
//! Expects the passive blocks of one implementation (a DAG, entry first, in the order Boogie's
//! `PruneUnreachableBlocks` leaves them). Guarantees that every assertion is checked, on every
//! path to it, by at least one split, so an implementation whose splits all verify is verified:
//! - `{:focus}` (on an assumption or assertion): each focus block either is focused on (the
//!   split keeps only the paths through it, and what comes before it is assumed) or is not
//!   (the split drops the blocks it dominates): 2^N parts for N foci, those through every
//!   choice together covering every path;
//! - in each of those, isolated jumps: a `goto` with `{:isolate}` (under
//!   `/vcsSplitOnEveryAssert` also every goto a source `return` became) gives a split of the
//!   blocks before it (assumed) and after it; the part without them (those gotos now return)
//!   comes first; `{:isolate "paths"}` one split per choice of target at each
//!   `{:allow_path_isolation}` goto;
//! - in each of those, isolated assertions (`{:isolate}`, or every assertion under
//!   `/vcsSplitOnEveryAssert`): a split of the blocks that reach it, cut after it, the others'
//!   assertions assumed; then the part with those assumed;
//! - in that part, `{:split_here}`: the assertions up to the first split, then those after
//!   each split up to the next one on every path it dominates.
//!
//! A split that checks nothing is dropped; if none is left, the first part is checked alone.
//! Each split is named as Boogie names it (`-N/focus[+16,-20]/afterSplit@15`), and its blocks
//! are Boogie's to the letter (blocks that lead to no assertion dropped, chains coalesced), since
//! `/printSplit` prints them and execution traces name them.
//!
//! Boogie's collections are ordered sets and lists; where their order decides the order of
//! splits or of blocks, these functions follow it (reachability in the order a depth-first
//! search with a stack visits, topological order as Boogie's `TarjanTopSort` takes it).

use super::Isolate;
use super::passify::{PCmd, PassiveBlock, boogie_topological_order};
use super::shown::{is_focus, is_split_here};
use crate::ast::Span;

/// One split of an implementation: Boogie's `ManualSplit`, its origin's short name (appended
/// to `Name-N` when printed) and its blocks.
#[derive(Clone, Debug)]
pub struct Part {
    pub name: String,
    pub blocks: Vec<PassiveBlock>,
}

fn is_goto(b: &PassiveBlock) -> bool {
    !b.succs.is_empty() || b.goto_nowhere
}

fn has_assert(b: &PassiveBlock) -> bool {
    b.cmds.iter().any(|c| matches!(c, PCmd::Assert(..)))
}

/// Boogie's `IsNonTrivialAssert`: an assertion of anything but the literal `true`.
fn has_nontrivial_assert(b: &PassiveBlock) -> bool {
    b.cmds.iter().any(is_nontrivial_assert)
}

fn is_nontrivial_assert(c: &PCmd) -> bool {
    matches!(c, PCmd::Assert(t, ..) if t != "true")
}

fn is_split(c: &PCmd) -> bool {
    match c {
        PCmd::Assume(_, info) | PCmd::Assert(_, _, _, info) => is_split_here(info),
        _ => false,
    }
}

/// The line of `span`, as a split's name shows it (0 for none).
fn line(sources: &crate::source::SourceMap, span: Option<Span>) -> i64 {
    match span {
        Some(s) if sources.files().any(|(id, _)| id == s.file) => sources.position(s).line,
        _ => 0,
    }
}

fn predecessors(blocks: &[PassiveBlock]) -> Vec<Vec<usize>> {
    super::passify::predecessors_of(blocks)
}

/// Boogie's `Graph.ComputeReachability`: the blocks reached from `from` (itself first) along
/// `edges`, in the order a depth-first search with a stack visits them.
fn reach(edges: &[Vec<usize>], from: usize) -> Vec<usize> {
    let mut seen = vec![false; edges.len()];
    let mut order = Vec::new();
    let mut todo = vec![from];
    while let Some(b) = todo.pop() {
        if std::mem::replace(&mut seen[b], true) {
            continue;
        }
        order.push(b);
        for &t in &edges[b] {
            if !seen[t] {
                todo.push(t);
            }
        }
    }
    order
}

fn set_of(n: usize, members: &[usize]) -> Vec<bool> {
    let mut set = vec![false; n];
    for &b in members {
        set[b] = true;
    }
    set
}

/// Appends to `list` the members of `more` not in it (LINQ's `Union`, which keeps order).
fn union(list: &[usize], more: &[usize]) -> Vec<usize> {
    let mut out = list.to_vec();
    let mut seen = set_of(list.iter().chain(more).copied().max().map_or(0, |m| m + 1), list);
    for &b in more {
        if !seen[b] {
            seen[b] = true;
            out.push(b);
        }
    }
    out
}

/// Boogie's `BlockRewriter` on one part's blocks: its DAG in Boogie's topological order.
struct Rewriter<'b> {
    blocks: &'b [PassiveBlock],
    succs: Vec<Vec<usize>>,
    preds: Vec<Vec<usize>>,
    order: Vec<usize>,
}

impl<'b> Rewriter<'b> {
    fn new(blocks: &'b [PassiveBlock]) -> Rewriter<'b> {
        let succs: Vec<Vec<usize>> = blocks.iter().map(|b| b.succs.clone()).collect();
        let preds = predecessors(blocks);
        let order = boogie_topological_order(&succs);
        Rewriter { blocks, succs, preds, order }
    }

    fn n(&self) -> usize {
        self.blocks.len()
    }

    /// `ComputeNewBlocks`: copies of the blocks `include` holds (all when `None`), in
    /// topological order, their gotos to blocks left out dropped, each changed by `update`
    /// (given the original's index); then `DeleteBlocksNotLeadingToAssertions` and
    /// `CoalesceInPlace`.
    fn new_blocks(
        &self,
        include: Option<&[bool]>,
        mut update: impl FnMut(usize, &mut PassiveBlock),
    ) -> Vec<PassiveBlock> {
        let included = |b: usize| include.is_none_or(|set| set[b]);
        let kept: Vec<usize> = self.order.iter().copied().filter(|&b| included(b)).collect();
        let mut index = vec![usize::MAX; self.n()];
        for (i, &b) in kept.iter().enumerate() {
            index[b] = i;
        }
        let mut out: Vec<PassiveBlock> = Vec::with_capacity(kept.len());
        for &b in &kept {
            let mut block = self.blocks[b].clone();
            if is_goto(&block) {
                block.succs = block.succs.iter().filter(|&&s| included(s)).map(|&s| index[s]).collect();
                block.goto_nowhere = block.succs.is_empty();
            }
            update(b, &mut block);
            out.push(block);
        }
        delete_blocks_not_leading_to_assertions(&mut out);
        coalesce(&mut out);
        out
    }

    /// `DominatedBlocks`: the blocks of `subgraph` that `focus` dominates within it.
    fn dominated_blocks(&self, focus: usize, subgraph: &[bool]) -> Vec<bool> {
        let n = self.n();
        let mut dominators: Vec<Option<Vec<bool>>> = vec![None; n];
        for &b in self.order.iter().filter(|&&b| subgraph[b]) {
            let mut set: Option<Vec<bool>> = None;
            for &p in self.preds[b].iter().filter(|&&p| subgraph[p]) {
                let pd = dominators[p].as_ref().expect("a predecessor comes first");
                set = Some(match set {
                    None => pd.clone(),
                    Some(s) => s.iter().zip(pd).map(|(x, y)| *x && *y).collect(),
                });
            }
            let mut set = set.unwrap_or_else(|| vec![false; n]);
            set[b] = true;
            dominators[b] = Some(set);
        }
        (0..n).map(|b| subgraph[b] && dominators[b].as_ref().is_some_and(|d| d[focus])).collect()
    }

    /// The blocks that dominate `target` on the whole DAG (`DominatorMap.DominatedBy`).
    fn dominators_of(&self, target: usize) -> Vec<bool> {
        let n = self.n();
        let mut dom: Vec<Option<Vec<bool>>> = vec![None; n];
        for &b in &self.order {
            let mut d: Option<Vec<bool>> = None;
            for &p in &self.preds[b] {
                if let Some(pd) = &dom[p] {
                    d = Some(match d {
                        None => pd.clone(),
                        Some(cur) => cur.iter().zip(pd).map(|(x, y)| *x && *y).collect(),
                    });
                }
            }
            let mut d = d.unwrap_or_else(|| vec![false; n]);
            d[b] = true;
            dom[b] = Some(d);
        }
        dom[target].take().unwrap_or_else(|| vec![false; n])
    }

    /// `GetSplitsForIsolatedPaths`: for each choice of a target at each
    /// `{:allow_path_isolation}` goto among `include` (in `include`'s order), the blocks of
    /// that choice, `last` cut there (it returns, its token `ret`), the others' assertions
    /// assumed; named `origin/path[LINES]` (the lines of the chosen targets, when a goto had a
    /// choice). Without such gotos, the whole part in topological order, named `origin`.
    fn isolated_paths(
        &self,
        sources: &crate::source::SourceMap,
        last: usize,
        include: &[usize],
        origin: &str,
        ret: Option<Span>,
    ) -> Vec<Part> {
        let gotos: Vec<usize> = include
            .iter()
            .copied()
            .filter(|&b| is_goto(&self.blocks[b]) && self.blocks[b].jump.allow_path_isolation)
            .collect();
        if gotos.is_empty() {
            let blocks: Vec<PassiveBlock> = self.reordered();
            return vec![Part { name: origin.to_string(), blocks }];
        }
        let mut out = Vec::new();
        let set = set_of(self.n(), include);
        self.choose(sources, &gotos, 0, Vec::new(), set, last, origin, ret, &mut out);
        out
    }

    /// The blocks in topological order, renumbered (Boogie hands its `OrderedBlocks` over).
    fn reordered(&self) -> Vec<PassiveBlock> {
        let mut index = vec![usize::MAX; self.n()];
        for (i, &b) in self.order.iter().enumerate() {
            index[b] = i;
        }
        self.order
            .iter()
            .map(|&b| {
                let mut block = self.blocks[b].clone();
                block.succs = block.succs.iter().map(|&s| index[s]).collect();
                block
            })
            .collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn choose(
        &self,
        sources: &crate::source::SourceMap,
        gotos: &[usize],
        at: usize,
        choices: Vec<Span>,
        set: Vec<bool>,
        last: usize,
        origin: &str,
        ret: Option<Span>,
        out: &mut Vec<Part>,
    ) {
        if !set.iter().any(|&x| x) {
            return;
        }
        let Some(&g) = gotos.get(at) else {
            let blocks = self.new_blocks(Some(&set), |b, block| {
                if b == last {
                    block.succs.clear();
                    block.goto_nowhere = false;
                    block.from_return = false;
                    block.ret = ret;
                } else {
                    block.cmds = block.cmds.iter().map(PCmd::assumed).collect();
                }
            });
            let mut choices = choices;
            choices.sort_by_key(|s| (s.file.0, s.start));
            let lines: Vec<String> = choices.iter().map(|&s| line(sources, Some(s)).to_string()).collect();
            out.push(Part { name: format!("{origin}/path[{}]", lines.join(",")), blocks });
            return;
        };
        if !set[g] {
            return self.choose(sources, gotos, at + 1, choices, set, last, origin, ret, out);
        }
        let targets: Vec<usize> = self.succs[g].iter().copied().filter(|&t| set[t]).collect();
        // The choice of no target: the blocks that dominate the goto.
        let dominators = self.dominators_of(g);
        let remaining: Vec<bool> = (0..self.n()).map(|b| set[b] && dominators[b]).collect();
        self.choose(sources, gotos, at + 1, choices.clone(), remaining, last, origin, ret, out);
        let add_choice = targets.len() > 1;
        let ancestors = set_of(self.n(), &reach(&self.preds, g));
        for &t in &targets {
            let descendants = set_of(self.n(), &reach(&self.succs, t));
            let chosen: Vec<bool> = (0..self.n()).map(|b| set[b] && (ancestors[b] || descendants[b])).collect();
            let mut next = choices.clone();
            if add_choice && let Some(tok) = self.blocks[t].tok {
                next.push(tok);
            }
            self.choose(sources, gotos, at + 1, next, chosen, last, origin, ret, out);
        }
    }
}

/// Boogie's `DeleteBlocksNotLeadingToAssertions`: the blocks reached from the first from which
/// no assertion is reached are dropped (the first stays), and gotos to them; a goto left with
/// no target stays a goto (`goto ;`). Gotos lose their attributes (Boogie makes new ones).
fn delete_blocks_not_leading_to_assertions(blocks: &mut Vec<PassiveBlock>) {
    let n = blocks.len();
    if n == 0 {
        return;
    }
    let mut todo = vec![0];
    let mut peeked = vec![false; n];
    let mut interesting = vec![false; n];
    while let Some(&cur) = todo.last() {
        let pop = std::mem::replace(&mut peeked[cur], true);
        let mut found = false;
        if is_goto(&blocks[cur]) {
            if pop {
                let block = &mut blocks[cur];
                block.succs.retain(|&s| interesting[s]);
                block.goto_nowhere = block.succs.is_empty();
                block.goto_attrs = false;
                block.jump.isolate = None;
                block.jump.allow_path_isolation = false;
                found = !block.succs.is_empty();
            } else {
                todo.extend(blocks[cur].succs.iter().copied());
            }
        }
        if pop {
            if found || has_nontrivial_assert(&blocks[cur]) {
                interesting[cur] = true;
            }
            todo.pop();
        }
    }
    interesting[0] = true;
    keep(blocks, &interesting);
}

/// Keeps the blocks `kept` marks, in order, renumbering the gotos (to kept blocks only).
fn keep(blocks: &mut Vec<PassiveBlock>, kept: &[bool]) {
    let mut index = vec![usize::MAX; blocks.len()];
    let mut k = 0;
    for (b, &keep) in kept.iter().enumerate() {
        if keep {
            index[b] = k;
            k += 1;
        }
    }
    let old = std::mem::take(blocks);
    for (b, mut block) in old.into_iter().enumerate() {
        if kept[b] {
            block.succs = block.succs.iter().map(|&s| index[s]).filter(|&s| s != usize::MAX).collect();
            blocks.push(block);
        }
    }
}

/// Boogie's `BlockCoalescer.CoalesceInPlace`: a block whose goto has one target, which has
/// no other predecessor, takes that target's commands and transfer (keeping its own transfer
/// token where the target's is none); a block without a token takes the target's name and
/// token. Only blocks reached from the first are kept.
pub fn coalesce(blocks: &mut Vec<PassiveBlock>) {
    let n = blocks.len();
    if n == 0 {
        return;
    }
    let mut visited = vec![false; n];
    let mut multi = vec![false; n];
    let mut stack = vec![0];
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut visited[b], true) {
            multi[b] = true;
            continue;
        }
        stack.extend(blocks[b].succs.iter().copied());
    }
    let mut visited = vec![false; n];
    let mut removed = vec![false; n];
    let mut stack = vec![0];
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut visited[b], true) {
            continue;
        }
        if !is_goto(&blocks[b]) {
            continue;
        }
        if blocks[b].succs.len() != 1 {
            stack.extend(blocks[b].succs.iter().copied());
            continue;
        }
        let s = blocks[b].succs[0];
        if multi[s] {
            stack.push(s);
            continue;
        }
        let succ = blocks[s].clone();
        let token_valid = if is_goto(&succ) { true } else { succ.ret.is_some() || succ.from_return };
        let block = &mut blocks[b];
        block.cmds.extend(succ.cmds);
        // The transfer is the successor's; one without a token keeps this block's token.
        if !token_valid {
            let (ret, from_return) = (block.ret, block.from_return);
            block.ret = ret;
            block.from_return = from_return;
        } else {
            block.ret = succ.ret;
            block.from_return = succ.from_return;
        }
        block.succs = succ.succs;
        block.goto_nowhere = succ.goto_nowhere;
        block.goto_attrs = succ.goto_attrs;
        block.jump = succ.jump;
        if block.tok.is_none() && succ.tok.is_some() {
            block.tok = succ.tok;
            block.label = succ.label;
        }
        removed[s] = true;
        stack.push(b);
        visited[b] = false;
    }
    let kept: Vec<bool> = (0..n).map(|b| visited[b] && !removed[b]).collect();
    keep(blocks, &kept);
}

/// Boogie's `BlockTransformations.Optimize`, which a `{:split_here}` part gets: commands after
/// an `assume false` dropped (the block returns), blocks leading to no assertion dropped,
/// empty blocks with at most one successor dropped, chains coalesced.
fn optimize(blocks: &mut Vec<PassiveBlock>) {
    for block in blocks.iter_mut() {
        if let Some(i) = block.cmds.iter().position(|c| matches!(c, PCmd::Assume(t, _) if t == "false")) {
            block.cmds.truncate(i + 1);
            if is_goto(block) {
                block.succs.clear();
                block.goto_nowhere = false;
                block.from_return = false;
                block.ret = block.tok;
            }
        }
    }
    delete_blocks_not_leading_to_assertions(blocks);
    delete_straight_line_blocks_without_commands(blocks);
    coalesce(blocks);
}

/// Boogie's `DeleteStraightLineBlocksWithoutCommands` as it runs on a `{:split_here}` part,
/// whose blocks Boogie has given no predecessors: every empty block without two or more
/// successors goes (handing its name and token on to a successor without one), as long as
/// more than one block is left; its predecessors jump to its successor.
fn delete_straight_line_blocks_without_commands(blocks: &mut Vec<PassiveBlock>) {
    let n = blocks.len();
    let mut removed = vec![false; n];
    let mut left = n;
    for b in 0..n {
        if left <= 1 {
            break;
        }
        if !blocks[b].cmds.is_empty() || blocks[b].succs.len() > 1 {
            continue;
        }
        let successor = blocks[b].succs.first().copied();
        if let Some(s) = successor
            && blocks[s].tok.is_none()
            && blocks[b].tok.is_some()
        {
            blocks[s].tok = blocks[b].tok;
            blocks[s].label = blocks[b].label.clone();
        }
        removed[b] = true;
        left -= 1;
        for p in 0..n {
            if let Some(k) = blocks[p].succs.iter().position(|&x| x == b) {
                blocks[p].succs.remove(k);
                if let Some(s) = successor
                    && !blocks[p].succs.contains(&s)
                {
                    blocks[p].succs.insert(k, s);
                }
                blocks[p].goto_nowhere = blocks[p].succs.is_empty() && (blocks[p].goto_nowhere || successor.is_none());
            }
        }
    }
    // A removed first block (an empty entry) leaves its successor first: it comes next in
    // Boogie's depth-first order of blocks.
    let kept: Vec<bool> = removed.iter().map(|r| !r).collect();
    keep(blocks, &kept);
}

/// What division needs to know of the implementation and the command line.
pub struct Divide<'s> {
    pub sources: &'s crate::source::SourceMap,
    /// `/vcsSplitOnEveryAssert`, or the implementation's `{:vcs_split_on_every_assert}`.
    pub every_assert: bool,
}

/// Boogie's `ManualSplitFinder.GetParts`: the splits of an implementation's passive blocks,
/// in Boogie's order (see the module header).
pub fn divide(blocks: Vec<PassiveBlock>, cx: &Divide) -> Vec<Part> {
    let focused = focus_parts(blocks, cx);
    let mut result = Vec::new();
    for part in &focused {
        let (isolated, remainder) = isolate_jumps(part, cx);
        for p in std::iter::once(remainder).chain(isolated) {
            let (isolated_asserts, rest) = isolate_asserts(p, cx);
            result.extend(isolated_asserts);
            result.extend(split_here_parts(rest, cx));
        }
    }
    result.retain(|p| p.blocks.iter().any(has_assert));
    if result.is_empty() {
        return focused.into_iter().take(1).collect();
    }
    result
}

/// `FocusAttributeHandler.GetParts`.
fn focus_parts(blocks: Vec<PassiveBlock>, cx: &Divide) -> Vec<Part> {
    let rw = Rewriter::new(&blocks);
    let foci: Vec<(usize, Option<Span>)> = rw
        .order
        .iter()
        .filter_map(|&b| {
            blocks[b].cmds.iter().find_map(|c| match c {
                PCmd::Assume(_, info) | PCmd::Assert(_, _, _, info) if is_focus(info) => {
                    Some((b, info.as_ref().and_then(|i| i.tok)))
                }
                _ => None,
            })
        })
        .collect();
    if foci.is_empty() {
        drop(rw);
        return vec![Part { name: String::new(), blocks }];
    }
    let n = blocks.len();
    let ancestors: Vec<Vec<bool>> = foci
        .iter()
        .map(|&(b, _)| {
            let mut set = set_of(n, &reach(&rw.preds, b));
            set[b] = false;
            set
        })
        .collect();
    let descendants: Vec<Vec<bool>> = foci.iter().map(|&(b, _)| set_of(n, &reach(&rw.succs, b))).collect();
    let mut out = Vec::new();
    let mut focused = vec![false; foci.len()];
    focus_from(&rw, cx, &foci, &ancestors, &descendants, 0, &mut focused, vec![true; n], vec![false; n], &mut out);
    out
}

#[allow(clippy::too_many_arguments)]
fn focus_from(
    rw: &Rewriter,
    cx: &Divide,
    foci: &[(usize, Option<Span>)],
    ancestors: &[Vec<bool>],
    descendants: &[Vec<bool>],
    at: usize,
    focused: &mut Vec<bool>,
    include: Vec<bool>,
    free: Vec<bool>,
    out: &mut Vec<Part>,
) {
    let Some(&(block, _)) = foci.get(at) else {
        // The blocks before a focus are assumed.
        let blocks = rw.new_blocks(Some(&include), |b, nb| {
            if free[b] {
                nb.cmds = nb.cmds.iter().map(PCmd::assumed).collect();
            }
        });
        let name = if focused.iter().any(|&f| f) {
            let choices: Vec<String> = foci
                .iter()
                .zip(focused.iter())
                .map(|(&(_, tok), &f)| format!("{}{}", if f { '+' } else { '-' }, line(cx.sources, tok)))
                .collect();
            format!("/focus[{}]", choices.join(","))
        } else {
            String::new()
        };
        out.push(Part { name, blocks });
        return;
    };
    if !include[block] || free[block] {
        return focus_from(rw, cx, foci, ancestors, descendants, at + 1, focused, include, free, out);
    }
    // Not focused on: without the blocks it dominates.
    let dominated = rw.dominated_blocks(block, &include);
    let without: Vec<bool> = (0..include.len()).map(|b| include[b] && !dominated[b]).collect();
    focus_from(rw, cx, foci, ancestors, descendants, at + 1, focused, without, free.clone(), out);
    // Focused on: its ancestors (assumed) and descendants.
    let through: Vec<bool> =
        (0..include.len()).map(|b| include[b] && (ancestors[at][b] || descendants[at][b])).collect();
    let free: Vec<bool> = (0..include.len()).map(|b| free[b] || ancestors[at][b]).collect();
    focused[at] = true;
    focus_from(rw, cx, foci, ancestors, descendants, at + 1, focused, through, free, out);
    focused[at] = false;
}

/// `IsolateAttributeOnJumpsHandler.GetParts`: the isolated jumps' splits, and the part
/// without them.
fn isolate_jumps(part: &Part, cx: &Divide) -> (Vec<Part>, Part) {
    let blocks = &part.blocks;
    let rw = Rewriter::new(blocks);
    let n = blocks.len();
    let mut results = Vec::new();
    let mut isolated = vec![false; n];
    for b in 0..n {
        let block = &blocks[b];
        if !is_goto(block) {
            continue;
        }
        let of_assert = block.from_return && block.jump.source_return;
        if !(block.jump.isolate.is_some() || (of_assert && cx.every_assert)) {
            continue;
        }
        isolated[b] = true;
        let ancestors = reach(&rw.preds, b);
        let descendants = reach(&rw.succs, b);
        let include = union(&ancestors, &descendants);
        // Named after the return a goto from a return came from, else the goto.
        let (kind, tok) = if block.from_return { ("return", block.ret) } else { ("goto", block.jump.tok) };
        let origin = format!("{}/{kind}@{}", part.name, line(cx.sources, tok));
        if block.jump.isolate == Some(Isolate::Paths) {
            // From a return, whose one target is the exit.
            let Some(&last) = block.succs.first() else { continue };
            results.extend(rw.isolated_paths(cx.sources, last, &include, &origin, block.ret));
        } else {
            let ancestors = set_of(n, &ancestors);
            let include = set_of(n, &include);
            let from_return = block.from_return.then_some(block.ret);
            let new = rw.new_blocks(Some(&include), |x, nb| {
                if ancestors[x] {
                    nb.cmds = nb.cmds.iter().map(PCmd::assumed).collect();
                } else if !is_goto(nb)
                    && let Some(ret) = from_return
                {
                    // The return it came from ends the split.
                    nb.ret = ret;
                    nb.from_return = false;
                }
            });
            results.push(Part { name: origin, blocks: new });
        }
    }
    if results.is_empty() {
        return (results, part.clone());
    }
    let remainder = rw.new_blocks(None, |x, nb| {
        if isolated[x] {
            nb.succs.clear();
            nb.goto_nowhere = false;
            nb.from_return = false;
            nb.ret = None;
        }
    });
    (results, Part { name: format!("{}/remainingAssertions", part.name), blocks: remainder })
}

/// `IsolateAttributeOnAssertsHandler.GetParts`: the isolated assertions' splits, and the part
/// with them assumed (the part itself if it isolates none).
fn isolate_asserts(part: Part, cx: &Divide) -> (Vec<Part>, Part) {
    let blocks = &part.blocks;
    let rw = Rewriter::new(blocks);
    let n = blocks.len();
    let mut results = Vec::new();
    let mut isolated: Vec<Vec<usize>> = vec![Vec::new(); n];
    for b in 0..n {
        for (i, c) in blocks[b].cmds.iter().enumerate() {
            let PCmd::Assert(_, check, ..) = c else { continue };
            if !(cx.every_assert || check.isolate.is_some()) {
                continue;
            }
            isolated[b].push(i);
            if check.isolate == Some(Isolate::Paths) {
                // Named from the implementation, not the part (as Boogie does).
                let origin = format!("/assert@{}", line(cx.sources, Some(check.tok)));
                let include = rw.order.clone();
                for mut p in rw.isolated_paths(cx.sources, b, &include, &origin, None) {
                    if let Some(last) = p.blocks.last_mut() {
                        last.cmds = cut_at(&last.cmds, c);
                    }
                    results.push(p);
                }
            } else {
                let ancestors = set_of(n, &reach(&rw.preds, b));
                let new = rw.new_blocks(Some(&ancestors), |x, nb| {
                    nb.cmds = if x == b {
                        // Up to the assertion, those before it assumed.
                        let mut cmds: Vec<PCmd> = blocks[b].cmds[..i].iter().map(PCmd::assumed).collect();
                        cmds.push(c.clone());
                        cmds
                    } else {
                        nb.cmds.iter().map(PCmd::assumed).collect()
                    };
                });
                results.push(Part {
                    name: format!("{}/assert@{}", part.name, line(cx.sources, Some(check.tok))),
                    blocks: new,
                });
            }
        }
    }
    if results.is_empty() {
        return (results, part);
    }
    let rest = rw.new_blocks(None, |x, nb| {
        for &i in &isolated[x] {
            nb.cmds[i] = nb.cmds[i].assumed();
        }
    });
    (results, Part { name: part.name.clone(), blocks: rest })
}

/// `GetCommandsForBlockWithAssert`: the commands up to the assertion `assert` (found by its
/// check), the assertions before it assumed; all of them, assumed, if it is not there.
fn cut_at(cmds: &[PCmd], assert: &PCmd) -> Vec<PCmd> {
    let key = |c: &PCmd| match c {
        PCmd::Assert(t, check, ..) => Some((t.clone(), check.tok, check.kind.clone())),
        _ => None,
    };
    let wanted = key(assert);
    let mut out = Vec::new();
    for c in cmds {
        if key(c).is_some() && key(c) == wanted {
            out.push(c.clone());
            break;
        }
        out.push(c.assumed());
    }
    out
}

/// `SplitAttributeHandler.GetParts`: the part up to the first `{:split_here}`, then one after
/// each split (in block order), each `Optimize`d; parts that check nothing are left out.
fn split_here_parts(part: Part, cx: &Divide) -> Vec<Part> {
    let blocks = &part.blocks;
    let n = blocks.len();
    let splits: Vec<Vec<usize>> = blocks
        .iter()
        .map(|b| b.cmds.iter().enumerate().filter(|(_, c)| is_split(c)).map(|(i, _)| i).collect())
        .collect();
    if splits.iter().all(Vec::is_empty) {
        return vec![part];
    }
    // Each block's split: the last split of its immediate dominator, or its dominator's.
    let succs: Vec<Vec<usize>> = blocks.iter().map(|b| b.succs.clone()).collect();
    let idom = immediate_dominators(&succs);
    let mut start: Vec<Option<Option<(usize, usize)>>> = vec![None; n];
    let mut todo = vec![0];
    while let Some(b) = todo.pop() {
        if start[b].is_some() {
            continue;
        }
        start[b] = Some(match idom[b] {
            None => None,
            Some(d) => match splits[d].last() {
                Some(&i) => Some((d, i)),
                None => start[d].flatten(),
            },
        });
        todo.extend(blocks[b].succs.iter().copied());
    }
    let start: Vec<Option<(usize, usize)>> = start.into_iter().map(Option::flatten).collect();
    let is_split_at = |b: usize, i: usize| splits[b].contains(&i);
    // The part after `split` (`None`: before the first), whose split is in `with_split`.
    let after = |with_split: usize, split: Option<(usize, usize)>| -> Option<Vec<PassiveBlock>> {
        let mut asserts = 0;
        let mut new: Vec<PassiveBlock> = blocks.clone();
        for (b, nb) in new.iter_mut().enumerate() {
            let cmds = &blocks[b].cmds;
            nb.cmds = if b == with_split {
                let mut verify = false;
                cmds.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        if is_split_at(b, i) {
                            verify = split == Some((b, i));
                        }
                        if verify && is_nontrivial_assert(c) {
                            asserts += 1;
                        }
                        if verify { c.clone() } else { c.assumed() }
                    })
                    .collect()
            } else if start[b] == split {
                let mut verify = true;
                cmds.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        verify &= !is_split_at(b, i);
                        if verify && is_nontrivial_assert(c) {
                            asserts += 1;
                        }
                        if verify { c.clone() } else { c.assumed() }
                    })
                    .collect()
            } else {
                cmds.iter().map(PCmd::assumed).collect()
            };
        }
        (asserts > 0).then(|| {
            optimize(&mut new);
            new
        })
    };
    let mut out = Vec::new();
    if let Some(new) = after(0, None) {
        out.push(Part { name: format!("{}/untilFirstSplit", part.name), blocks: new });
    }
    for b in 0..n {
        for &i in &splits[b] {
            if let Some(new) = after(b, Some((b, i))) {
                let tok = match &blocks[b].cmds[i] {
                    PCmd::Assume(_, info) | PCmd::Assert(_, _, _, info) => info.as_ref().and_then(|x| x.tok),
                    _ => None,
                };
                out.push(Part { name: format!("{}/afterSplit@{}", part.name, line(cx.sources, tok)), blocks: new });
            }
        }
    }
    out
}

/// Boogie's `Graph.ImmediateDominator` of a DAG from its first block: of a block's dominators,
/// the last in topological order (`None` for the first block).
fn immediate_dominators(succs: &[Vec<usize>]) -> Vec<Option<usize>> {
    let n = succs.len();
    let order = boogie_topological_order(succs);
    let mut position = vec![usize::MAX; n];
    for (k, &b) in order.iter().enumerate() {
        position[b] = k;
    }
    let mut preds = vec![Vec::new(); n];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            preds[s].push(b);
        }
    }
    let mut dominators: Vec<Vec<bool>> = vec![Vec::new(); n];
    let mut idom = vec![None; n];
    for &b in &order {
        let mut set: Option<Vec<bool>> = None;
        for &p in &preds[b] {
            set = Some(match set {
                None => dominators[p].clone(),
                Some(s) => s.iter().zip(&dominators[p]).map(|(x, y)| *x && *y).collect(),
            });
        }
        let mut set = set.unwrap_or_else(|| vec![false; n]);
        idom[b] = (0..n).filter(|&d| set[d]).max_by_key(|&d| position[d]);
        set[b] = true;
        dominators[b] = set;
    }
    idom
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vcgen::{Check, CheckKind};

    fn assert_cmd(t: &str) -> PCmd {
        PCmd::Assert(t.into(), Check::plain(CheckKind::Assert, Span::default()), None, None)
    }

    fn block(cmds: Vec<PCmd>, succs: Vec<usize>) -> PassiveBlock {
        PassiveBlock {
            label: "b".into(),
            tok: None,
            cmds,
            succs,
            ret: None,
            from_return: false,
            goto_attrs: false,
            jump: Default::default(),
            goto_nowhere: false,
        }
    }

    fn cx(sources: &crate::source::SourceMap, every_assert: bool) -> Divide<'_> {
        Divide { sources, every_assert }
    }

    #[test]
    fn each_assertion_alone_on_the_paths_to_it() {
        // entry -> {left, right}: left's second assertion sees the first assumed, and right
        // is not in left's splits.
        let blocks = vec![
            block(vec![PCmd::Assume("p".into(), None)], vec![1, 2]),
            block(vec![assert_cmd("a"), assert_cmd("b"), assert_cmd("c")], vec![]),
            block(vec![assert_cmd("d")], vec![]),
        ];
        let sources = crate::source::SourceMap::new();
        let splits = divide(blocks, &cx(&sources, true));
        assert_eq!(splits.len(), 4);
        // Coalesced: the entry and the left block are one.
        let second = &splits[1].blocks;
        assert_eq!(second.len(), 1);
        assert!(
            matches!(&second[0].cmds[..], [PCmd::Assume(p, _), PCmd::Assume(a, _), PCmd::Assert(b, ..)] if p == "p" && a == "a" && b == "b")
        );
    }

    #[test]
    fn isolated_paths_one_split_per_branch_taken() {
        // entry -{:allow_path_isolation}-> {then, else} -> join, whose assertion is isolated
        // per path: two splits, each with one branch; no remainder (nothing else is checked).
        let mut entry = block(vec![], vec![1, 2]);
        entry.jump.allow_path_isolation = true;
        let mut isolated = assert_cmd("j");
        if let PCmd::Assert(_, check, ..) = &mut isolated {
            check.isolate = Some(Isolate::Paths);
        }
        let blocks = vec![
            entry,
            block(vec![PCmd::Assume("t".into(), None)], vec![3]),
            block(vec![PCmd::Assume("e".into(), None)], vec![3]),
            block(vec![isolated], vec![]),
        ];
        let sources = crate::source::SourceMap::new();
        let splits = divide(blocks, &cx(&sources, false));
        assert_eq!(splits.len(), 2);
        for (split, branch) in splits.iter().zip(["t", "e"]) {
            // entry, branch and join coalesced into one block.
            assert_eq!(split.blocks.len(), 1);
            assert!(matches!(&split.blocks[0].cmds[0], PCmd::Assume(a, _) if a == branch));
        }
    }
}
