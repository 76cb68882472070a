//! Implementation division: Boogie's cost model of a passive program (`Split.ComputeBestSplit`)
//! and what it decides.
//!
//! Expects the passive blocks of one implementation (a DAG, entry first). Boogie measures a
//! split by "big blocks" (chains of blocks with one successor and one predecessor merged), the
//! cost of each (1 per assertion, `/vcsAssumeMult` per assumption) times the number of paths
//! reaching it, and looks for the two-way branch whose halves cost least; squared costs stand
//! for prover time. Written by hand: it is Boogie's heuristic, number for number, since the
//! decisions it takes are visible in Boogie's output.
//!
//! What rboogie uses it for: Boogie's "last chance" rule (`SplitAndVerifyWorker.
//! HandleProverFailure`). When the solver gives up (time, resource or memory limit) on a split
//! with exactly one assertion that the model would not split further, Boogie reports that
//! assertion as failing, with every block of the split as the trace, instead of a time out.
//!
//! The model is quadratic (a reachability set per block, a score per branch), in Boogie as
//! here: on an implementation of tens of thousands of blocks (deep inlining) it would take
//! minutes and gigabytes after the solver has given up, and the time limit would not hold.
//! So the last chance is looked for only when the split has one assertion (cheap to count)
//! and at most [`LAST_CHANCE_BLOCKS`] blocks; a larger split that runs out of time is reported
//! as a time out. Reachability sets are bit sets.

use super::passify::{PCmd, PassiveBlock, predecessors_of};
use super::trace::{Counterexample, TraceBlock};
use rustc_hash::FxHashSet;

/// Boogie's defaults of `/vcsAssumeMult`, `/vcsPathCostMult`, `/vcsPathJoinMult` and
/// `/vcsPathSplitMult`.
#[derive(Clone, Copy, Debug)]
pub struct CostParams {
    pub assume_mult: f64,
    pub path_cost_mult: f64,
    pub path_join_mult: f64,
    pub path_split_mult: f64,
}

impl Default for CostParams {
    fn default() -> CostParams {
        CostParams { assume_mult: 0.01, path_cost_mult: 1.0, path_join_mult: 0.8, path_split_mult: 0.5 }
    }
}

#[derive(Clone, Default)]
struct BlockStats {
    big: bool,
    /// -1 until counted.
    assertion_cost: f64,
    assumption_cost: f64,
    incoming_paths: f64,
    virtual_succs: Vec<usize>,
    virtual_preds: Vec<usize>,
}

/// The cost model of one split, with the scores `ComputeBestSplit` finds.
pub struct CostModel<'b> {
    blocks: &'b [PassiveBlock],
    preds: Vec<Vec<usize>>,
    params: CostParams,
    stats: Vec<BlockStats>,
    big_blocks: Vec<usize>,
    /// Bit sets, `words` 64-bit words each.
    reachable: Vec<Option<Vec<u64>>>,
    words: usize,
    pub assertion_count: usize,
    pub total_cost: f64,
    /// The best split's score; -1 when splitting would not pay.
    pub score: f64,
    split_block: Option<usize>,
    assumized: Vec<usize>,
    keep: FxHashSet<usize>,
    protected: FxHashSet<usize>,
    assert_to_assume: bool,
}

impl<'b> CostModel<'b> {
    /// Boogie's `ComputeBestSplit` on `blocks`.
    pub fn new(blocks: &'b [PassiveBlock], params: CostParams) -> CostModel<'b> {
        let stats = vec![BlockStats { assertion_cost: -1.0, ..BlockStats::default() }; blocks.len()];
        let mut m = CostModel {
            blocks,
            preds: predecessors_of(blocks),
            params,
            stats,
            big_blocks: Vec::new(),
            reachable: vec![None; blocks.len()],
            words: blocks.len().div_ceil(64),
            assertion_count: 0,
            total_cost: 0.0,
            score: -1.0,
            split_block: None,
            assumized: Vec::new(),
            keep: FxHashSet::default(),
            protected: FxHashSet::default(),
            assert_to_assume: false,
        };
        if !blocks.is_empty() {
            m.compute_best_split();
        }
        m
    }

    /// `LastChance`: one assertion, and no split that pays.
    pub fn last_chance(&self) -> bool {
        self.assertion_count == 1 && self.score < 0.0
    }

    fn count_assertions(&mut self, b: usize) {
        if self.stats[b].assertion_cost >= 0.0 {
            return;
        }
        let (mut asserts, mut assumes) = (0.0, 0.0);
        for c in &self.blocks[b].cmds {
            match c {
                PCmd::Assert(..) => {
                    asserts += 1.0;
                    self.assertion_count += 1;
                }
                // Boogie carries `{:print}` in an `assume true`.
                PCmd::Assume(..) | PCmd::Print(_) => assumes += 1.0,
                PCmd::StartChecking | PCmd::Scope(_) | PCmd::Capture(_) | PCmd::Site(_) => {}
            }
        }
        let s = &mut self.stats[b];
        s.big = true;
        s.assertion_cost = asserts;
        s.assumption_cost = assumes;
        s.virtual_succs = self.blocks[b].succs.clone();
        if let [next] = self.stats[b].virtual_succs[..] {
            self.count_assertions(next);
            if self.preds[next].len() > 1 || self.stats[next].virtual_succs.len() != 1 {
                return;
            }
            let (skip_to, a, u) = {
                let n = &self.stats[next];
                (n.virtual_succs[0], n.assertion_cost, n.assumption_cost)
            };
            let s = &mut self.stats[b];
            s.virtual_succs[0] = skip_to;
            s.assertion_cost += a;
            s.assumption_cost += u;
            self.stats[next].big = false;
        }
    }

    fn reachable_from(&mut self, b: usize) -> &[u64] {
        if self.reachable[b].is_none() {
            let mut set = vec![0u64; self.words];
            set[b / 64] |= 1 << (b % 64);
            for &s in &self.blocks[b].succs {
                for (word, from) in set.iter_mut().zip(self.reachable_from(s)) {
                    *word |= from;
                }
            }
            self.reachable[b] = Some(set);
        }
        self.reachable[b].as_deref().expect("just computed")
    }

    fn reaches(&mut self, from: usize, to: usize) -> bool {
        self.reachable_from(from)[to / 64] & (1 << (to % 64)) != 0
    }

    fn keep_from(&mut self, b: usize) {
        if !self.keep.insert(b) {
            return;
        }
        for ch in self.stats[b].virtual_succs.clone() {
            if Some(b) == self.split_block && self.assumized.contains(&ch) {
                continue;
            }
            self.keep_from(ch);
        }
    }

    /// `ComputeBlockSets(false)`: the big blocks a split keeps, and those whose assertions it
    /// keeps as assertions.
    fn compute_block_sets(&mut self) {
        self.protected.clear();
        self.keep.clear();
        if self.assert_to_assume {
            let split = self.split_block.expect("a split block when assumizing");
            for b in self.big_blocks.clone() {
                if self.reaches(b, split) {
                    self.keep.insert(b);
                }
            }
            for a in self.assumized.clone() {
                let set = self.reachable_from(a);
                let reached: Vec<usize> = (0..set.len() * 64).filter(|&r| set[r / 64] & (1 << (r % 64)) != 0).collect();
                for r in reached {
                    if self.stats[r].big {
                        self.keep.insert(r);
                        self.protected.insert(r);
                    }
                }
            }
        } else {
            self.keep_from(0);
        }
    }

    fn update_incoming_paths(&mut self, b: usize) {
        if self.stats[b].incoming_paths >= 0.0 {
            return;
        }
        self.stats[b].incoming_paths = 0.0;
        if !self.keep.contains(&b) {
            return;
        }
        let (mut paths, mut count) = (0.0, 0);
        for p in self.stats[b].virtual_preds.clone() {
            self.update_incoming_paths(p);
            if self.stats[p].incoming_paths > 0.0 {
                paths += self.stats[p].incoming_paths;
                count += 1;
            }
        }
        if count > 1 {
            paths *= self.params.path_join_mult;
        }
        self.stats[b].incoming_paths = paths;
    }

    /// `DoComputeScore`.
    fn score_of(&mut self, assert_to_assume: bool) -> f64 {
        self.assert_to_assume = assert_to_assume;
        self.compute_block_sets();
        for &b in &self.big_blocks {
            self.stats[b].incoming_paths = -1.0;
        }
        self.stats[0].incoming_paths = 1.0;
        let mut cost = 0.0;
        for b in self.big_blocks.clone() {
            if !self.keep.contains(&b) {
                continue;
            }
            self.update_incoming_paths(b);
            let s = &self.stats[b];
            let mut local = if self.assert_to_assume && !self.protected.contains(&b) {
                (s.assertion_cost + s.assumption_cost) * self.params.assume_mult
            } else {
                s.assumption_cost * self.params.assume_mult + s.assertion_cost
            };
            local += local * s.incoming_paths * self.params.path_cost_mult;
            cost += local;
        }
        cost
    }

    fn compute_best_split(&mut self) {
        for b in 0..self.blocks.len() {
            self.count_assertions(b);
        }
        for b in 0..self.blocks.len() {
            if self.stats[b].big {
                self.big_blocks.push(b);
                for ch in self.stats[b].virtual_succs.clone() {
                    self.stats[ch].virtual_preds.push(b);
                }
            }
        }
        self.assumized.clear();
        let prover_cost = |c: f64| c * c;
        self.total_cost = prover_cost(self.score_of(false));
        let mut score = f64::INFINITY;
        let mut best = None;
        let mut saved = Vec::new();
        for b in self.big_blocks.clone() {
            let targets = self.blocks[b].succs.clone();
            if targets.len() < 2 {
                continue;
            }
            self.split_block = Some(b);
            self.assumized = vec![targets[0]];
            let (left0, right0) = (self.score_of(true), self.score_of(false));
            self.assumized = targets[1..].to_vec();
            let (left1, right1) = (self.score_of(true), self.score_of(false));
            let mut current = prover_cost(left1) + prover_cost(right1);
            let other = prover_cost(left0) + prover_cost(right0);
            if other < current {
                current = other;
                self.assumized = vec![targets[0]];
            }
            if current < score {
                score = current;
                best = Some(b);
                saved = self.assumized.clone();
            }
        }
        if self.params.path_split_mult * score > self.total_cost {
            self.split_block = None;
            self.score = -1.0;
        } else {
            self.score = score;
            self.assumized = saved;
            self.split_block = best;
        }
    }
}

/// The largest split the last chance is looked for in (see the module header): its cost
/// model then takes at most a few tens of milliseconds and 2 MB.
pub const LAST_CHANCE_BLOCKS: usize = 4096;

/// What Boogie reports when the solver gave up on `blocks` with no counterexample yet: the
/// split's one assertion as failing when it is a last chance (see the module header).
pub fn last_chance_error(blocks: &[PassiveBlock]) -> Option<Counterexample> {
    let assertions = blocks.iter().flat_map(|b| &b.cmds).filter(|c| matches!(c, PCmd::Assert(..))).count();
    if assertions != 1 || blocks.len() > LAST_CHANCE_BLOCKS {
        return None;
    }
    CostModel::new(blocks, CostParams::default()).last_chance().then(|| whole_split_counterexample(blocks)).flatten()
}

/// Boogie's `Split.ToCounterexample`: the first assertion of the split, with every block of
/// the split as the trace.
pub fn whole_split_counterexample(blocks: &[PassiveBlock]) -> Option<Counterexample> {
    let trace: Vec<TraceBlock> = blocks.iter().map(|b| TraceBlock { tok: b.tok, label: b.label.clone() }).collect();
    blocks.iter().find_map(|b| {
        b.cmds.iter().find_map(|c| match c {
            PCmd::Assert(_, check, ..) => Some(Counterexample {
                check: check.clone(),
                trace: trace.clone(),
                failing_return: b.ret,
                augmented: Vec::new(),
                blocks: (0..blocks.len()).collect(),
                model: None,
                values: Vec::new(),
                stage: None,
            }),
            _ => None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Span;
    use crate::vcgen::{Check, CheckKind};

    fn block(label: &str, asserts: usize, assumes: usize, succs: Vec<usize>) -> PassiveBlock {
        let check = Check::plain(CheckKind::Assert, Span::default());
        let mut cmds: Vec<PCmd> = (0..assumes).map(|_| PCmd::Assume("true".into(), None)).collect();
        cmds.extend((0..asserts).map(|_| PCmd::Assert("true".into(), check.clone(), None, None)));
        PassiveBlock {
            label: label.into(),
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

    #[test]
    fn straight_line_code_is_a_last_chance() {
        let blocks = vec![block("entry", 0, 1, vec![1]), block("anon0", 1, 0, vec![])];
        let m = CostModel::new(&blocks, CostParams::default());
        assert_eq!(m.assertion_count, 1);
        assert!(m.last_chance());
    }

    #[test]
    fn two_assertions_are_no_last_chance() {
        let blocks = vec![block("entry", 0, 0, vec![1]), block("anon0", 2, 0, vec![])];
        assert!(!CostModel::new(&blocks, CostParams::default()).last_chance());
    }

    #[test]
    fn a_branch_with_assertions_on_both_sides_pays_to_split() {
        // entry -> {a, b} -> join: the halves cost less squared than the whole.
        let blocks = vec![
            block("entry", 0, 0, vec![1, 2]),
            block("a", 3, 0, vec![3]),
            block("b", 3, 0, vec![3]),
            block("join", 0, 0, vec![]),
        ];
        let m = CostModel::new(&blocks, CostParams::default());
        assert_eq!(m.assertion_count, 6);
        assert!(m.score >= 0.0);
    }

    /// N diamonds in a row, one assertion at the end: blocks 3N + 2.
    fn diamonds(n: usize) -> Vec<PassiveBlock> {
        let mut blocks = vec![block("entry", 0, 1, vec![1])];
        for i in 0..n {
            let head = blocks.len();
            blocks.push(block(&format!("h{i}"), 0, 1, vec![head + 1, head + 2]));
            blocks.push(block(&format!("t{i}"), 0, 1, vec![head + 3]));
            blocks.push(block(&format!("e{i}"), 0, 1, vec![head + 3]));
        }
        blocks.push(block("exit", 1, 0, vec![]));
        blocks
    }

    #[test]
    fn the_last_chance_is_looked_for_only_in_small_splits() {
        let small = diamonds(100);
        assert!(CostModel::new(&small, CostParams::default()).assertion_count == 1);
        let large = diamonds(LAST_CHANCE_BLOCKS / 3 + 1);
        assert!(large.len() > LAST_CHANCE_BLOCKS);
        let started = std::time::Instant::now();
        assert!(last_chance_error(&large).is_none());
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
    }
}
