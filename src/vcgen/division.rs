//! Implementation division: one implementation's passive program as several VCs ("splits"),
//! each checking some of its assertions and assuming the others (Boogie's
//! `ManualSplitFinder`).
//!
//! Expects the passive blocks of one implementation (a DAG, entry first). Guarantees that
//! every assertion of the implementation is checked, on every path to it, by at least one
//! split: a split keeps every path to what it checks (or, for `"paths"`, one split per path
//! through the `{:allow_path_isolation}` branches, together all of them), so an implementation
//! whose splits all verify is verified.
//!
//! Boogie's order of splits, which decides the order of errors of equal position:
//! 1. isolated jumps (`IsolateAttributeOnJumpsHandler`): each goto with `{:isolate}`, and under
//!    `/vcsSplitOnEveryAssert` each goto a return became, gives a split of the blocks before
//!    it (assertions assumed) and after it; the part without them (those gotos now return)
//!    comes first;
//! 2. in each of those parts, isolated assertions (`IsolateAttributeOnAssertsHandler`): each
//!    `{:isolate}` assertion, or every assertion under `/vcsSplitOnEveryAssert`, gives a split
//!    of the blocks that reach it, cut after it, every other assertion assumed; then the part
//!    with those assertions assumed.
//! 3. a split that checks nothing is dropped; if none is left, the implementation is one VC.
//!
//! `"paths"` (`BlockRewriter.GetSplitsForIsolatedPaths`): the split above, once for each
//! choice of target at each `{:allow_path_isolation}` goto, in topological order; the blocks
//! of a choice are those before the goto and those after the target.
//!
//! `{:split_here}` and `{:focus}` are not divided: the implementation is one VC for them.

use super::Isolate;
use super::passify::{PCmd, PassiveBlock};

/// The blocks reached from `from` (itself included) following `edges`.
fn reach(edges: &[Vec<usize>], from: usize) -> Vec<bool> {
    let mut seen = vec![false; edges.len()];
    let mut todo = vec![from];
    while let Some(b) = todo.pop() {
        if !std::mem::replace(&mut seen[b], true) {
            todo.extend(edges[b].iter().copied());
        }
    }
    seen
}

/// Boogie's `AssertTurnedIntoAssume`.
fn assumed(c: &PCmd) -> PCmd {
    match c {
        PCmd::Assert(t, ..) => PCmd::Assume(t.clone()),
        other => other.clone(),
    }
}

/// The commands of `block` up to its assertion `i`, the earlier assertions assumed.
fn cut_at(block: &PassiveBlock, i: usize) -> Vec<PCmd> {
    let mut cmds: Vec<PCmd> = block.cmds[..i].iter().map(assumed).collect();
    cmds.push(block.cmds[i].clone());
    cmds
}

/// One part of an implementation and what dividing it needs to know.
struct Graph<'b> {
    blocks: &'b [PassiveBlock],
    succs: Vec<Vec<usize>>,
    preds: Vec<Vec<usize>>,
    order: Vec<usize>,
}

impl<'b> Graph<'b> {
    fn new(blocks: &'b [PassiveBlock]) -> Graph<'b> {
        let succs: Vec<Vec<usize>> = blocks.iter().map(|b| b.succs.clone()).collect();
        let preds = super::passify::predecessors_of(blocks);
        let order = super::passify::topological_order(&succs);
        Graph { blocks, succs, preds, order }
    }

    /// Boogie's `BlockRewriter.ComputeNewBlocks`: the blocks `keep` holds with their commands
    /// as `cmds` gives them (with `true` for a block that now returns), in topological order,
    /// less those the first does not reach or from which no assertion is reached
    /// (`DeleteBlocksNotLeadingToAssertions`; the first is always kept).
    fn subgraph(&self, keep: &[bool], cmds: impl Fn(usize) -> (Vec<PCmd>, bool)) -> Vec<PassiveBlock> {
        let n = self.blocks.len();
        let Some(&entry) = self.order.iter().find(|&&b| keep[b]) else { return Vec::new() };
        let mut made: Vec<Option<PassiveBlock>> = vec![None; n];
        for &b in self.order.iter().filter(|&&b| keep[b]) {
            let (cmds, returns) = cmds(b);
            let mut block = self.blocks[b].clone();
            if returns {
                block.succs.clear();
            } else {
                block.succs.retain(|&s| keep[s]);
            }
            block.cmds = cmds;
            made[b] = Some(block);
        }
        let edges: Vec<Vec<usize>> = made.iter().map(|b| b.as_ref().map_or_else(Vec::new, |b| b.succs.clone())).collect();
        let reached = reach(&edges, entry);
        let mut useful = vec![false; n];
        for &b in self.order.iter().rev().filter(|&&b| reached[b]) {
            let block = made[b].as_mut().expect("kept");
            block.succs.retain(|&s| useful[s]);
            useful[b] = !block.succs.is_empty() || block.cmds.iter().any(|c| matches!(c, PCmd::Assert(..)));
        }
        useful[entry] = true;
        let kept: Vec<usize> = self.order.iter().copied().filter(|&b| useful[b]).collect();
        let mut index = vec![usize::MAX; n];
        for (i, &b) in kept.iter().enumerate() {
            index[b] = i;
        }
        kept.iter()
            .map(|&b| {
                let mut block = made[b].take().expect("each block once");
                block.succs = block.succs.iter().map(|&s| index[s]).collect();
                block
            })
            .collect()
    }

    /// The blocks that dominate `target` (itself included).
    fn dominators(&self, target: usize) -> Vec<bool> {
        let n = self.blocks.len();
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

    /// `BlockRewriter.GetSplitsForIsolatedPaths`: the sets of blocks of each path choice
    /// through the `{:allow_path_isolation}` gotos among `include`; `None` if there are none
    /// (Boogie then keeps the whole part).
    fn path_sets(&self, include: Vec<bool>) -> Option<Vec<Vec<bool>>> {
        let gotos: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|&b| include[b] && self.blocks[b].jump.allow_path_isolation && !self.succs[b].is_empty())
            .collect();
        if gotos.is_empty() {
            return None;
        }
        let mut out = Vec::new();
        self.choose(&gotos, 0, include, &mut out);
        Some(out)
    }

    fn choose(&self, gotos: &[usize], at: usize, set: Vec<bool>, out: &mut Vec<Vec<bool>>) {
        if !set.iter().any(|&x| x) {
            return;
        }
        let Some(&g) = gotos.get(at) else {
            out.push(set);
            return;
        };
        if !set[g] {
            return self.choose(gotos, at + 1, set, out);
        }
        // The choice of no target: the blocks that dominate the goto.
        let dominators = self.dominators(g);
        self.choose(gotos, at + 1, and(&set, &dominators), out);
        let ancestors = reach(&self.preds, g);
        for &t in self.succs[g].iter().filter(|&&t| set[t]) {
            let descendants = reach(&self.succs, t);
            let chosen: Vec<bool> = (0..set.len()).map(|b| set[b] && (ancestors[b] || descendants[b])).collect();
            self.choose(gotos, at + 1, chosen, out);
        }
    }
}

fn and(a: &[bool], b: &[bool]) -> Vec<bool> {
    a.iter().zip(b).map(|(x, y)| *x && *y).collect()
}

/// Boogie's `ManualSplitFinder` without `{:focus}` and `{:split_here}`: the splits of an
/// implementation's passive blocks, in Boogie's order; `every_assert` is
/// `/vcsSplitOnEveryAssert` (or the implementation's `{:vcs_split_on_every_assert}`).
pub fn divide(blocks: Vec<PassiveBlock>, every_assert: bool) -> Vec<Vec<PassiveBlock>> {
    let parts = isolate_jumps(&blocks, every_assert);
    let mut splits: Vec<Vec<PassiveBlock>> = Vec::new();
    for part in parts {
        splits.extend(isolate_asserts(part, every_assert));
    }
    splits.retain(|s| s.iter().any(|b| b.cmds.iter().any(|c| matches!(c, PCmd::Assert(..)))));
    if splits.is_empty() { vec![blocks] } else { splits }
}

/// `IsolateAttributeOnJumpsHandler`: the part without the isolated jumps, then one part (or
/// one per path) for each.
fn isolate_jumps(blocks: &[PassiveBlock], every_assert: bool) -> Vec<Vec<PassiveBlock>> {
    let graph = Graph::new(blocks);
    let isolated: Vec<usize> = (0..blocks.len())
        .filter(|&b| {
            let block = &blocks[b];
            !block.succs.is_empty() && (block.jump.isolate.is_some() || (every_assert && block.from_return))
        })
        .collect();
    if isolated.is_empty() {
        return vec![blocks.to_vec()];
    }
    let all = vec![true; blocks.len()];
    // The isolated jumps now return, checking nothing more.
    let mut remainder = graph.subgraph(&all, |b| (blocks[b].cmds.clone(), isolated.contains(&b)));
    for block in remainder.iter_mut().filter(|b| b.succs.is_empty() && b.from_return) {
        block.from_return = false;
        block.ret = None;
    }
    let mut parts = vec![remainder];
    for &g in &isolated {
        let ancestors = reach(&graph.preds, g);
        let descendants = reach(&graph.succs, g);
        let include: Vec<bool> = (0..blocks.len()).map(|b| ancestors[b] || descendants[b]).collect();
        if blocks[g].jump.isolate == Some(Isolate::Paths) {
            // From a return: the one target is the exit, whose assertions are checked.
            let last = blocks[g].succs[0];
            let Some(sets) = graph.path_sets(include) else {
                parts.push(blocks.to_vec());
                continue;
            };
            for set in sets.into_iter().filter(|s| s[last]) {
                let leads = reach(&graph.preds, last);
                let set = and(&set, &leads);
                parts.push(graph.subgraph(&set, |b| {
                    if b == last { (blocks[b].cmds.clone(), true) } else { (blocks[b].cmds.iter().map(assumed).collect(), false) }
                }));
            }
        } else {
            parts.push(graph.subgraph(&include, |b| {
                let cmds = &blocks[b].cmds;
                (if ancestors[b] { cmds.iter().map(assumed).collect() } else { cmds.clone() }, false)
            }));
        }
    }
    parts
}

/// `IsolateAttributeOnAssertsHandler`: a split (or one per path) for each isolated assertion,
/// then the part with them assumed; the part itself if it isolates none.
fn isolate_asserts(part: Vec<PassiveBlock>, every_assert: bool) -> Vec<Vec<PassiveBlock>> {
    let graph = Graph::new(&part);
    let mut splits = Vec::new();
    let mut isolated = vec![Vec::new(); part.len()];
    for (b, block) in part.iter().enumerate() {
        for (i, c) in block.cmds.iter().enumerate() {
            let PCmd::Assert(_, check, _) = c else { continue };
            if !(every_assert || check.isolate.is_some()) {
                continue;
            }
            isolated[b].push(i);
            let ancestors = reach(&graph.preds, b);
            if check.isolate == Some(Isolate::Paths) {
                let Some(sets) = graph.path_sets(vec![true; part.len()]) else {
                    // Boogie keeps every block, and cuts the last one in topological order
                    // at the assertion (assuming every assertion in it if it is elsewhere).
                    let mut whole = part.clone();
                    if let Some(&last) = graph.order.last() {
                        whole[last].cmds = if last == b { cut_at(block, i) } else { part[last].cmds.iter().map(assumed).collect() };
                    }
                    splits.push(whole);
                    continue;
                };
                for set in sets.into_iter().filter(|s| s[b]) {
                    let set = and(&set, &ancestors);
                    splits.push(graph.subgraph(&set, |x| {
                        if x == b { (cut_at(block, i), true) } else { (part[x].cmds.iter().map(assumed).collect(), false) }
                    }));
                }
            } else {
                splits.push(graph.subgraph(&ancestors, |x| {
                    if x == b { (cut_at(block, i), true) } else { (part[x].cmds.iter().map(assumed).collect(), false) }
                }));
            }
        }
    }
    if splits.is_empty() {
        return vec![part];
    }
    let all = vec![true; part.len()];
    splits.push(graph.subgraph(&all, |b| {
        let cmds = part[b].cmds.iter().enumerate();
        (cmds.map(|(i, c)| if isolated[b].contains(&i) { assumed(c) } else { c.clone() }).collect(), false)
    }));
    splits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Span;
    use crate::vcgen::{Check, CheckKind};

    fn assert_cmd(t: &str) -> PCmd {
        PCmd::Assert(t.into(), Check { kind: CheckKind::Assert, tok: Span::default(), msg: None, subsume: true, isolate: None }, None)
    }

    fn block(cmds: Vec<PCmd>, succs: Vec<usize>) -> PassiveBlock {
        PassiveBlock { label: "b".into(), tok: None, cmds, succs, ret: None, from_return: false, goto_attrs: false, jump: Default::default() }
    }

    #[test]
    fn each_assertion_alone_on_the_paths_to_it() {
        // entry -> {left, right}: left's second assertion sees the first assumed, and right
        // is not in left's splits.
        let blocks = vec![
            block(vec![PCmd::Assume("p".into())], vec![1, 2]),
            block(vec![assert_cmd("a"), assert_cmd("b"), assert_cmd("c")], vec![]),
            block(vec![assert_cmd("d")], vec![]),
        ];
        let splits = divide(blocks, true);
        assert_eq!(splits.len(), 4);
        let second = &splits[1];
        assert_eq!(second.len(), 2);
        assert_eq!(second[0].succs, vec![1]);
        assert!(matches!(&second[1].cmds[..], [PCmd::Assume(a), PCmd::Assert(b, ..)] if a == "a" && b == "b"));
    }

    #[test]
    fn isolated_paths_one_split_per_branch_taken() {
        // entry -{:allow_path_isolation}-> {then, else} -> join, whose assertion is isolated
        // per path: two splits, each with one branch; no remainder (nothing else is checked).
        let mut entry = block(vec![], vec![1, 2]);
        entry.jump.allow_path_isolation = true;
        let mut isolated = assert_cmd("j");
        if let PCmd::Assert(_, check, _) = &mut isolated {
            check.isolate = Some(Isolate::Paths);
        }
        let blocks = vec![
            entry,
            block(vec![PCmd::Assume("t".into())], vec![3]),
            block(vec![PCmd::Assume("e".into())], vec![3]),
            block(vec![isolated], vec![]),
        ];
        let splits = divide(blocks, false);
        assert_eq!(splits.len(), 2);
        for (split, branch) in splits.iter().zip(["t", "e"]) {
            assert_eq!(split.len(), 3);
            assert!(matches!(&split[1].cmds[..], [PCmd::Assume(a)] if a == branch));
        }
    }
}
