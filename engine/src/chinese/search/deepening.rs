//! Iterative deepening of the Chinese checkers tree on several threads by
//! splitting the root: in each iteration the threads take the root moves
//! in turn from one counter (in the order of the previous iteration) and
//! search each with the best score any of them has proven as alpha, over
//! the one shared table. The iteration's answer is the best move over all
//! threads. Lazy SMP (every thread searching the whole tree and sharing
//! the table) was measured first and shortened the time to a depth by
//! only 10–20% here: the best-reply tree finds few transpositions, so a
//! second thread must be given its own part of the tree to pay.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::super::moves::Move;
use super::super::position::Position;
use super::parameters::{multi, HELPER_STACK};
use super::siege::SealPlan;
use super::table::Table;
use super::tree::{Mode, RootSplit, Tree};
use crate::search::pv::PvTable;
use crate::search::time::TimeManager;
use crate::search::{Score, SearchResult, INF, MATE, MATE_BOUND, MAX_PLY};

/// Everything a thread needs to build its tree for one search.
pub(super) struct TreeSetup {
    pub pos: Position,
    pub me: usize,
    pub active: [bool; 6],
    pub anti_blocking: bool,
    /// A side with no legal move loses (CCERL) instead of passing.
    pub no_move_loss: bool,
    /// A blocked game ends at the no-progress limit and is decided by the
    /// ranking (pieces in goal, then distance).
    pub ranked: bool,
    pub mode: Mode,
    pub width: usize,
    pub recent: Vec<u64>,
    /// Hashes of positions the game has seen twice, under the rule that
    /// a third occurrence is a draw (two players).
    pub drawn: Vec<u64>,
    pub node_limit: Option<u64>,
}

impl TreeSetup {
    /// A tree over `tt` with its own PV buffer, stopped by `stop` or
    /// `abort` (and by `deadline`, on the main thread only).
    fn build<'a>(
        &self,
        stop: &'a AtomicBool,
        abort: &'a AtomicBool,
        deadline: Option<Instant>,
        tt: &'a Table,
        pv: &'a mut PvTable<Move, MAX_PLY>,
    ) -> Tree<'a> {
        let mut tree = Tree::new(
            &self.pos,
            self.me,
            self.active,
            self.anti_blocking,
            self.mode,
            self.width,
            stop,
            tt,
            pv,
        );
        if self.pos.players() >= 3 && self.mode == Mode::BestReply {
            tree.reply_width = (self.width / multi::REPLY_DIVISOR).max(multi::MIN_REPLIES);
            tree.rival_weight = multi::RIVAL_WEIGHT;
            tree.keep_rival_costs(&self.pos);
            tree.brs_plus = multi::BRS_PLUS;
        }
        tree.abort = Some(abort);
        tree.recent = self.recent.clone();
        tree.drawn = self.drawn.clone();
        tree.deadline = deadline;
        tree.node_limit = self.node_limit;
        tree.no_move_loss = self.no_move_loss && self.pos.players() == 2;
        if self.mode == Mode::BestReply {
            let plan = SealPlan::of(&self.pos, self.me, tree.no_move_loss, self.ranked);
            tree.set_seal_plan(plan, &self.pos);
        }
        tree.root_order = tree.ordered(&self.pos, self.me, usize::MAX, None);
        tree
    }
}

/// The best root move of one iteration over all threads: the highest
/// score, the main thread's first on a tie; with its principal variation.
fn best_of(main: &Tree<'_>, helpers: &[Tree<'_>]) -> Option<(Move, i32, Vec<Move>)> {
    let mut best: Option<(Move, i32, &Tree<'_>)> = None;
    for tree in std::iter::once(main).chain(helpers) {
        if let Some((mv, score)) = tree.root_best {
            if best.is_none_or(|(_, s, _)| score > s) {
                best = Some((mv, score, tree));
            }
        }
    }
    best.map(|(mv, score, tree)| {
        let mut pv = tree.pv().to_vec();
        if pv.first() != Some(&mv) {
            pv = vec![mv];
        }
        (mv, score, pv)
    })
}

/// The tree search of `setup` on `threads` threads (`helper_pvs` holds at
/// least `threads - 1` buffers), writing the answer into `out`. `report`
/// sees `out` after each depth with the seldepth and the table's fill.
#[allow(clippy::too_many_arguments)]
pub(super) fn deepen(
    setup: &TreeSetup,
    threads: usize,
    max_depth: u32,
    depth_limited: bool,
    time: &TimeManager,
    stop: &AtomicBool,
    tt: &Table,
    pv: &mut PvTable<Move, MAX_PLY>,
    helper_pvs: &mut [PvTable<Move, MAX_PLY>],
    out: &mut SearchResult<Move>,
    report: &mut dyn FnMut(&SearchResult<Move>, u32, u32),
) {
    let abort = AtomicBool::new(false);
    let split = RootSplit::new();
    let mut main = setup.build(stop, &abort, time.deadline(), tt, pv);
    let mut helpers: Vec<Tree<'_>> = helper_pvs
        .iter_mut()
        .take(threads.saturating_sub(1))
        .map(|pv| setup.build(stop, &abort, None, tt, pv))
        .collect();
    if !helpers.is_empty() {
        main.root_split = Some(&split);
        for helper in &mut helpers {
            helper.root_split = Some(&split);
        }
    }
    let (pos, me) = (&setup.pos, setup.me);
    for depth in 1..=max_depth {
        split.reset();
        main.root_best = None;
        std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                helper.root_order.clone_from(&main.root_order);
                helper.root_best = None;
                std::thread::Builder::new()
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || {
                        helper.search(pos, me, depth as i32, 0, -INF, INF);
                    })
                    .ok();
            }
            main.search(pos, me, depth as i32, 0, -INF, INF);
            // The helpers see the clock through the main thread.
            if main.stopped {
                abort.store(true, Ordering::Relaxed);
            }
        });
        let nodes = main.nodes + helpers.iter().map(|h| h.nodes).sum::<u64>();
        let seldepth = helpers
            .iter()
            .map(|h| h.seldepth)
            .fold(main.seldepth, u32::max);
        let stopped = main.stopped || helpers.iter().any(|h| h.stopped);
        let best = best_of(&main, &helpers);
        out.nodes = nodes;
        if stopped {
            // A partial iteration: keep its best move when it beat the
            // previous best (which is searched first).
            if let Some((mv, s, _)) = best {
                if out.depth == 0 || Some(mv) == out.best || s > out.score.to_internal() {
                    out.best = Some(mv);
                }
            }
            break;
        }
        let Some((mv, score, line)) = best else {
            break;
        };
        out.best = Some(mv);
        out.score = Score::from_internal(score);
        out.depth = depth;
        out.pv = line;
        report(out, seldepth, main.hashfull());
        if let Some(i) = main.root_order.iter().position(|m| *m == mv) {
            main.root_order[..=i].rotate_right(1);
        }
        // A finish stops the deepening only once the iteration's own
        // horizon reaches it: one read from the table (a deeper search's
        // line, whose rival had only its best replies) may be gone when
        // the rival's other moves are searched.
        let finish_in_sight = score.abs() >= MATE_BOUND && MATE - score.abs() <= depth as i32;
        if finish_in_sight || main.root_order.len() == 1 && !depth_limited {
            break;
        }
        if !time.continue_iterating(1.0) {
            break;
        }
    }
}
