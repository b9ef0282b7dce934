//! The Spanish draughts search.
//!
//! [`search`] runs one search of a [`Game`]'s current position under
//! [`SearchLimits`] and returns the best move; [`SearchInfo`] values report
//! progress after every completed depth. The parts:
//!
//! - [`alphabeta`]: iterative deepening principal variation search with
//!   aspiration windows, a capture quiescence, late-move reductions,
//!   forced-move extensions and the draw rules (repetition against the game
//!   and the line, the 80-ply counter).
//! - [`tt`]: the lock-free shared [`TranspositionTable`].
//! - [`ordering`]: TT move, captures, killers, history.
//! - [`eval`]: the static evaluation with its named weights.
//! - [`time`]: the time budget.
//! - [`bench()`]: the fixed benchmark whose node count is the search's
//!   signature.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use damas::search::{SearchLimits, Style};
//! use damas::spanish::search::{search, SearchParams, TranspositionTable};
//! use damas::spanish::Game;
//! let game = Game::default();
//! let tt = TranspositionTable::new(1);
//! let limits = SearchLimits { depth: Some(6), ..SearchLimits::default() };
//! let stop = AtomicBool::new(false);
//! let result = search(&game, &limits, &tt, &SearchParams::default(), &stop, &mut |_| {});
//! assert!(game.legal_moves().contains(&result.best.unwrap()));
//! ```

pub mod alphabeta;
pub mod bench;
pub mod eval;
pub mod ordering;
pub mod time;
pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

use crate::random::Rng;

use crate::search::{Score, SearchInfo, SearchLimits, Style};
use crate::spanish::{Game, Move, Position};

use alphabeta::{Searcher, Shared, INF, MATE, MATE_BOUND};
use ordering::{MAX_PLY, NO_MOVE};
use time::TimeManager;

pub use bench::{bench, BenchResult, BENCH_DEPTH, BENCH_FENS};
pub use eval::evaluate;
pub use tt::TranspositionTable;

/// How to search, beside the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Search threads (Lazy SMP); 1 or more.
    pub threads: usize,
    /// The full engine or a baseline.
    pub style: Style,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            threads: 1,
            style: Style::Best,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// Its score for the side to move.
    pub score: Score,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Principal variation (starting with `best` when complete).
    pub pv: Vec<Move>,
}

/// Deepest nominal depth of an unlimited search.
pub const MAX_DEPTH: u32 = 120;

/// Converts an internal score to a [`Score`].
pub fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Win((MATE - s) as u32)
    } else if s <= -MATE_BOUND {
        Score::Loss((MATE + s) as u32)
    } else {
        Score::Centi(s)
    }
}

fn pv_text(pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(pv.len());
    for mv in pv {
        if !p.legal_moves().contains(mv) {
            break;
        }
        out.push(p.move_text(mv));
        p.play_unchecked(mv);
    }
    out
}

/// Searches the current position of `game` and returns the best move.
///
/// `tt` is kept between searches by the caller. `stop` ends the search at
/// once (checked every 1024 nodes); the move returned is then the best of
/// the deepest completed iteration, or a better one proven since, or the
/// first legal move. `on_info` is called on the calling thread after each
/// completed depth. With `limits.infinite`, or with no limit at all, the
/// call returns only after `stop` is raised, even if the search has nothing
/// left to do (depth is capped at [`MAX_DEPTH`]).
pub fn search(
    game: &Game,
    limits: &SearchLimits,
    tt: &TranspositionTable,
    params: &SearchParams,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let start = Instant::now();
    let result = match params.style {
        Style::Best | Style::Plain => deepen(game, limits, tt, params, stop, on_info, start),
        Style::Greedy => greedy(game.position(), on_info, start),
        Style::Random => random(game.position(), on_info, start),
    };
    let unlimited = limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.movetime.is_none()
        && limits.time_left.is_none();
    if limits.infinite || unlimited {
        while !stop.load(AtomicOrdering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    result
}

fn single_info(pos: &Position, mv: Move, score: i32, nodes: u64, start: Instant) -> SearchInfo {
    SearchInfo {
        depth: 1,
        seldepth: 1,
        score: to_score(score),
        nodes,
        time: start.elapsed(),
        hashfull: None,
        pv: vec![pos.move_text(&mv)],
    }
}

fn greedy(pos: &Position, on_info: &mut dyn FnMut(&SearchInfo), start: Instant) -> SearchResult {
    let moves = pos.legal_moves();
    let mut best: Option<(Move, i32)> = None;
    for mv in &moves {
        let child = pos.played_unchecked(mv);
        let s = if child.count_legal_moves() == 0 {
            MATE - 1
        } else {
            -eval::material(&child)
        };
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((*mv, s));
        }
    }
    finish_single(pos, best, moves.len() as u64, on_info, start)
}

fn random(pos: &Position, on_info: &mut dyn FnMut(&SearchInfo), start: Instant) -> SearchResult {
    let moves = pos.legal_moves();
    // Seeded from the clock (seed 0) mixed with the position, so that two
    // engines started together still differ.
    let mut rng = Rng::new(0);
    let pick = (rng.next_u64() ^ pos.hash()) % (moves.len().max(1) as u64);
    let best = (!moves.is_empty()).then(|| (moves[pick as usize], 0));
    finish_single(pos, best, moves.len() as u64, on_info, start)
}

fn finish_single(
    pos: &Position,
    best: Option<(Move, i32)>,
    nodes: u64,
    on_info: &mut dyn FnMut(&SearchInfo),
    start: Instant,
) -> SearchResult {
    match best {
        Some((mv, s)) => {
            on_info(&single_info(pos, mv, s, nodes, start));
            SearchResult {
                best: Some(mv),
                score: to_score(s),
                depth: 1,
                nodes,
                pv: vec![mv],
            }
        }
        None => SearchResult {
            best: None,
            score: Score::Loss(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        },
    }
}

/// Iterative deepening on the main thread, with Lazy SMP helpers.
fn deepen(
    game: &Game,
    limits: &SearchLimits,
    tt: &TranspositionTable,
    params: &SearchParams,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
    start: Instant,
) -> SearchResult {
    let root = *game.position();
    let moves = root.legal_moves();
    if moves.is_empty() {
        return finish_single(&root, None, 0, on_info, start);
    }
    let plain = params.style == Style::Plain;
    let time = TimeManager::new(limits, start);
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) as i32;
    let node_limit = limits.nodes.unwrap_or(u64::MAX);
    let np = game.plies_without_progress();
    let hist = game.history_hashes();
    let window = (np as usize + 1).min(hist.len());
    let history = &hist[hist.len() - window..];
    // Helpers make node counts irreproducible: a node limit runs alone.
    let threads = if plain || limits.nodes.is_some() {
        1
    } else {
        params.threads.clamp(1, 64)
    };
    if !plain {
        tt.new_search();
    }
    let shared = Shared {
        tt,
        stop,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
    };
    let mut main = Searcher::new(&shared, true, time, node_limit, history, plain);
    main.root_best = moves[0];
    // A single legal move under a clock: play it at once.
    if moves.len() == 1 && time.is_timed() {
        on_info(&single_info(&root, moves[0], 0, 1, start));
        return SearchResult {
            best: Some(moves[0]),
            score: Score::Centi(0),
            depth: 1,
            nodes: 1,
            pv: vec![moves[0]],
        };
    }
    let first = moves[0];
    std::thread::scope(|scope| {
        let shared = &shared;
        for id in 1..threads {
            std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn_scoped(scope, move || {
                    let mut helper = Searcher::new(shared, false, time, u64::MAX, history, plain);
                    helper.root_best = first;
                    let mut score = 0;
                    for depth in 1..=max_depth {
                        let d = (depth + (id as i32 & 1)).min(max_depth);
                        score = aspirate(&mut helper, &root, d, score, np, false);
                        if helper.stopped {
                            break;
                        }
                    }
                    helper.publish();
                })
                .ok();
        }
        let result = iterate(
            &mut main, &root, max_depth, np, &time, tt, plain, on_info, start,
        );
        shared.abort.store(true, AtomicOrdering::Relaxed);
        result
    })
    .finish(&shared)
}

struct Partial {
    best: Move,
    score: i32,
    depth: u32,
    pv: Vec<Move>,
}

impl Partial {
    fn finish(self, shared: &Shared<'_>) -> SearchResult {
        SearchResult {
            best: Some(self.best),
            score: to_score(self.score),
            depth: self.depth,
            nodes: shared.nodes.load(AtomicOrdering::Relaxed),
            pv: self.pv,
        }
    }
}

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
    if plain || depth < 5 || prev.abs() >= MATE_BOUND {
        return s.root(root, depth, -INF, INF, np);
    }
    let mut delta = 30;
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
        if delta > 1000 {
            alpha = -INF;
            beta = INF;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn iterate(
    main: &mut Searcher<'_>,
    root: &Position,
    max_depth: i32,
    np: u32,
    time: &TimeManager,
    tt: &TranspositionTable,
    plain: bool,
    on_info: &mut dyn FnMut(&SearchInfo),
    start: Instant,
) -> Partial {
    let mut done = Partial {
        best: main.root_best,
        score: 0,
        depth: 0,
        pv: vec![main.root_best],
    };
    let mut changes = 0.0f64;
    for depth in 1..=max_depth {
        let score = aspirate(main, root, depth, done.score, np, plain);
        if main.stopped {
            // Keep a better move proven during the unfinished iteration.
            if main.root_best != done.best && main.root_best != NO_MOVE {
                done.best = main.root_best;
                done.pv = vec![main.root_best];
            }
            break;
        }
        if depth > 1 && main.root_best != done.best {
            changes += 1.0;
        }
        changes *= 0.5;
        done = Partial {
            best: main.root_best,
            score,
            depth: depth as u32,
            pv: main.pv().to_vec(),
        };
        if done.pv.first() != Some(&done.best) {
            done.pv = vec![done.best];
        }
        on_info(&SearchInfo {
            depth: depth as u32,
            seldepth: (main.seldepth as u32).max(depth as u32),
            score: to_score(score),
            nodes: main.total_nodes(),
            time: start.elapsed(),
            hashfull: (!plain).then(|| tt.hashfull()),
            pv: pv_text(root, &done.pv),
        });
        if time.is_timed() {
            if !time.continue_iterating(1.0 + 3.0 * changes) {
                break;
            }
            // A proven result that the depth already covers twice over.
            if score.abs() >= MATE_BOUND && depth >= 2 * (MATE - score.abs()) + 4 {
                break;
            }
        }
        if depth as usize >= MAX_PLY - 8 {
            break;
        }
    }
    main.publish();
    done
}
