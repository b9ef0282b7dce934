//! The Spanish draughts search.
//!
//! [`Engine`] is the search context that lives across searches: the
//! transposition table and each thread's killers and history.
//! [`Engine::search`] runs one search of a [`Draughts`]'s current position
//! under [`SearchLimits`] and returns the best move; [`SearchInfo`] values
//! report progress after every completed depth. The parts (crate-private):
//!
//! - `alphabeta`: iterative deepening principal variation search with
//!   aspiration windows, a capture quiescence, late-move reductions,
//!   forced-move extensions and the draw rules (repetition against the game
//!   and the line, the 80-ply counter).
//! - `tt`: the lock-free shared transposition table.
//! - `ordering`: TT move, captures, killers, history.
//! - `parameters`: every tuning constant of the search, named.
//! - `eval`: the static evaluation: the weighted features and two rules.
//! - `features`: what the evaluation counts; `weights`: the weights,
//!   written by `damas tune` (see [`crate::draughts::tuning`]).
//! - `patterns`: the men's configurations in nine windows of the board,
//!   weighted from the embedded file that `pattern_file` reads and writes
//!   (`damas tune --patterns`).
//! - [`bench()`]: the fixed benchmark whose node count is the search's
//!   signature.

mod alphabeta;
mod bench;
mod deepening;
mod eval;
mod features;
mod ordering;
mod parameters;
mod pattern_file;
mod patterns;
mod tt;
mod weights;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::Instant;

use crate::baseline::{self, Baseline};
use crate::draughts::tablebase::{GameValue, Tablebase};
use crate::draughts::{Book, Draughts, Move, Rules};
use crate::game::Search;
use crate::random::clock_seed;
use crate::search::time::TimeManager;
use crate::search::{
    clamp_hash_mb, effective_threads, wait_for_stop, EngineOptions, Score, SearchInfo,
    SearchLimits, SearchResult, Style, MATE, MAX_PLY,
};

use alphabeta::{Searcher, Shared, Worker};
use deepening::{help, iterate, Deepest};
use parameters::{HELPER_STACK, MAX_DEPTH};
use tt::TranspositionTable;

pub use bench::{bench, bench_with, BENCH_DEPTH};
pub(crate) use eval::{evaluate_white, feature_counts, pattern_indices, Rule};
pub use features::{FEATURES, FEATURE_NAMES, HAND_WEIGHTS, PHASE_MAX};
pub use pattern_file::{PatternFileError, PatternWeights, CONFIGS, WINDOWS};
pub(crate) use patterns::compiled as compiled_patterns;
pub use patterns::PatternIndices;
pub(crate) use weights::WEIGHTS;

/// The internal score of a position won according to the endgame tables,
/// at the root (`TB_WIN - ply` deeper in the tree): above any evaluation,
/// below the proven wins of the search itself. Reported as centi-men.
pub const TB_WIN: i32 = 20_000;

fn to_score(s: i32) -> Score {
    Score::from_internal(s)
}

/// The Spanish draughts search context: it lives across searches and holds
/// the transposition table and the per-thread state.
///
/// What persists between two searches:
///
/// - the transposition table (until [`Engine::clear`] or a size change by
///   [`Engine::set_hash`]); each search starts a new table age, which makes
///   older entries the preferred victims;
/// - per thread, the history and killer tables: at the start of each
///   search the history is halved and the killers are forgotten.
///
/// `hash_mb` is clamped to `1..=`[`MAX_HASH_MB`](crate::search::MAX_HASH_MB).
pub struct Engine {
    tt: TranspositionTable,
    hash_mb: usize,
    options: EngineOptions,
    /// One per thread used so far: the main thread first.
    workers: Vec<Worker>,
    /// Endgame tables probed at the root and in the tree.
    tablebase: Option<Arc<Tablebase>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("hash_mb", &self.hash_mb)
            .field("options", &self.options)
            .field("workers", &self.workers.len())
            .field("tablebase", &self.tablebase)
            .finish()
    }
}

impl Search<Draughts> for Engine {
    /// An engine with a transposition table of `hash_mb` MiB (clamped to
    /// `1..=MAX_HASH_MB`) and default [`EngineOptions`].
    fn new(hash_mb: usize) -> Engine {
        let hash_mb = clamp_hash_mb(hash_mb);
        Engine {
            tt: TranspositionTable::new(hash_mb),
            hash_mb,
            options: EngineOptions::default(),
            workers: vec![Worker::new()],
            tablebase: None,
        }
    }

    /// Resizes the transposition table to `hash_mb` MiB (clamped as in
    /// [`Search::new`]): when the size changes, the old table is freed
    /// first and the new one is empty; otherwise nothing happens.
    fn set_hash(&mut self, hash_mb: usize) {
        let hash_mb = clamp_hash_mb(hash_mb);
        if hash_mb != self.hash_mb {
            self.tt = TranspositionTable::with_buckets(1);
            self.tt = TranspositionTable::new(hash_mb);
            self.hash_mb = hash_mb;
        }
    }

    /// Sets the threads, style and baseline seed of the next searches (the
    /// beam width is not used by Spanish draughts).
    fn set_options(&mut self, options: &EngineOptions) {
        self.options = *options;
    }

    /// Forgets everything learned (a new game): the transposition table and
    /// every thread's killers and history.
    fn clear(&mut self) {
        self.tt.clear();
        for w in &mut self.workers {
            w.clear();
        }
    }

    /// Makes the transposition table resident, on every core (see
    /// [`Search::prepare`]).
    fn prepare(&mut self) {
        self.tt.prepare();
    }

    fn is_prepared(&self) -> bool {
        self.tt.is_resident()
    }

    /// Searches the current position of `game` and returns the best move.
    ///
    /// `stop` ends the search at once (checked every 1024 nodes); the move
    /// returned is then the best of the deepest completed iteration, or a
    /// better one proven since, or the first legal move. `on_info` is
    /// called on the calling thread after each completed depth. With
    /// `limits.infinite`, or with no limit at all, the call returns only
    /// after `stop` is raised, even if the search has nothing left to do
    /// (depth is capped at 120 plies).
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use damas::search::SearchLimits;
    /// use damas::Search;
    /// use damas::spanish::{Engine, Draughts};
    /// use damas::Game;
    /// let game = Draughts::default();
    /// let mut engine = Engine::new(1);
    /// let limits = SearchLimits { depth: Some(6), ..SearchLimits::default() };
    /// let stop = AtomicBool::new(false);
    /// let result = engine.search(&game, &limits, &stop, &mut |info| {
    ///     assert!(!info.pv.is_empty());
    /// });
    /// assert!(game.legal_moves().contains(&result.best.unwrap()));
    /// assert_eq!(result.pv.first(), result.best.as_ref());
    /// ```
    fn search(
        &mut self,
        game: &Draughts,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        let start = Instant::now();
        let result = match self.options.style {
            // The book's lines are Spanish draughts lines.
            Style::Best
                if self.options.own_book
                    && !limits.infinite
                    && moves_as_spanish(game.position().rules()) =>
            {
                self.book_move(game, on_info, start)
                    .unwrap_or_else(|| self.best(game, limits, stop, on_info, start))
            }
            Style::Best => self.best(game, limits, stop, on_info, start),
            Style::Plain => self.deepen(game, limits, stop, on_info, start),
            Style::Greedy | Style::Random => {
                baseline::search(game, self.options.style, self.options.seed, on_info, start)
                    .unwrap_or_else(|| unreachable!("a one-ply baseline"))
            }
        };
        wait_for_stop(limits, stop);
        result
    }
}

impl Engine {
    /// The full engine's search, its scores in centi-men.
    fn best(
        &mut self,
        game: &Draughts,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo<Move>),
        start: Instant,
    ) -> SearchResult<Move> {
        // The tuned weights have their own scale (a man is worth
        // several hundred at the start): reported scores are
        // rescaled so that a man at the root's phase is 100.
        let man = eval::man_value(game.position());
        let mut report = |info: &SearchInfo<Move>| {
            on_info(&SearchInfo {
                score: in_centi_men(info.score, man),
                ..info.clone()
            });
        };
        let result = self.deepen(game, limits, stop, &mut report, start);
        SearchResult {
            score: in_centi_men(result.score, man),
            ..result
        }
    }

    /// The book's move for the position, if it is in the book: drawn from
    /// the seed (the clock's without one) mixed with the plies played.
    fn book_move(
        &self,
        game: &Draughts,
        on_info: &mut dyn FnMut(&SearchInfo<Move>),
        start: Instant,
    ) -> Option<SearchResult<Move>> {
        let seed = self.options.seed.unwrap_or_else(clock_seed) ^ game.moves().len() as u64;
        let chosen = Book::builtin().choose(game.position(), seed)?;
        let mut info = single_info(chosen.mv, chosen.score, 0, start);
        info.depth = 0;
        info.seldepth = 0;
        on_info(&info);
        Some(SearchResult {
            best: Some(chosen.mv),
            score: Score::Centi(chosen.score),
            depth: 0,
            nodes: 0,
            pv: vec![chosen.mv],
        })
    }
}

/// Whether `rules` move as Spanish draughts does (Portuguese draughts
/// does), so that the Spanish opening book holds their moves.
pub(crate) fn moves_as_spanish(rules: Rules) -> bool {
    let spanish = Rules::SPANISH;
    rules.men_capture_backward() == spanish.men_capture_backward()
        && rules.capture_choice() == spanish.capture_choice()
        && rules.capture_promotion() == spanish.capture_promotion()
        && rules.king_range() == spanish.king_range()
}

/// The Spanish side of the baselines: material, a win (no reply) above it.
impl Baseline for Draughts {
    fn plies_played(&self) -> u64 {
        self.moves().len() as u64
    }

    fn plain_after(&self, mv: &Move) -> i32 {
        let child = self.position().played_unchecked(mv);
        if child.count_legal_moves() == 0 {
            MATE - 1
        } else {
            -eval::material(&child)
        }
    }

    fn no_move_score(&self) -> Score {
        Score::Loss(0)
    }
}

/// A search score in centi-men, one man being `man` internal units;
/// table results (`TB_WIN - ply`) are reported as they are.
/// Rounded to the nearest centi-man.
fn in_centi_men(score: Score, man: i32) -> Score {
    match score {
        Score::Centi(c) if c.abs() < TB_WIN - MAX_PLY as i32 => {
            let (c, man) = (i64::from(c), i64::from(man.max(1)));
            Score::Centi(((c * 100 + c.signum() * (man / 2)) / man) as i32)
        }
        _ => score,
    }
}

fn single_info(mv: Move, score: i32, nodes: u64, start: Instant) -> SearchInfo<Move> {
    SearchInfo {
        depth: 1,
        seldepth: 1,
        score: to_score(score),
        nodes,
        time: start.elapsed(),
        hashfull: None,
        tbhits: None,
        pv: vec![mv],
    }
}

fn finish_single(
    best: Option<(Move, i32)>,
    nodes: u64,
    on_info: &mut dyn FnMut(&SearchInfo<Move>),
    start: Instant,
) -> SearchResult<Move> {
    match best {
        Some((mv, s)) => {
            on_info(&single_info(mv, s, nodes, start));
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

impl Engine {
    /// Sets the endgame tables the next searches probe (`None`: no
    /// tables). At the root, a position in the tables is answered from
    /// them: a win plays the winning move with the shortest distance to
    /// the next capture or man move (which always converts before the
    /// 80-ply rule), a draw keeps the draw, a loss resists longest. In the
    /// tree, every position in the tables returns its exact value (a win
    /// scores [`TB_WIN`] minus the ply). The baseline style
    /// ([`Style::Plain`]) never probes. A search with a time limit (or
    /// infinite) never waits for a slice's file: it probes with
    /// [`Tablebase::probe_without_waiting`]; searches limited only by
    /// depth or nodes wait, so that their results do not depend on timing.
    pub fn set_tablebase(&mut self, tablebase: Option<Arc<Tablebase>>) {
        self.tablebase = tablebase;
    }

    /// The root answered from the tables, if the position is in them (and,
    /// unless `wait`, its successors' slices are already in memory).
    fn root_from_tables(
        &self,
        game: &Draughts,
        wait: bool,
        on_info: &mut dyn FnMut(&SearchInfo<Move>),
        start: Instant,
    ) -> Option<SearchResult<Move>> {
        let tb = self.tablebase.as_deref()?;
        let pos = game.position();
        if pos.occupied().count() > tb.max_pieces() {
            return None;
        }
        let counter = game.plies_without_progress();
        let ranked = if wait {
            tb.rank_moves(pos, counter)
        } else {
            tb.rank_moves_without_waiting(pos, counter)
        }?;
        let best = ranked.first()?;
        let score = match best.value {
            GameValue::Win => TB_WIN - best.distance as i32,
            GameValue::Draw => 0,
            GameValue::Loss => -TB_WIN + best.distance as i32,
        };
        let hits = ranked.len() as u64 + 1;
        on_info(&SearchInfo {
            tbhits: Some(hits),
            ..single_info(best.mv, score, 1, start)
        });
        Some(SearchResult {
            best: Some(best.mv),
            score: to_score(score),
            depth: 1,
            nodes: 1,
            pv: vec![best.mv],
        })
    }

    /// Iterative deepening on the main thread, with Lazy SMP helpers.
    fn deepen(
        &mut self,
        game: &Draughts,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo<Move>),
        start: Instant,
    ) -> SearchResult<Move> {
        let root = *game.position();
        let moves = root.legal_moves();
        if moves.is_empty() {
            return finish_single(None, 0, on_info, start);
        }
        // Tables hold one variant's values (its moves and its no-progress
        // draw): a game of another variant searches without them.
        let plain = self.options.style == Style::Plain;
        let variant = root.rules().variant();
        let tables = !plain
            && self
                .tablebase
                .as_deref()
                .is_some_and(|tb| tb.variant() == variant);
        let time = TimeManager::new(limits, start);
        let wait_for_tables = !time.is_timed() && !limits.infinite;
        if tables {
            if let Some(result) = self.root_from_tables(game, wait_for_tables, on_info, start) {
                return result;
            }
        }
        let tablebase = self.tablebase.as_deref().filter(|_| tables);
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
            effective_threads(self.options.threads)
        };
        let tt = &self.tt;
        if !plain {
            tt.new_search();
        }
        // A single legal move under a clock: play it at once.
        if moves.len() == 1 && time.is_timed() {
            on_info(&single_info(moves[0], 0, 1, start));
            return SearchResult {
                best: Some(moves[0]),
                score: Score::Centi(0),
                depth: 1,
                nodes: 1,
                pv: vec![moves[0]],
            };
        }
        while self.workers.len() < threads {
            self.workers.push(Worker::new());
        }
        for w in &mut self.workers {
            w.age();
        }
        let shared = Shared {
            tt,
            stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
            tablebase,
            wait_for_tables,
            completed: AtomicU32::new(0),
            no_progress_plies: root.rules().no_progress_plies(),
        };
        let (main_worker, helpers) = self
            .workers
            .split_first_mut()
            .unwrap_or_else(|| unreachable!("an engine has a main worker"));
        let mut main = Searcher::new(&shared, main_worker, true, time, node_limit, history, plain);
        main.root_best = moves[0];
        let first = moves[0];
        let deepest = Deepest::new();
        std::thread::scope(|scope| {
            let (shared, deepest) = (&shared, &deepest);
            for (id, worker) in (1..threads).zip(helpers.iter_mut()) {
                std::thread::Builder::new()
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || {
                        let mut helper =
                            Searcher::new(shared, worker, false, time, u64::MAX, history, plain);
                        helper.root_best = first;
                        help(&mut helper, shared, id, &root, max_depth, np, deepest);
                    })
                    .ok();
            }
            let result = iterate(
                &mut main, shared, &root, max_depth, np, &time, plain, deepest, on_info, start,
            );
            shared.abort.store(true, AtomicOrdering::Relaxed);
            result
        })
        .finish(&shared)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::checks;
    use crate::draughts::Position;
    use crate::Game;

    #[test]
    fn seeded_random_is_reproducible_and_differs_across_seeds() {
        checks::random_is_reproducible_and_seed_dependent(&Draughts::default());
    }

    #[test]
    fn greedy_takes_the_clearly_best_move() {
        // White's man on 25 promotes (a king is worth three men); the man
        // on 1 only steps.
        let draughts = Draughts::new(Position::from_fen("W:W1,25:B12").expect("fen"));
        checks::greedy_takes_the_clear_best(&draughts);
    }

    #[test]
    fn the_baseline_styles_follow_the_seed_option() {
        checks::the_engine_follows_the_seed_option(&Draughts::default());
    }

    #[test]
    fn baseline_seeding_mixes_the_position_and_the_ply() {
        let start = Draughts::default();
        let mut after = start.clone();
        after.play_text("11-15").expect("legal");
        checks::seeding_mixes_the_position_and_the_ply(&start, &after);
    }

    #[test]
    fn reported_scores_are_centi_men_and_table_results_stay() {
        assert_eq!(in_centi_men(Score::Centi(393), 393), Score::Centi(100));
        assert_eq!(in_centi_men(Score::Centi(-590), 393), Score::Centi(-150));
        assert_eq!(in_centi_men(Score::Centi(0), 393), Score::Centi(0));
        assert_eq!(
            in_centi_men(Score::Centi(TB_WIN - 7), 393),
            Score::Centi(TB_WIN - 7)
        );
        assert_eq!(
            in_centi_men(Score::Centi(7 - TB_WIN), 393),
            Score::Centi(7 - TB_WIN)
        );
        assert_eq!(in_centi_men(Score::Win(3), 393), Score::Win(3));
        assert_eq!(
            eval::man_value(&Position::start()),
            WEIGHTS[features::index::MAN].0
        );
    }

    /// A position after `plies` pseudo-random moves from the start (or
    /// earlier if the game ends), with the game history.
    fn playout(seed: u64, plies: usize) -> Draughts {
        let mut game = Draughts::default();
        let mut x = seed | 1;
        for _ in 0..plies {
            if game.status().is_over() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let moves = game.legal_moves();
            game.play(moves[(x % moves.len() as u64) as usize]).unwrap();
        }
        game
    }

    #[test]
    fn tt_stress_tiny_table() {
        let mut engine = Engine::new(1);
        engine.tt = TranspositionTable::with_buckets(4);
        let stop = AtomicBool::new(false);
        for seed in 0..150u64 {
            let game = playout(seed * 7919 + 1, (seed % 60) as usize);
            if game.status().is_over() {
                continue;
            }
            let limits = SearchLimits {
                depth: Some(5),
                ..SearchLimits::default()
            };
            let r = engine.search(&game, &limits, &stop, &mut |_| {});
            assert!(game.legal_moves().contains(&r.best.unwrap()), "seed {seed}");
        }
    }

    #[test]
    fn hash_size_is_clamped() {
        assert_eq!(clamp_hash_mb(usize::MAX), crate::search::MAX_HASH_MB);
        let mut engine = Engine::new(0);
        assert_eq!(engine.hash_mb, 1);
        engine.set_hash(2);
        assert_eq!(engine.hash_mb, 2);
    }

    #[test]
    fn history_persists_and_ages() {
        let mut engine = Engine::new(1);
        let limits = SearchLimits {
            depth: Some(8),
            ..SearchLimits::default()
        };
        let stop = AtomicBool::new(false);
        engine.search(&Draughts::default(), &limits, &stop, &mut |_| {});
        let learned = engine.workers[0].history_sum();
        assert!(learned > 0);
        engine.workers[0].age();
        assert!(engine.workers[0].history_sum() <= learned / 2 + 1024);
        engine.clear();
        assert_eq!(engine.workers[0].history_sum(), 0);
    }
}
