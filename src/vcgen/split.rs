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
//! as a time out. Reachability sets are bit sets, and the sets a score keeps are flags by
//! block. Deciding the last chance does not need the best split, only whether one pays: the
//! search stops at the first that does, and does not start when the whole's cost is infinite
//! (a chain of a thousand branches: its path count passes the largest double, as in Boogie).
//! A procedure of 1,000 `if`s in a row (3,000 blocks) that ran out of time at `/timeLimit:1`
//! was reported 0.9 s after the solver gave up; now 0.1 s.

use super::passify::{PCmd, PassiveBlock, predecessors_of};
use super::trace::{Counterexample, TraceBlock};

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
    /// By block: kept by the split being scored, and (assumizing) kept with its assertions.
    keep: Vec<bool>,
    protected: Vec<bool>,
    assert_to_assume: bool,
    /// Only whether this is a last chance is asked ([`last_chance_error`]): the search stops
    /// at the first split that pays, and [`CostModel::score`] is then that split's, not the
    /// best one's.
    deciding: bool,
}

impl<'b> CostModel<'b> {
    /// Boogie's `ComputeBestSplit` on `blocks`.
    pub fn new(blocks: &'b [PassiveBlock], params: CostParams) -> CostModel<'b> {
        CostModel::build(blocks, params, false)
    }

    fn build(blocks: &'b [PassiveBlock], params: CostParams, deciding: bool) -> CostModel<'b> {
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
            keep: vec![false; blocks.len()],
            protected: vec![false; blocks.len()],
            assert_to_assume: false,
            deciding,
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
        if std::mem::replace(&mut self.keep[b], true) {
            return;
        }
        for i in 0..self.stats[b].virtual_succs.len() {
            let ch = self.stats[b].virtual_succs[i];
            if Some(b) == self.split_block && self.assumized.contains(&ch) {
                continue;
            }
            self.keep_from(ch);
        }
    }

    /// `ComputeBlockSets(false)`: the big blocks a split keeps, and those whose assertions it
    /// keeps as assertions.
    fn compute_block_sets(&mut self) {
        self.protected.fill(false);
        self.keep.fill(false);
        if self.assert_to_assume {
            let split = self.split_block.expect("a split block when assumizing");
            for i in 0..self.big_blocks.len() {
                let b = self.big_blocks[i];
                if self.reaches(b, split) {
                    self.keep[b] = true;
                }
            }
            for i in 0..self.assumized.len() {
                let a = self.assumized[i];
                self.reachable_from(a);
                let set = self.reachable[a].as_deref().expect("just computed");
                for (w, &word) in set.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let r = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        if self.stats[r].big {
                            self.keep[r] = true;
                            self.protected[r] = true;
                        }
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
        if !self.keep[b] {
            return;
        }
        let (mut paths, mut count) = (0.0, 0);
        for i in 0..self.stats[b].virtual_preds.len() {
            let p = self.stats[b].virtual_preds[i];
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
        for i in 0..self.big_blocks.len() {
            let b = self.big_blocks[i];
            if !self.keep[b] {
                continue;
            }
            self.update_incoming_paths(b);
            let s = &self.stats[b];
            let mut local = if self.assert_to_assume && !self.protected[b] {
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
                for i in 0..self.stats[b].virtual_succs.len() {
                    let ch = self.stats[b].virtual_succs[i];
                    self.stats[ch].virtual_preds.push(b);
                }
            }
        }
        self.assumized.clear();
        let prover_cost = |c: f64| c * c;
        self.total_cost = prover_cost(self.score_of(false));
        // A split pays unless half its score exceeds the whole's cost, which no score does when
        // that cost is infinite or not a number (paths past 1e308: a long chain of branches).
        if self.deciding && !self.total_cost.is_finite() {
            self.score = self.total_cost;
            return;
        }
        let mut score = f64::INFINITY;
        let mut best = None;
        let mut saved = Vec::new();
        for i in 0..self.big_blocks.len() {
            let b = self.big_blocks[i];
            let targets = &self.blocks[b].succs;
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
                if self.deciding && self.params.path_split_mult * score <= self.total_cost {
                    break;
                }
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
    CostModel::build(blocks, CostParams::default(), true)
        .last_chance()
        .then(|| whole_split_counterexample(blocks))
        .flatten()
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

    /// Deciding the last chance alone (stopping at the first split that pays, or at once when
    /// the whole's cost is past every score) answers as the full search does: on random DAGs
    /// of up to 40 blocks with assertions and assumptions anywhere, and on chains of diamonds
    /// long enough for the path counts to pass the largest double.
    #[test]
    fn deciding_agrees_with_the_full_search() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |bound: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % bound as u64) as usize
        };
        let mut both = [0; 2];
        for _ in 0..3000 {
            let n = 1 + next(40);
            // Half the DAGs have one assertion in all (the last chance needs one).
            let single = if next(2) == 0 { Some(next(n)) } else { None };
            let blocks: Vec<PassiveBlock> = (0..n)
                .map(|b| {
                    let succs: Vec<usize> = if b + 1 == n {
                        Vec::new()
                    } else {
                        let mut s: Vec<usize> = (0..1 + next(3)).map(|_| b + 1 + next(n - b - 1)).collect();
                        s.sort_unstable();
                        s.dedup();
                        s
                    };
                    let asserts = match single {
                        Some(at) => usize::from(at == b),
                        None if next(4) == 0 => 1 + next(2),
                        None => 0,
                    };
                    block(&format!("b{b}"), asserts, next(3), succs)
                })
                .collect();
            let full = CostModel::new(&blocks, CostParams::default()).last_chance();
            let decided = CostModel::build(&blocks, CostParams::default(), true).last_chance();
            assert_eq!(full, decided, "{:?}", blocks.iter().map(|b| &b.succs).collect::<Vec<_>>());
            both[usize::from(full)] += 1;
        }
        assert!(both[0] > 100 && both[1] > 100, "both answers are exercised: {both:?}");
        for n in [10, 400, 1200] {
            let chain = diamonds(n);
            let full = CostModel::new(&chain, CostParams::default()).last_chance();
            assert_eq!(full, CostModel::build(&chain, CostParams::default(), true).last_chance(), "{n} diamonds");
        }
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
