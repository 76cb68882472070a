//! Implementation division: one implementation's passive program as several VCs ("splits"),
//! each checking some of its assertions and assuming the others (Boogie's
//! `ManualSplitFinder`).
//!
//! Expects the passive blocks of one implementation (a DAG, entry first). Guarantees that
//! every assertion of the implementation is checked, on every path to it, by at least one
//! split: a split keeps every path to what it checks, so an implementation whose splits all
//! verify is verified.
//!
//! What is implemented: `/vcsSplitOnEveryAssert` and `{:vcs_split_on_every_assert}` (Boogie's
//! `IsolateAttributeOnAssertsHandler` with every assertion isolated): for each assertion, in
//! block order, a split of the blocks from which its block is reached, its block cut after
//! it, every other assertion assumed. `{:split_here}`, `{:focus}` and `{:isolate}` are refused
//! by the verifier before this module is asked.

use super::passify::{PCmd, PassiveBlock};

/// The blocks from which `target` is reached (itself included), in block order.
fn ancestors(blocks: &[PassiveBlock], target: usize) -> Vec<bool> {
    let preds = super::passify::predecessors_of(blocks);
    let mut seen = vec![false; blocks.len()];
    let mut todo = vec![target];
    while let Some(b) = todo.pop() {
        if !std::mem::replace(&mut seen[b], true) {
            todo.extend(preds[b].iter().copied());
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

/// One split per assertion, in block and command order (Boogie's `/vcsSplitOnEveryAssert`).
/// An implementation without assertions gives no split.
pub fn split_on_every_assert(blocks: &[PassiveBlock]) -> Vec<Vec<PassiveBlock>> {
    let mut splits = Vec::new();
    for (b, block) in blocks.iter().enumerate() {
        for (i, c) in block.cmds.iter().enumerate() {
            if matches!(c, PCmd::Assert(..)) {
                splits.push(isolate(blocks, b, i));
            }
        }
    }
    splits
}

/// The split that checks command `i` of block `target` alone.
fn isolate(blocks: &[PassiveBlock], target: usize, i: usize) -> Vec<PassiveBlock> {
    let keep = ancestors(blocks, target);
    let mut index = vec![usize::MAX; blocks.len()];
    let mut next = 0;
    for (b, k) in keep.iter().enumerate() {
        if *k {
            index[b] = next;
            next += 1;
        }
    }
    let mut out = Vec::with_capacity(next);
    for (b, block) in blocks.iter().enumerate().filter(|(b, _)| keep[*b]) {
        let mut nb = block.clone();
        if b == target {
            nb.cmds = block.cmds[..i].iter().map(assumed).collect();
            nb.cmds.push(block.cmds[i].clone());
            nb.succs.clear();
        } else {
            nb.cmds = block.cmds.iter().map(assumed).collect();
            nb.succs = block.succs.iter().filter(|s| keep[**s]).map(|s| index[*s]).collect();
        }
        out.push(nb);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Span;
    use crate::vcgen::{Check, CheckKind};

    fn assert_cmd(t: &str) -> PCmd {
        PCmd::Assert(t.into(), Check { kind: CheckKind::Assert, tok: Span::default(), msg: None, subsume: true }, None)
    }

    fn block(cmds: Vec<PCmd>, succs: Vec<usize>) -> PassiveBlock {
        PassiveBlock { label: "b".into(), tok: None, cmds, succs, ret: None, from_return: false, goto_attrs: false }
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
        let splits = split_on_every_assert(&blocks);
        assert_eq!(splits.len(), 4);
        let second = &splits[1];
        assert_eq!(second.len(), 2);
        assert_eq!(second[0].succs, vec![1]);
        assert!(matches!(&second[1].cmds[..], [PCmd::Assume(a), PCmd::Assert(b, ..)] if a == "a" && b == "b"));
    }
}
