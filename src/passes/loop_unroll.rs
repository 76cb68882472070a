//! Loop unrolling: `/loopUnroll:N` (Boogie's `LoopUnroll.UnrollLoops`, called from
//! `Program.UnrollLoops` after inlining).
//!
//! Expects a type-checked program whose calls are inlined. Guarantees, when `/loopUnroll:N` is
//! given, that every implementation the verifier can lower is replaced by an acyclic body of
//! labeled blocks with gotos, the blocks Boogie's unroller builds, with Boogie's labels
//! (`anon0#3`, `anon2_LoopBody#1`): execution traces print them. A path that would enter a
//! loop for the `N+1`st time instead ends at a cut: the loop head's leading asserts and
//! assumes (its invariant), then `assume false` (`assert false` under
//! `/soundLoopUnrolling`), then `return`.
//!
//! How, as Boogie does it:
//! - The body is lowered to Boogie's blocks by [`cfg::lower`] and coalesced by
//!   [`cfg::coalesce`] (Boogie coalesces the program's blocks before inlining and unrolling,
//!   so a body inlining left as blocks is not coalesced again), and each block's commands are
//!   mapped back to the AST commands they came from. The unrolled body is marked as blocks
//!   ([`cfg::BLOCK_FORM`]): Boogie does not coalesce after unrolling either.
//! - A depth-first walk from the entry classifies each edge: a back edge goes to a block on
//!   the walk's stack (that block is a cut point), every other edge is a forward edge. A block
//!   with a literal `assert false` or `assume false` keeps its commands up to that one and has
//!   no successors. Strongly connected components are taken over both kinds of edges.
//! - Copies are made at levels `N` down to `0`, each block at most once per level, labeled
//!   `label#level`. A copy's forward edge inside its component stays at its level, a forward
//!   edge out of its component goes to level `N` (code after a loop is shared by all the
//!   iterations that leave it), and a back edge goes one level down. At level 0 a cut point
//!   is cut. The copies are listed in reverse order of completion, so the entry comes first.
//! - Boogie's quirk kept: the level-`N` unroller does not see `/soundLoopUnrolling`, so with
//!   `/loopUnroll:0` the cut is always `assume false`.
//!
//! Beyond Boogie: when constant propagation over the unrolled blocks shows that every path
//! into a loop reaches its cut and none leaves it (a loop with a constant bound above `N`),
//! the code after the loop is never reached and its checks pass vacuously; a warning says so
//! at the loop. A bound that depends on an input, a havoc or a call never triggers it.
//!
//! The depth-first walk, the components (Kosaraju) and the copying are written by hand with
//! explicit stacks: block graphs of generated programs are deep enough to exhaust the call
//! stack, and the crate has no graph library.

use rustc_hash::{FxHashMap, FxHashSet};

use super::PassError;
use super::blocks::{AstBlock, blocks_of, is_literal_false, replace_decls, verify_false, with_blocks};
use crate::ast::{AssignLhs, AttrParam, BinaryOp, Cmd, CmdKind, Decl, Expr, ExprKind, Program, Span, UnaryOp};
use crate::typeck::{Ref, TypedProgram, VarId};
use crate::vcgen::cfg;

/// The pass: `/loopUnroll:N` (`bound`), `/soundLoopUnrolling`.
pub struct UnrollLoops {
    pub bound: Option<u32>,
    pub sound: bool,
    /// Bounded mode's entry point: the only implementation unrolled, and without the warning
    /// about loops the bound cuts off (the bound is the point there).
    pub only: Option<crate::ast::Symbol>,
    /// Stratified inlining's templates: every implementation bounded as bounded mode bounds
    /// the entry point (each loop on its own, no warnings).
    pub every_bounded: bool,
    /// Bounded mode's `/maxStaticLoopBound:N`: a loop found to run at most N iterations
    /// ([`static_loop_bounds`]) is unrolled that far, the bound notwithstanding.
    pub max_static: Option<u32>,
    /// Context-bounded checking ([`super::sequentialize`]): a literal `assert false` or
    /// `assume false` does not end a path (the thread stops; the others go on).
    pub threads: bool,
    /// `/coalesceBlocks`: a body not yet in block form is coalesced before it is unrolled.
    pub coalesce: bool,
}

impl super::Pass for UnrollLoops {
    fn name(&self) -> &'static str {
        "unroll"
    }

    fn run(&self, typed: &TypedProgram, cx: &mut super::PassCx) -> Result<Option<Program>, PassError> {
        let Some(bound) = self.bound else { return Ok(None) };
        run(typed, bound, self, cx)
    }
}

fn run(
    typed: &TypedProgram,
    bound: u32,
    pass: &UnrollLoops,
    cx: &mut super::PassCx,
) -> Result<Option<Program>, PassError> {
    let UnrollLoops { sound, only, every_bounded, max_static, threads, coalesce, .. } = *pass;
    let bounded = only.is_some() || every_bounded;
    // The new bodies, by declaration: the program is copied once they are known, without the
    // bodies they replace (in bounded mode the entry point's body, every callee inlined, is
    // most of the program).
    let mut new_bodies: FxHashMap<usize, Decl> = FxHashMap::default();
    let mut warned: FxHashSet<(u32, u32)> = FxHashSet::default();
    let attrs_of = |decl: usize| match &typed.program.decls[decl] {
        Decl::Implementation(d) => &d.attrs[..],
        Decl::Procedure(d) => &d.attrs[..],
        _ => &[],
    };
    for info in &typed.symbols().implementations {
        if only.is_some_and(|o| o != info.name.name) {
            continue;
        }
        let decl = &typed.program.decls[info.decl.0 as usize];
        let original = match decl {
            Decl::Implementation(d) => &d.body,
            Decl::Procedure(d) => match &d.body {
                Some(b) => b,
                None => continue,
            },
            _ => continue,
        };
        // What the verifier cannot lower it reports itself; such a body stays as it is.
        let Ok(blocks) = blocks_of(typed, original, coalesce && !cfg::in_block_form(attrs_of(info.decl.0 as usize)))
        else {
            continue;
        };
        // Bounded mode bounds each loop on its own, as Corral does.
        let statically = match max_static {
            Some(max) if bounded && max > 0 => static_loop_bounds(typed, &blocks, max, STATIC_BOUND_BLOCKS, threads),
            _ => FxHashMap::default(),
        };
        let bound_of = |head: usize| statically.get(&head).map_or(bound, |&b| b.max(bound));
        if bounded && let Some(per_loop) = unroll_per_loop(&blocks, &bound_of, usize::MAX, threads) {
            new_bodies.insert(info.decl.0 as usize, with_blocks(decl, per_loop.blocks, Vec::new()));
            continue;
        }
        let unrolled = unroll_loops(&blocks, bound, sound);
        // Warnings only where code is checked, once per loop (inlined copies share its span).
        let proc_decl = info.procedure.map(|p| typed.symbols().procedure(p).decl.0 as usize);
        let verified =
            !verify_false(attrs_of(info.decl.0 as usize)) && !proc_decl.is_some_and(|d| verify_false(attrs_of(d)));
        if verified && !bounded {
            for (span, message) in vacuous_loops(typed, &blocks, &unrolled, bound) {
                if warned.insert((span.file.0, span.start)) {
                    cx.warning(span, &message);
                }
            }
        }
        let mut blocks = unrolled.blocks;
        freshen_capture_states(&mut blocks, info.name.name);
        new_bodies.insert(info.decl.0 as usize, with_blocks(decl, blocks, Vec::new()));
    }
    if new_bodies.is_empty() {
        return Ok(None);
    }
    Ok(Some(Program { decls: replace_decls(&typed.program, new_bodies) }))
}

/// Boogie's `Implementation.FreshenCaptureStates`, run on every body `/loopUnroll` unrolled:
/// unrolling copies `assume {:captureState "s"}` commands, and a model's states must be told
/// apart, so each one in `implementation`'s blocks, in order, is renamed
/// `s$renamed$<implementation>$<n>`, `n` counting from 0 (models and `/mv` print these names).
fn freshen_capture_states(blocks: &mut [AstBlock], implementation: crate::ast::Symbol) {
    let mut counter = 0usize;
    for block in blocks {
        for cmd in &mut block.cmds {
            let CmdKind::Assume { attrs, .. } = &mut cmd.kind else { continue };
            let Some(name) = crate::vcgen::encode::string_attr(attrs, "captureState") else { continue };
            // Boogie gives every `captureState` of the command the first one's new name.
            let fresh = format!("{name}$renamed${implementation}${counter}");
            for a in attrs.iter_mut().filter(|a| a.key == "captureState") {
                a.params = Box::new([AttrParam::Str(fresh.clone(), a.span)]);
            }
            counter += 1;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Unrolling

/// Boogie's `GraphNode`: the edges the depth-first walk found.
#[derive(Default, Clone)]
struct Node {
    /// How many of the block's commands count (Boogie's `GetOptimizedBody`).
    body_len: usize,
    forward: Vec<usize>,
    back: Vec<usize>,
    preds: Vec<usize>,
    cut_point: bool,
}

/// The nodes reachable from block 0 (`None` for the others), as `ComputeGraphInfo` builds them.
fn graph_info(blocks: &[AstBlock], threads: bool) -> Vec<Option<Node>> {
    struct Walk {
        nodes: Vec<Option<Node>>,
        on_stack: Vec<bool>,
        stack: Vec<(usize, usize)>,
    }
    impl Walk {
        fn enter(&mut self, blocks: &[AstBlock], b: usize, threads: bool) {
            let cmds = &blocks[b].cmds;
            let stop = if threads { None } else { cmds.iter().position(is_literal_false) };
            self.nodes[b] = Some(Node { body_len: stop.map_or(cmds.len(), |k| k + 1), ..Node::default() });
            // A block with a literal `assume false` has no way out: its successors are not
            // walked (Boogie compares the optimized body with the original).
            if stop.is_none() {
                self.on_stack[b] = true;
                self.stack.push((b, 0));
            }
        }
    }
    let mut walk = Walk { nodes: vec![None; blocks.len()], on_stack: vec![false; blocks.len()], stack: Vec::new() };
    walk.enter(blocks, 0, threads);
    while let Some(&(b, next)) = walk.stack.last() {
        let Some(&s) = blocks[b].succs.get(next) else {
            walk.on_stack[b] = false;
            walk.stack.pop();
            continue;
        };
        walk.stack.last_mut().expect("not empty").1 += 1;
        if walk.nodes[s].is_some() {
            let back = walk.on_stack[s];
            let node = walk.nodes[b].as_mut().expect("on the walk");
            if back {
                node.back.push(s);
            } else {
                node.forward.push(s);
            }
            let target = walk.nodes[s].as_mut().expect("seen");
            target.preds.push(b);
            target.cut_point |= back;
        } else {
            walk.nodes[b].as_mut().expect("on the walk").forward.push(s);
            walk.enter(blocks, s, threads);
            walk.nodes[s].as_mut().expect("entered").preds.push(b);
        }
    }
    walk.nodes
}

/// The strongly connected component of each node over forward and back edges (Kosaraju).
fn components(nodes: &[Option<Node>]) -> Vec<usize> {
    let succs = |n: &Node| n.forward.iter().chain(&n.back).copied().collect::<Vec<_>>();
    let mut order = Vec::new();
    let mut seen = vec![false; nodes.len()];
    for root in 0..nodes.len() {
        if nodes[root].is_none() || seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, succs(nodes[root].as_ref().expect("present")), 0)];
        while let Some((b, out, next)) = stack.last_mut() {
            if let Some(&s) = out.get(*next) {
                *next += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, succs(nodes[s].as_ref().expect("reachable")), 0));
                }
            } else {
                order.push(*b);
                stack.pop();
            }
        }
    }
    let mut component = vec![usize::MAX; nodes.len()];
    let mut count = 0;
    for &root in order.iter().rev() {
        if component[root] != usize::MAX {
            continue;
        }
        let mut stack = vec![root];
        component[root] = count;
        while let Some(b) = stack.pop() {
            for &p in &nodes[b].as_ref().expect("reachable").preds {
                if component[p] == usize::MAX {
                    component[p] = count;
                    stack.push(p);
                }
            }
        }
        count += 1;
    }
    component
}

struct Unrolled {
    blocks: Vec<AstBlock>,
    /// For each new block: the original block and the level of its copy.
    origin: Vec<(usize, u32)>,
    /// Which new blocks are cuts.
    is_cut: Vec<bool>,
    /// The component of each original block.
    component: Vec<usize>,
}

/// Boogie's `LoopUnroll.UnrollLoops` on blocks whose first is the entry.
fn unroll_loops(blocks: &[AstBlock], bound: u32, sound: bool) -> Unrolled {
    let nodes = graph_info(blocks, false);
    let component = components(&nodes);
    let mut made: FxHashMap<(u32, usize), usize> = FxHashMap::default();
    let mut out: Vec<AstBlock> = Vec::new();
    let mut origin = Vec::new();
    let mut cuts = Vec::new();
    // A frame per copy being made: its level, its block, the copies it goes to, and how many
    // of those are made.
    struct Frame {
        level: u32,
        block: usize,
        targets: Vec<(u32, usize)>,
        made: Vec<usize>,
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut result: Option<usize> = None;
    let mut request = Some((bound, 0usize));
    loop {
        if let Some((level, b)) = request.take() {
            if let Some(&copy) = made.get(&(level, b)) {
                result = Some(copy);
            } else {
                let node = nodes[b].as_ref().expect("reachable from the entry");
                let orig = &blocks[b];
                if level == 0 && node.cut_point {
                    let mut cmds: Vec<Cmd> = orig.cmds[..node.body_len]
                        .iter()
                        .take_while(|c| matches!(c.kind, CmdKind::Assert { .. } | CmdKind::Assume { .. }))
                        .cloned()
                        .collect();
                    let at = orig.tok.unwrap_or_default();
                    let f = Expr { kind: ExprKind::BoolLit(false), span: at, id: crate::ast::NodeId::NONE };
                    // Boogie's level-N unroller never learns of /soundLoopUnrolling.
                    let kind = if sound && bound != 0 {
                        CmdKind::Assert { attrs: Box::new([]), expr: f }
                    } else {
                        CmdKind::Assume { attrs: Box::new([]), expr: f }
                    };
                    cmds.push(Cmd { kind, span: at });
                    let copy = out.len();
                    out.push(AstBlock {
                        label: format!("{}#{level}", orig.label),
                        tok: orig.tok,
                        cmds,
                        succs: Vec::new(),
                        transfer: orig.transfer,
                    });
                    origin.push((b, level));
                    cuts.push(copy);
                    made.insert((level, b), copy);
                    result = Some(copy);
                } else {
                    let mut targets = Vec::new();
                    for &s in &node.forward {
                        let to = if component[s] == component[b] { level } else { bound };
                        targets.push((to, s));
                    }
                    // At level 0 only a cut point can have back edges, and it is cut; Boogie
                    // fails on a back edge from elsewhere (possible only with /loopUnroll:0 in
                    // an irreducible graph): such an edge is dropped here.
                    if level > 0 {
                        targets.extend(node.back.iter().map(|&s| (level - 1, s)));
                    }
                    stack.push(Frame { level, block: b, targets, made: Vec::new() });
                }
            }
        }
        if let Some(copy) = result.take() {
            match stack.last_mut() {
                Some(frame) => frame.made.push(copy),
                None => break,
            }
        }
        let frame = stack.last().expect("a copy under way");
        if frame.made.len() < frame.targets.len() {
            request = Some(frame.targets[frame.made.len()]);
            continue;
        }
        let frame = stack.pop().expect("a copy under way");
        let orig = &blocks[frame.block];
        let node = nodes[frame.block].as_ref().expect("reachable");
        let copy = out.len();
        out.push(AstBlock {
            label: format!("{}#{}", orig.label, frame.level),
            tok: orig.tok,
            cmds: orig.cmds[..node.body_len].to_vec(),
            succs: frame.made,
            transfer: orig.transfer,
        });
        origin.push((frame.block, frame.level));
        made.insert((frame.level, frame.block), copy);
        result = Some(copy);
    }
    // Listed in reverse order of completion: the entry first.
    let n = out.len();
    let flip = |i: usize| n - 1 - i;
    out.reverse();
    origin.reverse();
    for b in &mut out {
        b.succs.iter_mut().for_each(|s| *s = flip(*s));
    }
    let mut is_cut = vec![false; n];
    for c in cuts {
        is_cut[flip(c)] = true;
    }
    Unrolled { blocks: out, origin, is_cut, component }
}

// ---------------------------------------------------------------------------------------------
// Each loop bounded on its own (bounded mode)

/// The most blocks [`static_loop_bounds`] unrolls a body into before it gives up.
const STATIC_BOUND_BLOCKS: usize = 100_000;

/// Unrolls every natural loop to `bound` iterations of its own, as Corral bounds the
/// tail-recursive procedure it extracts from each loop: a loop's body runs at most `bound`
/// times per entry into the loop (the last time without going back to its head), and an inner
/// loop starts counting afresh in every iteration of the loop around it. A copy of a block is
/// one per iteration count of each loop around it (`label#i#j`, outermost first); a back edge
/// past the bound goes to a block `assume false` (`head#cut`, one per loop). The loop headed by
/// block `h` gets `bound_of(h)` iterations. `None` when the graph is irreducible (a cycle not
/// entered through one head), which [`unroll_loops`] handles instead, or when the copies
/// would pass `limit` blocks.
fn unroll_per_loop(
    blocks: &[AstBlock],
    bound_of: &dyn Fn(usize) -> u32,
    limit: usize,
    threads: bool,
) -> Option<PerLoop> {
    use petgraph::graph::{DiGraph, NodeIndex};
    let nodes = graph_info(blocks, threads);
    let mut graph = DiGraph::<(), ()>::new();
    let ids: Vec<NodeIndex> = blocks.iter().map(|_| graph.add_node(())).collect();
    for (b, node) in nodes.iter().enumerate() {
        if let Some(node) = node {
            for &s in node.forward.iter().chain(&node.back) {
                graph.add_edge(ids[b], ids[s], ());
            }
        }
    }
    let dominators = petgraph::algo::dominators::simple_fast(&graph, ids[0]);
    let dominates = |h: usize, t: usize| dominators.dominators(ids[t]).is_some_and(|mut d| d.any(|x| x == ids[h]));
    // Natural loops by head: the head and every block that reaches a back edge's source
    // without passing the head.
    let mut loops: FxHashMap<usize, FxHashSet<usize>> = FxHashMap::default();
    for (t, node) in nodes.iter().enumerate() {
        let Some(node) = node else { continue };
        for &h in &node.back {
            if !dominates(h, t) {
                return None;
            }
            let body = loops.entry(h).or_insert_with(|| [h].into_iter().collect());
            let mut work = vec![t];
            while let Some(b) = work.pop() {
                if body.insert(b) {
                    work.extend(nodes[b].as_ref().map_or(&[][..], |n| &n.preds[..]).iter().copied());
                }
            }
        }
    }
    // Each block's loops, outermost (largest) first; loops with different heads are nested
    // or disjoint in a reducible graph.
    let mut heads: Vec<usize> = loops.keys().copied().collect();
    heads.sort_by_key(|h| (std::cmp::Reverse(loops[h].len()), *h));
    let enclosing: Vec<Vec<usize>> =
        (0..blocks.len()).map(|b| heads.iter().copied().filter(|h| loops[h].contains(&b)).collect()).collect();

    let mut made: FxHashMap<(usize, Vec<u32>), usize> = FxHashMap::default();
    let mut out: Vec<AstBlock> = Vec::new();
    let mut origin: Vec<(usize, Vec<u32>)> = Vec::new();
    let mut work: Vec<(usize, Vec<u32>, usize)> = Vec::new();
    let mut cuts: FxHashMap<usize, usize> = FxHashMap::default();
    let mut copy = |b: usize,
                    counts: Vec<u32>,
                    out: &mut Vec<AstBlock>,
                    origin: &mut Vec<(usize, Vec<u32>)>,
                    work: &mut Vec<(usize, Vec<u32>, usize)>| {
        if let Some(&i) = made.get(&(b, counts.clone())) {
            return i;
        }
        origin.push((b, counts.clone()));
        let i = out.len();
        let suffix: String = counts.iter().map(|c| format!("#{c}")).collect();
        let orig = &blocks[b];
        let body_len = nodes[b].as_ref().map_or(orig.cmds.len(), |n| n.body_len);
        out.push(AstBlock {
            label: format!("{}{suffix}", orig.label),
            tok: orig.tok,
            cmds: orig.cmds[..body_len].to_vec(),
            succs: Vec::new(),
            transfer: orig.transfer,
        });
        made.insert((b, counts.clone()), i);
        work.push((b, counts, i));
        i
    };
    // The entry may itself head a loop (a goto back to the first block).
    copy(0, vec![1; enclosing[0].len()], &mut out, &mut origin, &mut work);
    while let Some((b, counts, i)) = work.pop() {
        if out.len() > limit {
            return None;
        }
        let Some(node) = &nodes[b] else { continue };
        let mut succs = Vec::new();
        for &s in node.forward.iter().chain(&node.back) {
            let from = &enclosing[b];
            let to = &enclosing[s];
            let target = if let Some(k) = from.iter().position(|&h| h == s) {
                // Back to the head of the k-th loop around: its next iteration, or the cut.
                if counts[k] >= bound_of(s) {
                    *cuts.entry(s).or_insert_with(|| {
                        origin.push((s, Vec::new()));
                        let at = blocks[s].tok.unwrap_or_default();
                        let f = Expr { kind: ExprKind::BoolLit(false), span: at, id: crate::ast::NodeId::NONE };
                        out.push(AstBlock {
                            label: format!("{}#cut", blocks[s].label),
                            tok: blocks[s].tok,
                            cmds: vec![Cmd { kind: CmdKind::Assume { attrs: Box::new([]), expr: f }, span: at }],
                            succs: Vec::new(),
                            transfer: blocks[s].transfer,
                        });
                        out.len() - 1
                    })
                } else {
                    let mut next = counts[..=k].to_vec();
                    next[k] += 1;
                    copy(s, next, &mut out, &mut origin, &mut work)
                }
            } else {
                // Within, out of or into loops: the loops kept keep their counts, a loop
                // entered starts at its first iteration.
                let kept = from.iter().zip(to).take_while(|(a, b)| a == b).count();
                let mut next = counts[..kept].to_vec();
                next.extend(std::iter::repeat_n(1, to.len() - kept));
                copy(s, next, &mut out, &mut origin, &mut work)
            };
            succs.push(target);
        }
        out[i].succs = succs;
    }
    let cut_of = cuts.into_iter().map(|(head, block)| (block, head)).collect();
    Some(PerLoop { blocks: out, origin, heads, cut_of })
}

/// What [`unroll_per_loop`] made: the copies, each copy's original block and iteration counts
/// (of the loops around it, outermost first; none for a cut), the loop heads, and the head
/// each cut block belongs to.
struct PerLoop {
    blocks: Vec<AstBlock>,
    origin: Vec<(usize, Vec<u32>)>,
    heads: Vec<usize>,
    cut_of: FxHashMap<usize, usize>,
}

/// `/maxStaticLoopBound:max` (Corral's option): the loops of `blocks` that never run more
/// than `max` iterations, by head, with the number of times their head is entered at most.
/// Each loop is unrolled `max + 1` times and the constants the program assigns propagated
/// through the copies ([`run_cmds`], which only drops a path whose assumption is known to be
/// false): a loop whose cut no path reaches is bounded by the last copy of its head a path
/// reaches. A loop whose guard depends on an unknown value is none of them. Nothing when the
/// copies would pass `limit` blocks.
fn static_loop_bounds(
    typed: &TypedProgram,
    blocks: &[AstBlock],
    max: u32,
    limit: usize,
    threads: bool,
) -> FxHashMap<usize, u32> {
    let mut bounds = FxHashMap::default();
    let Some(per) = unroll_per_loop(blocks, &|_| max.saturating_add(1), limit, threads) else { return bounds };
    if per.heads.is_empty() {
        return bounds;
    }
    let n = per.blocks.len();
    // Kahn's order over the acyclic copies.
    let mut indegree = vec![0usize; n];
    for b in &per.blocks {
        for &s in &b.succs {
            indegree[s] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&b| indegree[b] == 0).collect();
    let mut entry: Vec<Option<Env>> = vec![None; n];
    entry[0] = Some(Env::default());
    let mut reached: FxHashMap<usize, u32> = FxHashMap::default();
    let mut cut_reached: FxHashSet<usize> = FxHashSet::default();
    while let Some(b) = ready.pop() {
        for &s in &per.blocks[b].succs {
            indegree[s] -= 1;
            if indegree[s] == 0 {
                ready.push(s);
            }
        }
        let Some(env) = entry[b].take() else { continue };
        if let Some(&head) = per.cut_of.get(&b) {
            cut_reached.insert(head);
            continue;
        }
        let (original, counts) = &per.origin[b];
        if per.heads.contains(original) {
            let count = counts.last().copied().unwrap_or(1);
            let most = reached.entry(*original).or_insert(0);
            *most = (*most).max(count);
        }
        let Some(after) = run_cmds(typed, env, &per.blocks[b].cmds, threads) else { continue };
        for &s in &per.blocks[b].succs {
            entry[s] = Some(match entry[s].take() {
                None => after.clone(),
                Some(mut joined) => {
                    joined.retain(|v, value| after.get(v) == Some(value));
                    joined
                }
            });
        }
    }
    for (head, most) in reached {
        if !cut_reached.contains(&head) {
            bounds.insert(head, most);
        }
    }
    bounds
}

// ---------------------------------------------------------------------------------------------
// Loops that never exit within the bound

#[derive(Clone, Copy, PartialEq, Debug)]
enum Value {
    Int(i128),
    Bool(bool),
}

/// Known constant values of variables; `None` where no path reaches.
type Env = FxHashMap<VarId, Value>;

fn eval(typed: &TypedProgram, env: &Env, e: &Expr) -> Option<Value> {
    use Value::*;
    match &e.kind {
        ExprKind::BoolLit(b) => Some(Bool(*b)),
        ExprKind::IntLit(n) => n.parse().ok().map(Int),
        ExprKind::Var(v) => match typed.referent(v) {
            Some(Ref::Var(id)) => env.get(&id).copied(),
            _ => None,
        },
        ExprKind::Unary { op, arg } => match (op, eval(typed, env, arg)?) {
            (UnaryOp::Not, Bool(b)) => Some(Bool(!b)),
            (UnaryOp::Neg, Int(i)) => i.checked_neg().map(Int),
            _ => None,
        },
        ExprKind::Binary { op, lhs, rhs } => {
            let l = eval(typed, env, lhs);
            // `&&`, `||` and `==>` decide on one side when it settles the answer.
            match (op, l) {
                (BinaryOp::And, Some(Bool(false))) => return Some(Bool(false)),
                (BinaryOp::Or, Some(Bool(true))) => return Some(Bool(true)),
                (BinaryOp::Imp, Some(Bool(false))) => return Some(Bool(true)),
                _ => {}
            }
            let r = eval(typed, env, rhs);
            match (op, r) {
                (BinaryOp::And, Some(Bool(false))) => return Some(Bool(false)),
                (BinaryOp::Or | BinaryOp::Imp, Some(Bool(true))) => return Some(Bool(true)),
                _ => {}
            }
            match (op, l?, r?) {
                (BinaryOp::And, Bool(a), Bool(b)) => Some(Bool(a && b)),
                (BinaryOp::Or, Bool(a), Bool(b)) => Some(Bool(a || b)),
                (BinaryOp::Imp, Bool(a), Bool(b)) => Some(Bool(!a || b)),
                (BinaryOp::Iff, Bool(a), Bool(b)) => Some(Bool(a == b)),
                (BinaryOp::Eq, a, b) => Some(Bool(a == b)),
                (BinaryOp::Neq, a, b) => Some(Bool(a != b)),
                (BinaryOp::Lt, Int(a), Int(b)) => Some(Bool(a < b)),
                (BinaryOp::Le, Int(a), Int(b)) => Some(Bool(a <= b)),
                (BinaryOp::Gt, Int(a), Int(b)) => Some(Bool(a > b)),
                (BinaryOp::Ge, Int(a), Int(b)) => Some(Bool(a >= b)),
                (BinaryOp::Add, Int(a), Int(b)) => a.checked_add(b).map(Int),
                (BinaryOp::Sub, Int(a), Int(b)) => a.checked_sub(b).map(Int),
                (BinaryOp::Mul, Int(a), Int(b)) => a.checked_mul(b).map(Int),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Runs `cmds` from `env`; `None` when an assumption is known to be false. (An assertion
/// known to be false does not stop the path: the path reaches it, and it is reported.) With
/// `threads`, globals are never known (another thread may write them between any two
/// commands) and only a branch's guard (`{:partition}`) stops the path: another assumption
/// stops its thread, not the path.
fn run_cmds(typed: &TypedProgram, mut env: Env, cmds: &[Cmd], threads: bool) -> Option<Env> {
    for c in cmds {
        match &c.kind {
            CmdKind::Assume { expr, attrs }
                if (!threads || attrs.iter().any(|a| a.key.as_str() == "partition"))
                    && eval(typed, &env, expr) == Some(Value::Bool(false)) =>
            {
                return None;
            }
            CmdKind::Assign { lhss, rhss, .. } => {
                let values: Vec<Option<Value>> = rhss.iter().map(|r| eval(typed, &env, r)).collect();
                for (lhs, value) in lhss.iter().zip(values) {
                    let mut base = lhs;
                    while let AssignLhs::Select { base: b, .. } | AssignLhs::Field { base: b, .. } = base {
                        base = b;
                    }
                    let AssignLhs::Var(v) = base else { continue };
                    let Some(Ref::Var(id)) = typed.referent(v) else { continue };
                    let global = threads && typed.symbols().var(id).kind == crate::typeck::VarKind::Global;
                    match (lhs, value) {
                        (AssignLhs::Var(_), Some(value)) if !global => env.insert(id, value),
                        _ => env.remove(&id),
                    };
                }
            }
            CmdKind::Havoc { vars } => {
                for v in vars.iter() {
                    if let Some(Ref::Var(id)) = typed.referent(v) {
                        env.remove(&id);
                    }
                }
            }
            // A call may change its outs and any global: forget everything.
            CmdKind::Call(_) | CmdKind::ParCall { .. } | CmdKind::Unpack { .. } => env.clear(),
            _ => {}
        }
    }
    Some(env)
}

/// The loops (components with a cut point and a way out) that every path reaching them
/// leaves only through a cut: the warning's position and text for each.
fn vacuous_loops(typed: &TypedProgram, original: &[AstBlock], unrolled: &Unrolled, bound: u32) -> Vec<(Span, String)> {
    let blocks = &unrolled.blocks;
    let component = &unrolled.component;
    let comp = |new: usize| component[unrolled.origin[new].0];
    // States at block entries; the list is in topological order (copies complete after
    // their successors, and the list is reversed).
    let mut entry: Vec<Option<Env>> = vec![None; blocks.len()];
    if !blocks.is_empty() {
        entry[0] = Some(Env::default());
    }
    let mut cut_reached: FxHashSet<usize> = FxHashSet::default();
    let mut exit_feasible: FxHashSet<usize> = FxHashSet::default();
    for b in 0..blocks.len() {
        let Some(env) = entry[b].take() else { continue };
        let Some(after) = run_cmds(typed, env.clone(), &blocks[b].cmds, false) else {
            if unrolled.is_cut[b] {
                // The cut's own `assume false` stops it; what matters is reaching it with its
                // invariant holding.
                let head = &blocks[b].cmds[..blocks[b].cmds.len() - 1];
                if run_cmds(typed, env, head, false).is_some() {
                    cut_reached.insert(comp(b));
                }
            }
            continue;
        };
        for &s in &blocks[b].succs {
            // Leaving the loop is possible when the guard at the exit may hold.
            let guard = blocks[s].cmds.iter().take_while(|c| matches!(c.kind, CmdKind::Assume { .. }));
            let guard: Vec<Cmd> = guard.cloned().collect();
            if comp(s) != comp(b) && run_cmds(typed, after.clone(), &guard, false).is_some() {
                exit_feasible.insert(comp(b));
            }
            entry[s] = Some(match entry[s].take() {
                None => after.clone(),
                Some(mut joined) => {
                    joined.retain(|v, value| after.get(v) == Some(value));
                    joined
                }
            });
        }
    }
    // Components with an edge out of them, in the order of their first block.
    let mut warnings = Vec::new();
    let mut reported = FxHashSet::default();
    for (b, block) in original.iter().enumerate() {
        let c = component[b];
        if c == usize::MAX || !cut_reached.contains(&c) || exit_feasible.contains(&c) || reported.contains(&c) {
            continue;
        }
        let has_exit =
            original.iter().enumerate().any(|(x, bx)| component[x] == c && bx.succs.iter().any(|&s| component[s] != c));
        if !has_exit {
            continue;
        }
        reported.insert(c);
        let Some(tok) = block.tok else { continue };
        warnings.push((
            tok,
            format!(
                "every path into this loop is still in it after {bound} unrolled iteration{}: \
                 /loopUnroll:{bound} cuts them all off, so nothing after the loop is checked",
                if bound == 1 { "" } else { "s" }
            ),
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::UnrollLoops;
    use crate::passes::PassCx;
    use crate::passes::tests::typed;

    /// `/loopUnroll` alone (the bound is `run`'s argument).
    const PLAIN: UnrollLoops = UnrollLoops {
        bound: None,
        sound: false,
        only: None,
        every_bounded: false,
        max_static: None,
        threads: false,
        coalesce: true,
    };

    /// The unrolled program (labels with `#`, gotos, cuts) prints as a program that checks
    /// again and prints the same; unrolling it again changes only the labels' levels.
    #[test]
    fn unrolled_golden_inputs_print_programs_that_check_again() {
        let dir = std::path::Path::new("tests/golden/passes");
        for entry in std::fs::read_dir(dir).expect("golden directory") {
            let path = entry.expect("entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if !name.starts_with("unroll_") || !name.ends_with(".bpl") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable");
            let mut cx = PassCx::default();
            let program = super::run(&typed(&text), 2, &PLAIN, &mut cx).expect("unrolls").expect("changes");
            let printed = crate::printer::print_program(&program, &Default::default());
            let again = crate::passes::tests::typed_output(&printed);
            let reprinted = crate::printer::print_program(&again.program, &Default::default());
            assert_eq!(printed, reprinted, "{}", path.display());
            let twice = super::run(&again, 2, &PLAIN, &mut cx).expect("unrolls").expect("changes");
            let twice = crate::printer::print_program(&twice, &Default::default());
            assert!(twice.contains("#2#2:"), "{}", path.display());
        }
    }
}
