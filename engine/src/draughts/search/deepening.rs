//! Iterative deepening on several threads (Lazy SMP): the main thread
//! watches the clock and reports; helpers search the same root one ply
//! deeper on alternate threads, and every thread offers each iteration it
//! completes. The main thread adopts an iteration deeper than its own (and
//! goes on from there), and a fixed-depth search ends as soon as any
//! thread has completed that depth, so the second thread shortens the
//! time to a depth instead of only warming the table.

use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::Instant;

use crate::draughts::{Move, Position};
use crate::search::deepest;
use crate::search::time::TimeManager;
use crate::search::{SearchInfo, SearchResult, INF, MATE, MATE_BOUND, MAX_PLY};

use super::alphabeta::{Searcher, Shared};
use super::ordering::NO_MOVE;
use super::parameters::{
    ASPIRATION_DELTA, ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH, CHANGE_DECAY, CHANGE_WEIGHT,
    DEPTH_HEADROOM, HELPER_OFFSET, PROVEN_DEPTH_MARGIN,
};
use super::to_score;

/// A completed iteration: its best move, score, depth and principal
/// variation.
#[derive(Clone)]
pub(super) struct Partial {
    best: Move,
    score: i32,
    depth: u32,
    pv: Vec<Move>,
}

impl Partial {
    /// The search's result, with the nodes of all threads.
    pub(super) fn finish(self, shared: &Shared<'_>) -> SearchResult<Move> {
        SearchResult {
            best: Some(self.best),
            score: to_score(self.score),
            depth: self.depth,
            nodes: shared.nodes.load(AtomicOrdering::Relaxed),
            pv: self.pv,
        }
    }

    /// The iteration `searcher` has just completed at `depth`.
    fn completed(searcher: &Searcher<'_>, score: i32, depth: i32) -> Partial {
        let best = searcher.root_best;
        let mut pv = searcher.pv().to_vec();
        if pv.first() != Some(&best) {
            pv = vec![best];
        }
        Partial {
            best,
            score,
            depth: depth as u32,
            pv,
        }
    }
}

/// The deepest iteration completed by any thread.
pub(super) type Deepest = deepest::Deepest<Partial>;

/// One iteration with an aspiration window around `prev` (from depth 5,
/// unless the score is a proven result), widened on failure.
fn aspirate(
    s: &mut Searcher<'_>,
    root: &Position,
    depth: i32,
    prev: i32,
    np: u32,
    plain: bool,
) -> i32 {
    if plain || depth < ASPIRATION_MIN_DEPTH || prev.abs() >= MATE_BOUND {
        return s.root(root, depth, -INF, INF, np);
    }
    let mut delta = ASPIRATION_DELTA;
    let (mut alpha, mut beta) = (prev - delta, prev + delta);
    loop {
        let score = s.root(root, depth, alpha, beta, np);
        if s.stopped {
            return score;
        }
        if score <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INF);
        } else if score >= beta {
            beta = (score + delta).min(INF);
        } else {
            return score;
        }
        delta *= 2;
        if delta > ASPIRATION_MAX_DELTA {
            alpha = -INF;
            beta = INF;
        }
    }
}

/// Records an iteration `searcher` completed at `depth`; threads still
/// on that depth abandon it.
fn complete(
    searcher: &Searcher<'_>,
    shared: &Shared<'_>,
    deepest: &Deepest,
    score: i32,
    depth: i32,
) -> Partial {
    let partial = Partial::completed(searcher, score, depth);
    deepest.offer(depth as u32, &partial);
    shared
        .completed
        .fetch_max(depth as u32, AtomicOrdering::Relaxed);
    partial
}

/// The depth to search after `depth`: past what any thread completed.
fn next_depth(shared: &Shared<'_>, depth: i32) -> i32 {
    (depth + 1).max(shared.completed.load(AtomicOrdering::Relaxed) as i32 + 1)
}

/// A helper thread's deepening: odd-numbered helpers run one ply ahead.
/// Ends the whole search when it completes `max_depth`.
pub(super) fn help(
    helper: &mut Searcher<'_>,
    shared: &Shared<'_>,
    id: usize,
    root: &Position,
    max_depth: i32,
    np: u32,
    deepest: &Deepest,
) {
    let mut score = 0;
    let mut depth = 1;
    while depth <= max_depth {
        let d = (depth + (id as i32 & HELPER_OFFSET)).min(max_depth);
        let s = aspirate(helper, root, d, score, np, false);
        if helper.superseded {
            helper.stopped = false;
            helper.superseded = false;
        } else if helper.stopped {
            break;
        } else {
            score = s;
            complete(helper, shared, deepest, score, d);
            if d >= max_depth {
                shared.abort.store(true, AtomicOrdering::Relaxed);
                break;
            }
        }
        depth = next_depth(shared, depth);
    }
    helper.publish();
}

/// The main thread's deepening: reports each completed depth, adopts a
/// helper's deeper iteration, and stops on the clock.
#[allow(clippy::too_many_arguments)]
pub(super) fn iterate(
    main: &mut Searcher<'_>,
    shared: &Shared<'_>,
    root: &Position,
    max_depth: i32,
    np: u32,
    time: &TimeManager,
    plain: bool,
    deepest: &Deepest,
    on_info: &mut dyn FnMut(&SearchInfo<Move>),
    start: Instant,
) -> Partial {
    let mut done = Partial {
        best: main.root_best,
        score: 0,
        depth: 0,
        pv: vec![main.root_best],
    };
    let report =
        |main: &Searcher<'_>, done: &Partial, on_info: &mut dyn FnMut(&SearchInfo<Move>)| {
            on_info(&SearchInfo {
                depth: done.depth,
                seldepth: (main.seldepth as u32).max(done.depth),
                score: to_score(done.score),
                nodes: main.total_nodes(),
                time: start.elapsed(),
                hashfull: (!plain).then(|| shared.tt.hashfull()),
                tbhits: main.tablebase_in_use().then(|| main.total_tbhits()),
                pv: done.pv.clone(),
            });
        };
    let mut changes = 0.0f64;
    let mut depth = 1;
    while depth <= max_depth {
        let score = aspirate(main, root, depth, done.score, np, plain);
        let previous = done.best;
        if main.superseded {
            main.stopped = false;
            main.superseded = false;
            if let Some(helped) = deepest.deeper_than(done.depth) {
                done = helped.1;
            }
        } else if main.stopped {
            if let Some(helped) = deepest.deeper_than(done.depth) {
                done = helped.1;
                report(main, &done, on_info);
            }
            // Keep a better move proven during the unfinished iteration.
            if depth > done.depth as i32 && main.root_best != done.best && main.root_best != NO_MOVE
            {
                done.best = main.root_best;
                done.pv = vec![main.root_best];
            }
            break;
        } else {
            done = complete(main, shared, deepest, score, depth);
            if let Some(helped) = deepest.deeper_than(done.depth) {
                done = helped.1;
            }
        }
        if done.depth > 1 && done.best != previous {
            changes += 1.0;
        }
        changes *= CHANGE_DECAY;
        // From here `root_best` changes only when the next iteration
        // proves another move (an adopted iteration's move may not be the
        // one this thread last found).
        main.root_best = done.best;
        report(main, &done, on_info);
        if time.is_timed() {
            if !time.continue_iterating(1.0 + CHANGE_WEIGHT * changes) {
                break;
            }
            // A proven result that the depth already covers twice over.
            let proven = done.score.abs() >= MATE_BOUND;
            if proven && done.depth as i32 >= 2 * (MATE - done.score.abs()) + PROVEN_DEPTH_MARGIN {
                break;
            }
        }
        if done.depth as usize >= MAX_PLY - DEPTH_HEADROOM {
            break;
        }
        depth = next_depth(shared, done.depth as i32);
    }
    main.publish();
    done
}
