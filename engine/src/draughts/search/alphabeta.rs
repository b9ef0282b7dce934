//! The searcher: principal variation search with a transposition table,
//! quiescence over captures, late-move reductions, extensions and draw
//! detection; and the material-only baseline (`Style::Plain`).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering as AtomicOrdering};

use arrayvec::ArrayVec;

use super::eval::{evaluate, material};
use super::ordering::{pick, Ordering, NO_MOVE};
use super::parameters::*;
use super::tt::{Bound, TranspositionTable};
use super::TB_WIN;
use crate::draughts::tablebase::{GameValue, Tablebase};
use crate::draughts::{zobrist, Move, MoveList, Position, MAX_MOVES};
use crate::search::pv::PvTable;
use crate::search::time::TimeManager;
use crate::search::{from_tt, to_tt, INF, MATE, MATE_BOUND, MAX_PLY};

/// Late-move reductions by remaining depth and move number:
/// `LMR_BASE + ln(depth) * ln(move) / LMR_DIVISOR`, computed once.
static LMR: std::sync::LazyLock<[[i32; LMR_TABLE]; LMR_TABLE]> = std::sync::LazyLock::new(|| {
    let mut t = [[0; LMR_TABLE]; LMR_TABLE];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
        }
    }
    t
});

/// The state of one search thread that lives in the engine across
/// searches: killers and history (aged at the start of each search), and
/// the reusable principal-variation table and repetition stack.
pub(crate) struct Worker {
    ord: Box<Ordering>,
    pv: PvTable<Move, { MAX_PLY + 1 }>,
    rep: Vec<u64>,
}

impl Worker {
    /// Empty tables.
    pub(crate) fn new() -> Worker {
        Worker {
            ord: Ordering::new(),
            pv: PvTable::new(NO_MOVE),
            rep: Vec::with_capacity(256),
        }
    }

    /// Ages the killers and history at the start of a search.
    pub(crate) fn age(&mut self) {
        self.ord.age();
    }

    /// Forgets the killers and history (new game).
    pub(crate) fn clear(&mut self) {
        self.ord.clear();
    }

    /// The sum of the history magnitudes (tests).
    #[cfg(test)]
    pub(crate) fn history_sum(&self) -> i64 {
        self.ord.history_sum()
    }
}

/// State shared by all threads of one search.
pub struct Shared<'a> {
    /// The table all threads read and write.
    pub tt: &'a TranspositionTable,
    /// Raised by the protocol's `stop`.
    pub stop: &'a AtomicBool,
    /// Raised by the main thread to end the helpers.
    pub abort: AtomicBool,
    /// Nodes published by all threads (every 1024 nodes and at the end).
    pub nodes: AtomicU64,
    /// Table probes published by all threads, as `nodes`.
    pub tbhits: AtomicU64,
    /// The endgame tables, if any.
    pub tablebase: Option<&'a Tablebase>,
    /// Probes wait for a slice's file to be read (searches without a
    /// clock, whose results must not depend on timing); a search on the
    /// clock never waits (see [`Tablebase::probe_without_waiting`]).
    pub wait_for_tables: bool,
    /// The deepest iteration any thread has completed: a thread still
    /// searching that depth or a shallower one abandons it.
    pub completed: AtomicU32,
    /// Plies without a capture or a man move that draw the game under
    /// the root's rules (80 in Spanish draughts, 30 in Russian).
    pub no_progress_plies: u32,
}

#[inline(always)]
fn no_progress_after(pos: &Position, mv: &Move, np: u32) -> u32 {
    if mv.captured != 0 || pos.moves_man(mv) {
        0
    } else {
        np + 1
    }
}

/// One search thread.
pub struct Searcher<'a> {
    shared: &'a Shared<'a>,
    /// Whether this thread watches the clock and the node limit.
    main: bool,
    time: TimeManager,
    node_limit: u64,
    /// Nodes searched by this thread.
    pub nodes: u64,
    published: u64,
    /// Table probes of this thread, and how many are published.
    tbhits: u64,
    tbhits_published: u64,
    /// Positions with at most this many pieces are probed (0: no tables).
    tb_pieces: u32,
    /// Set once the search must unwind.
    pub stopped: bool,
    /// Set with `stopped` when another thread has completed the depth
    /// this one is searching: the iteration, not the search, is over.
    pub superseded: bool,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Killers, history, PV table and the repetition stack: the hashes of
    /// the game since the last irreversible move, then of the current line.
    w: &'a mut Worker,
    root_depth: i32,
    /// Best root move proven so far (updated only by fully searched moves).
    pub root_best: Move,
    /// Material-only baseline without table or heuristics.
    plain: bool,
    /// False right after a null move (no two in a row).
    null_ok: bool,
}

impl<'a> Searcher<'a> {
    /// A thread for `shared` with the state `w`; `history` are the game's
    /// hashes since the last capture or man move, the root included.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        shared: &'a Shared<'a>,
        w: &'a mut Worker,
        main: bool,
        time: TimeManager,
        node_limit: u64,
        history: &[u64],
        plain: bool,
    ) -> Searcher<'a> {
        w.rep.clear();
        w.rep.extend_from_slice(history);
        Searcher {
            shared,
            main,
            time,
            node_limit,
            nodes: 0,
            published: 0,
            tbhits: 0,
            tbhits_published: 0,
            tb_pieces: shared.tablebase.map_or(0, |tb| tb.max_pieces()),
            stopped: false,
            superseded: false,
            seldepth: 0,
            w,
            root_depth: 0,
            root_best: NO_MOVE,
            plain,
            null_ok: true,
        }
    }

    /// Nodes of all threads, as far as published, plus this thread's.
    pub fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(AtomicOrdering::Relaxed) + (self.nodes - self.published)
    }

    /// Adds this thread's unpublished nodes to the shared count.
    pub fn publish(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.published, AtomicOrdering::Relaxed);
        self.published = self.nodes;
        self.shared
            .tbhits
            .fetch_add(self.tbhits - self.tbhits_published, AtomicOrdering::Relaxed);
        self.tbhits_published = self.tbhits;
    }

    /// Whether this search probes endgame tables.
    pub fn tablebase_in_use(&self) -> bool {
        self.tb_pieces > 0
    }

    /// Table probes of all threads, as far as published, plus this one's.
    pub fn total_tbhits(&self) -> u64 {
        self.shared.tbhits.load(AtomicOrdering::Relaxed) + (self.tbhits - self.tbhits_published)
    }

    /// The exact score of `pos` from the tables when it is in them: a win
    /// at the no-progress count `np` scores `TB_WIN - ply`.
    #[inline(always)]
    fn probe_tables(&mut self, pos: &Position, ply: usize, np: u32) -> Option<i32> {
        if pos.occupied().count() > self.tb_pieces {
            return None;
        }
        let tables = self.shared.tablebase?;
        let probe = if self.shared.wait_for_tables {
            tables.probe(pos)
        } else {
            tables.probe_without_waiting(pos)
        }?;
        self.tbhits += 1;
        Some(match probe.value_at(np) {
            GameValue::Win => TB_WIN - ply as i32,
            GameValue::Draw => 0,
            GameValue::Loss => -TB_WIN + ply as i32,
        })
    }

    /// The principal variation of the last completed root search.
    pub fn pv(&self) -> &[Move] {
        self.w.pv.root()
    }

    /// Counts a node; true when the search must stop.
    #[inline(always)]
    fn count_node(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return true;
        }
        self.nodes += 1;
        if self.nodes & POLL_MASK == 0 {
            self.publish();
            if self.shared.stop.load(AtomicOrdering::Relaxed)
                || self.shared.abort.load(AtomicOrdering::Relaxed)
                || (self.main && self.time.hard_expired())
            {
                self.stopped = true;
            } else if self.shared.completed.load(AtomicOrdering::Relaxed) >= self.root_depth as u32
            {
                self.stopped = true;
                self.superseded = true;
            }
        }
        self.stopped
    }

    #[inline(always)]
    fn is_repetition(&self, hash: u64, np: u32) -> bool {
        let rep = &self.w.rep;
        let n = rep.len();
        let mut i = 2;
        while i <= np as usize && i < n {
            if rep[n - 1 - i] == hash {
                return true;
            }
            i += 2;
        }
        false
    }

    /// One complete root search to `depth` in the window (`alpha`, `beta`).
    pub fn root(&mut self, pos: &Position, depth: i32, alpha: i32, beta: i32, np: u32) -> i32 {
        self.root_depth = depth;
        if self.plain {
            self.plain_search(pos, depth, alpha, beta, 0)
        } else {
            self.negamax(pos, depth, alpha, beta, 0, np, true)
        }
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.w.pv.update(ply, mv);
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        np: u32,
        pv_node: bool,
    ) -> i32 {
        let hash = pos.hash();
        if ply > 0 && self.is_repetition(hash, np) {
            self.w.pv.clear(ply);
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(pos, alpha, beta, ply, np);
        }
        self.w.pv.clear(ply);
        if self.count_node() {
            return 0;
        }
        if ply > 0 {
            if let Some(score) = self.probe_tables(pos, ply, np) {
                return score;
            }
        }
        if ply > 0 {
            // Mate distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            return -MATE + ply as i32;
        }
        if np >= self.shared.no_progress_plies {
            return 0;
        }
        let tt = self.shared.tt;
        let mut tt_idx = None;
        if let Some(e) = tt.probe(hash) {
            tt_idx = e.find_move(&moves);
            if !pv_node && e.depth >= depth {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let n = moves.len();
        // A forced move (single legal move, typically a capture) is not a
        // real decision: extend it, within twice the nominal depth.
        let ext = i32::from(n == 1 && (ply as i32) < FORCED_EXTENSION_FACTOR * self.root_depth);
        let new_depth = depth - 1 + ext;
        let captures = moves[0].captured != 0;
        // Reverse futility: a quiet position so far above beta near the
        // leaves that one or two moves will not bring it back.
        if !pv_node && !captures && ply > 0 && beta.abs() < MATE_BOUND {
            let e = evaluate(pos);
            if depth <= FUTILITY_MAX_DEPTH && e - FUTILITY_MARGIN * depth >= beta {
                return e;
            }
            // Null move: let the opponent move twice; if that still fails
            // high the position is good enough. Draughts has zugzwangs, so
            // only with enough men on both sides and never twice in a row.
            if self.null_ok
                && depth >= NULL_MIN_DEPTH
                && e >= beta
                && pos.men(pos.to_move()).count() >= NULL_MIN_MEN
                && pos.occupied().count() >= NULL_MIN_PIECES
            {
                let mut null = *pos;
                null.side = !pos.side;
                null.hash ^= zobrist::SIDE;
                let r = NULL_REDUCTION + depth / NULL_REDUCTION_DIVISOR;
                self.w.rep.push(null.hash);
                self.null_ok = false;
                let s = -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, 0, false);
                self.null_ok = true;
                self.w.rep.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        let mut scores = [0i32; MAX_MOVES];
        self.w.ord.score(pos, &moves, tt_idx, ply, &mut scores);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_idx = None;
        let mut tried: ArrayVec<Move, TRIED_MOVES> = ArrayVec::new();
        for i in 0..n {
            let idx = pick(&mut scores, n);
            let mv = moves[idx];
            // Late-move pruning: near the leaves, quiet moves ordered last
            // are skipped once enough have been tried.
            if !pv_node
                && !captures
                && depth <= LMP_MAX_DEPTH
                && i as i32 >= LMP_BASE + LMP_FACTOR * depth * depth
                && best > -MATE_BOUND
                && !pos.is_promotion(&mv)
            {
                continue;
            }
            let child = pos.played_unchecked(&mv);
            let cnp = no_progress_after(pos, &mv, np);
            self.w.rep.push(child.hash());
            let score = if i == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, cnp, pv_node)
            } else {
                let reduce = if depth >= LMR_MIN_DEPTH
                    && i >= LMR_MIN_MOVE
                    && !captures
                    && ext == 0
                    && !pos.is_promotion(&mv)
                {
                    let last = LMR_TABLE - 1;
                    let r = LMR[(depth as usize).min(last)][i.min(last)]
                        - LMR_PV_LESS * i32::from(pv_node);
                    r.clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut s = -self.negamax(
                    &child,
                    new_depth - reduce,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    cnp,
                    false,
                );
                if s > alpha && reduce > 0 {
                    s = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, cnp, false);
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, cnp, true);
                }
                s
            };
            self.w.rep.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_idx = Some(idx);
                    alpha = score;
                    self.update_pv(ply, mv);
                    if ply == 0 {
                        self.root_best = mv;
                    }
                    if score >= beta {
                        self.w.ord.cutoff(pos, mv, ply, depth, &tried);
                        break;
                    }
                }
            }
            if !tried.is_full() {
                tried.push(mv);
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let mv = best_idx.filter(|&i| i < 255).map(|i| (i as u8, moves[i]));
        tt.store(hash, to_tt(best, ply), depth, bound, mv);
        best
    }

    /// Resolves captures: a position where the side to move must capture is
    /// searched further; a quiet one is evaluated (or is lost if it has no
    /// move, or drawn by the variant's no-progress rule).
    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, np: u32) -> i32 {
        self.w.pv.clear(ply);
        if self.count_node() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(score) = self.probe_tables(pos, ply, np) {
            return score;
        }
        if !pos.has_capture() {
            if pos.count_legal_moves() == 0 {
                return -MATE + ply as i32;
            }
            if np >= self.shared.no_progress_plies {
                return 0;
            }
            return if self.plain {
                material(pos)
            } else {
                evaluate(pos)
            };
        }
        if ply >= MAX_PLY {
            return if self.plain {
                material(pos)
            } else {
                evaluate(pos)
            };
        }
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        let mut best = -INF;
        for mv in &moves {
            let child = pos.played_unchecked(mv);
            let s = -self.qsearch(&child, -beta, -alpha, ply + 1, 0);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The baseline: plain alpha-beta on material, moves in generation
    /// order (captures are forced, so they come first by the rules), the
    /// same capture quiescence, no table, no draw rules.
    fn plain_search(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.w.pv.clear(ply);
        if self.count_node() {
            return 0;
        }
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            return -MATE + ply as i32;
        }
        let mut best = -INF;
        for mv in &moves {
            let child = pos.played_unchecked(mv);
            let s = -self.plain_search(&child, depth - 1, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, *mv);
                    if ply == 0 {
                        self.root_best = *mv;
                    }
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
