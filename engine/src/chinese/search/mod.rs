//! The Chinese checkers search, for 1 to 6 players and both variants.
//!
//! [`Engine`] is the search context that lives across searches (the
//! transposition table of the game searches and the per-thread buffers);
//! [`Engine::search`] dispatches on the [`Style`] and the number of
//! players, honours the [`SearchLimits`] and the stop flag, reports
//! [`SearchInfo`] at least once per iteration and always returns a legal
//! move (or none when the player to move must pass). The parts
//! (crate-private):
//!
//! - `heuristic`: the distance heuristic (`Army::cost`).
//! - `beam`: the beam search of one player alone: the solitaire transfer
//!   ([`solve_solitaire`]).
//! - `tree`: alpha-beta over the beam's candidates (the best few own moves
//!   and replies by the heuristic) for two players, best-reply search for
//!   three to six, and the plain full-width baseline.
//! - `ordering`: the candidate moves of a node, best first.
//! - `brs_plus`: the BRS+ refinement of best-reply search (3–6 players).
//! - `mcts`: Monte Carlo tree search with progressive history, the timed
//!   search at six players.
//! - `race`: exact two-player races once the armies are separated.
//! - `siege`, `hold`: the plans of two players against a rival keeping its
//!   home base sealed (the breach, the siege, and the hold of the own home
//!   base where the no-progress ranking decides).
//! - `parameters`: every tuning constant of the search, named (the
//!   heuristic's weights, widths, depth, budgets, and sections `multi`
//!   and `mcts`).
//! - [`bench()`]: the fixed benchmark whose node count is the search's
//!   signature.

mod beam;
mod bench;
mod brs_plus;
mod deepening;
#[cfg(test)]
mod fixtures;
mod guard;
mod heuristic;
mod hold;
mod mcts;
mod ordering;
mod parameters;
mod race;
mod siege;
mod table;
mod tree;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::geometry::Cell;
use super::moves::Move;
use super::notation::format_path;
use super::position::Position;
use super::{Checkers, PlayerState, Turn};
use crate::baseline::{self, Baseline};
use crate::game::Search;
use crate::search::pv::PvTable;
use crate::search::time::TimeManager;
use crate::search::{
    clamp_hash_mb, effective_threads, wait_for_stop, EngineOptions, Score, SearchInfo,
    SearchLimits, SearchResult, Style, MAX_PLY,
};
use crate::Game;

use beam::{plan, BeamLimits};
use deepening::{deepen, TreeSetup};
use heuristic::plain_cost;
use parameters::*;
use table::Table;
use tree::Mode;

pub use beam::SolitairePlan;
pub use bench::{bench, bench_with, BENCH_DEPTH};

/// The PV tables' filler.
const NO_MOVE: Move = Move {
    from: Cell::from_u8(0),
    to: Cell::from_u8(0),
};

#[inline(always)]
pub(crate) fn cell(i: u8) -> Cell {
    Cell::from_u8(i)
}

/// The Chinese checkers search context: it lives across searches and holds
/// the transposition table of the game searches and the per-thread state.
///
/// What persists between two searches:
///
/// - the transposition table (always-replace, keyed by the position, the
///   player to move, the searching player and the mode), until
///   [`Engine::clear`] or a size change by [`Engine::set_hash`]; entries
///   carry no age, newer results simply overwrite older ones;
/// - the principal-variation table (a reusable buffer, rewritten by each
///   search). The Chinese search has no killers or history, so there is
///   nothing to age.
///
/// `hash_mb` is clamped to `1..=`[`MAX_HASH_MB`](crate::search::MAX_HASH_MB);
/// the table has the largest power-of-two number of 16-byte entries that
/// fits in it. The solitaire beam (one player) allocates its own
/// per-search sets instead.
pub struct Engine {
    tt: Table,
    hash_mb: usize,
    options: EngineOptions,
    pv: PvTable<Move, MAX_PLY>,
    /// The helper threads' PV buffers.
    helper_pvs: Vec<PvTable<Move, MAX_PLY>>,
    /// The Monte Carlo search's memory (six players), sized from `Hash`
    /// and kept across moves.
    mcts: mcts::Arena,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("hash_mb", &self.hash_mb)
            .field("entries", &self.tt.len())
            .field("options", &self.options)
            .finish()
    }
}

impl Search<Checkers> for Engine {
    /// An engine with a transposition table of `hash_mb` MiB (clamped to
    /// `1..=MAX_HASH_MB`) and default [`EngineOptions`].
    fn new(hash_mb: usize) -> Engine {
        let hash_mb = clamp_hash_mb(hash_mb);
        Engine {
            tt: Table::new(hash_mb),
            hash_mb,
            options: EngineOptions::default(),
            pv: PvTable::new(NO_MOVE),
            helper_pvs: Vec::new(),
            mcts: mcts::Arena::new(hash_mb),
        }
    }

    /// Resizes the transposition table to `hash_mb` MiB (clamped as in
    /// [`Search::new`]): when the size changes, the old table is freed
    /// first and the new one is empty; otherwise nothing happens.
    fn set_hash(&mut self, hash_mb: usize) {
        let hash_mb = clamp_hash_mb(hash_mb);
        if hash_mb != self.hash_mb {
            self.tt = Table::new(1);
            self.tt = Table::new(hash_mb);
            self.mcts = mcts::Arena::new(hash_mb);
            self.hash_mb = hash_mb;
        }
    }

    /// Sets the style, beam width and threads of the next searches (the
    /// tree search of 2–6 players runs on `threads` threads over the
    /// shared table; the solitaire beam, the race solver, the 6-player
    /// Monte Carlo search and the baseline styles use one).
    fn set_options(&mut self, options: &EngineOptions) {
        self.options = *options;
    }

    /// Forgets everything learned (a new game): empties the transposition
    /// table in place, keeping its memory, and drops the Monte Carlo tree
    /// and history.
    fn clear(&mut self) {
        self.tt.clear();
        self.mcts.forget();
    }

    /// Makes the transposition table resident, on every core (see
    /// [`Search::prepare`]).
    fn prepare(&mut self) {
        self.tt.prepare();
    }

    fn is_prepared(&self) -> bool {
        self.tt.is_resident()
    }

    /// Searches the position of `game` for the player to move.
    ///
    /// - 1 player ([`Style::Best`]): the solitaire beam, widened while time
    ///   remains; the move is the first of the shortest plan found.
    /// - 2 players: beam-pruned alpha-beta with iterative deepening.
    /// - 3–5 players: beam-pruned best-reply search (BRS+: the rivals who
    ///   do not reply play their first move by the ordering); also at 6
    ///   players when `limits.depth` is set.
    /// - 6 players otherwise: Monte Carlo tree search with progressive
    ///   history (one thread; `limits.nodes` caps its iterations, which
    ///   `nodes` reports).
    /// - [`Style::Plain`]: full-width alpha-beta / paranoid on the summed
    ///   distance; [`Style::Greedy`]: best summed distance after one move;
    ///   [`Style::Random`]: a uniformly random legal move (both seeded by
    ///   [`EngineOptions::seed`], as in Spanish draughts).
    ///
    /// `best` is `None` when the player to move must pass or the game is
    /// over. The PV's moves are each played by the owner of the moved
    /// piece ([`damas::Game::line_text`](crate::Game::line_text) formats
    /// them). With `limits.infinite`, or with no limit at all, the call
    /// returns only once `stop` is set, even when the search has nothing
    /// more to learn.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use damas::chinese::{Engine, Checkers, Rules};
    /// use damas::search::SearchLimits;
    /// use damas::Search;
    /// let game = Checkers::new(Rules::default());
    /// let mut engine = Engine::new(1);
    /// let limits = SearchLimits { depth: Some(2), ..SearchLimits::default() };
    /// let result = engine.search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
    /// assert!(game.position().is_legal(&result.best.unwrap()));
    /// assert_eq!(result.pv.first(), result.best.as_ref());
    /// ```
    fn search(
        &mut self,
        game: &Checkers,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        let out = self.search_once(game, limits, stop, on_info);
        wait_for_stop(limits, stop);
        out
    }
}

/// The Chinese side of the baselines: the summed distance to the goal.
impl Baseline for Checkers {
    fn plies_played(&self) -> u64 {
        u64::from(self.ply())
    }

    fn plain_after(&self, mv: &Move) -> i32 {
        let pos = self.position();
        let mut child = *pos;
        child.play_unchecked(&Move::new(mv.from, mv.to));
        -plain_cost(&child, pos.to_move())
    }

    fn no_move_score(&self) -> Score {
        Score::Centi(0)
    }
}

/// The move texts (full paths) of `moves` played in turn from `pos`, each by
/// the owner of its piece; stops at the first move that is not legal.
pub(crate) fn line_text(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = *pos;
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        let Some((owner, _)) = pos.piece_at(mv.from) else {
            break;
        };
        pos.set_to_move_unchecked(owner);
        let Some(path) = pos.path(mv) else {
            break;
        };
        out.push(format_path(&path));
        pos.play_unchecked(&Move::new(mv.from, mv.to));
    }
    out
}

impl Engine {
    fn search_once(
        &mut self,
        game: &Checkers,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        let options = self.options;
        let start = Instant::now();
        let pos = *game.position();
        let moves = game.legal_moves();
        let mut out = SearchResult {
            best: moves.first().copied(),
            score: Score::Centi(0),
            depth: 0,
            nodes: moves.len() as u64,
            pv: Vec::new(),
        };
        if moves.is_empty() {
            return out;
        }
        if let Some(result) = baseline::search(game, options.style, options.seed, on_info, start) {
            return result;
        }
        let me = pos.to_move();
        let info = |out: &SearchResult<Move>,
                    seldepth: u32,
                    hashfull: Option<u32>,
                    on_info: &mut dyn FnMut(&SearchInfo<Move>)| {
            on_info(&SearchInfo {
                depth: out.depth,
                seldepth: seldepth.max(out.depth),
                score: out.score,
                nodes: out.nodes,
                time: start.elapsed(),
                hashfull,
                tbhits: None,
                pv: out.pv.clone(),
            });
        };
        if options.style == Style::Best && game.player_count() == 1 {
            return solitaire_go(game, limits, &options, stop, on_info, start);
        }
        let time = TimeManager::new(limits, start);
        // A separated 2-player race is solved exactly, in at most a quarter
        // of the move's time (the tree search gets the rest).
        if options.style == Style::Best {
            let budget = race::RaceBudget {
                nodes: limits.nodes.unwrap_or(u64::MAX).min(RACE_NODES),
                deadline: time
                    .deadline()
                    .map(|d| start + (d - start) / RACE_TIME_DIVISOR),
                stop,
            };
            if let Some(r) = race::solve(game, RACE_MAX_MOVES, budget) {
                out.best = Some(r.first);
                out.score = if r.wins {
                    Score::Win(r.plies)
                } else {
                    Score::Loss(r.plies)
                };
                out.depth = r.plies;
                out.pv = vec![r.first];
                info(&out, r.plies, None, on_info);
                return out;
            }
        }
        // Tree search.
        let mut active = [false; 6];
        for (p, s) in game.player_states().iter().enumerate() {
            active[p] = *s == PlayerState::Playing;
        }
        if options.style == Style::Best
            && game.player_count() >= multi::MCTS_SEATS
            && limits.depth.is_none()
        {
            let mut mcts = mcts::Mcts::new(
                &pos,
                active,
                game.rules().anti_blocking,
                stop,
                &mut self.mcts,
            );
            let report = |o: &mcts::MctsReport, out: &mut SearchResult<Move>| {
                if o.best.is_some() {
                    out.best = o.best;
                    out.pv = o.pv.clone();
                }
                out.depth = out.pv.len().max(1) as u32;
                out.score = Score::Centi(((o.value - 0.5) * 200.0).round() as i32);
                out.nodes = o.iterations;
            };
            let result = mcts.run(&pos, me, time.soft_deadline(), limits.nodes, &mut |o| {
                let mut now = out.clone();
                report(o, &mut now);
                info(&now, o.seldepth, None, on_info);
            });
            report(&result, &mut out);
            info(&out, result.seldepth, None, on_info);
            return out;
        }
        let mode = if options.style == Style::Plain {
            Mode::Plain
        } else {
            Mode::BestReply
        };
        let width = (options.beam_width / BEAM_PER_MOVE).clamp(MIN_GAME_WIDTH, MAX_WIDTH);
        let setup = TreeSetup {
            pos,
            me,
            active,
            anti_blocking: game.rules().anti_blocking,
            no_move_loss: game.rules().no_move_loss,
            ranked: game.rules().no_progress_limit.is_some(),
            mode,
            width,
            recent: recent_positions(game, RECENT_PLIES),
            drawn: seen_twice(game),
            node_limit: limits.nodes,
        };
        // Helpers make node counts irreproducible: a node limit runs alone.
        let threads = if mode == Mode::Plain || limits.nodes.is_some() {
            1
        } else {
            effective_threads(options.threads)
        };
        while self.helper_pvs.len() + 1 < threads {
            self.helper_pvs.push(PvTable::new(NO_MOVE));
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut seldepth = 0;
        deepen(
            &setup,
            threads,
            max_depth,
            limits.depth.is_some(),
            &time,
            stop,
            &self.tt,
            &mut self.pv,
            &mut self.helper_pvs,
            &mut out,
            &mut |out, sel, full| {
                seldepth = sel;
                info(out, sel, Some(full), on_info);
            },
        );
        if out.depth == 0 {
            out.depth = 1;
            out.pv = out.best.into_iter().collect();
            info(&out, seldepth, Some(self.tt.hashfull()), on_info);
        }
        out
    }
}

/// The piece-placement hashes of the positions before the last `plies`
/// turns of `game` (undoing its recorded moves from the current position).
fn recent_positions(game: &Checkers, plies: usize) -> Vec<u64> {
    let mut pos = *game.position();
    let mut out = Vec::with_capacity(plies);
    for turn in game.history().iter().rev().take(plies) {
        if let Turn::Move { player, mv, .. } = turn {
            if !pos.pieces(*player).contains(mv.to) || pos.occupied().contains(mv.from) {
                break;
            }
            pos.set_to_move_unchecked(*player);
            pos.play_unchecked(&Move::new(mv.to, mv.from));
            out.push(tree::piece_hash(&pos));
        }
    }
    out
}

/// The hashes of the positions `game` has seen twice, where a third
/// occurrence draws (two players under the repetition rule); empty
/// otherwise.
fn seen_twice(game: &Checkers) -> Vec<u64> {
    if !game.rules().repetition_draw || game.position().players() != 2 {
        return Vec::new();
    }
    let mut seen = game.seen.clone();
    seen.sort_unstable();
    let mut twice: Vec<u64> = seen
        .windows(2)
        .filter(|pair| pair[0] == pair[1])
        .map(|pair| pair[0])
        .collect();
    twice.dedup();
    twice
}

/// The one-player search of the protocol: beam plans of growing width
/// while time remains; the first move of the shortest plan.
fn solitaire_go(
    game: &Checkers,
    limits: &SearchLimits,
    options: &EngineOptions,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo<Move>),
    start: Instant,
) -> SearchResult<Move> {
    let pos = *game.position();
    let me = pos.to_move();
    let time = TimeManager::new(limits, start);
    let mut width = options.beam_width.max(1);
    let mut out = SearchResult {
        best: game.legal_moves().first().copied(),
        score: Score::Centi(0),
        depth: 0,
        nodes: 0,
        pv: Vec::new(),
    };
    let mut best_len = usize::MAX;
    let mut rounds = 0;
    loop {
        let result = plan(
            &pos,
            me,
            game.rules().anti_blocking,
            BeamLimits {
                width,
                max_plies: PROTOCOL_PLAN_PLIES,
                stop: Some(stop),
                deadline: time.deadline(),
            },
        );
        out.nodes += result.nodes;
        rounds += 1;
        let complete = result.finished;
        if !result.moves.is_empty() && (complete && result.moves.len() < best_len || out.depth == 0)
        {
            if complete {
                best_len = result.moves.len();
                out.score = Score::Win(best_len as u32);
            }
            out.best = Some(result.moves[0]);
            out.pv = result.moves.clone();
            out.depth = result.moves.len() as u32;
        }
        on_info(&SearchInfo {
            depth: out.depth,
            seldepth: out.depth,
            score: out.score,
            nodes: out.nodes,
            time: start.elapsed(),
            hashfull: None,
            tbhits: None,
            pv: out.pv.clone(),
        });
        let stopped = stop.load(std::sync::atomic::Ordering::Relaxed) || time.hard_expired();
        // Without a clock and without `infinite` (or no limit at all), one
        // round; a wider round takes about twice as long as this one.
        let no_time = !time.is_timed() && !limits.until_stopped();
        if stopped
            || no_time
            || limits.depth.is_some_and(|d| rounds >= d)
            || limits.nodes.is_some_and(|n| out.nodes >= n)
            || !time.continue_iterating(SOLITAIRE_INSTABILITY)
            || width >= MAX_PROTOCOL_BEAM
        {
            break;
        }
        width = (width * 2).min(MAX_PROTOCOL_BEAM);
    }
    out
}

/// The solitaire transfer from the start position of `rules` (one player):
/// the beam plan with `width` positions per ply.
///
/// The moves are all player 0's, from `Position::start` of those rules
/// with one player; [`damas::Game::line_text`](crate::Game::line_text) of a
/// [`Checkers`] of those rules formats them.
///
/// ```
/// use damas::chinese::{solve_solitaire, Rules};
/// let plan = solve_solitaire(&Rules::for_players(1), 64);
/// assert!(plan.finished && plan.moves.len() < 45);
/// ```
pub fn solve_solitaire(rules: &super::rules::Rules, width: usize) -> SolitairePlan {
    let rules = super::rules::Rules {
        players: 1,
        ..*rules
    };
    let pos = Position::start(&rules);
    plan(
        &pos,
        0,
        rules.anti_blocking,
        BeamLimits {
            width,
            max_plies: SOLITAIRE_PLAN_PLIES,
            stop: None,
            deadline: None,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::checks;
    use crate::chinese::{Mask, Rules, Triangle, Variant};

    fn at(x: i32, y: i32) -> Cell {
        Cell::from_coords(x, y).expect("on the star")
    }

    #[test]
    fn seeded_random_is_reproducible_and_differs_across_seeds() {
        checks::random_is_reproducible_and_seed_dependent(&Checkers::new(Rules::default()));
        checks::random_is_reproducible_and_seed_dependent(&Checkers::new(Rules::for_players(6)));
    }

    #[test]
    fn greedy_takes_the_clearly_best_move() {
        // Player 0's goal is full but for one hole, and its last piece is
        // next to the hole outside the goal: only the step into the hole
        // brings the summed distance down.
        let hole = at(10, 13);
        let goal = Triangle::North.cells();
        let next = Cell::all()
            .find(|c| c.hex_distance(hole) == 1 && !goal.contains(*c))
            .expect("a neighbour outside the goal");
        let p0 = goal.without(hole).with(next);
        let p1 = Triangle::South.cells().without(at(5, 3)).with(at(5, 6));
        let pos =
            Position::from_pieces(2, Variant::International, false, &[p0, p1], Mask::EMPTY, 0)
                .expect("valid");
        checks::greedy_takes_the_clear_best(&Checkers::from_position(Rules::default(), pos));
    }

    #[test]
    fn the_baseline_styles_follow_the_seed_option() {
        checks::the_engine_follows_the_seed_option(&Checkers::new(Rules::for_players(3)));
    }

    #[test]
    fn baseline_seeding_mixes_the_position_and_the_ply() {
        let start = Checkers::new(Rules::default());
        let mut after = start.clone();
        let first = after.legal_moves()[0];
        after.play(first).expect("legal");
        checks::seeding_mixes_the_position_and_the_ply(&start, &after);
    }

    /// Player 0 (goal North) has its last piece two steps from the hole at
    /// j14; player 1 (goal South) needs three steps to f4.
    fn race(to_move: usize) -> Checkers {
        let p0 = Triangle::North.cells().without(at(10, 13)).with(at(10, 11));
        let p1 = Triangle::South.cells().without(at(5, 3)).with(at(5, 6));
        let pos = Position::from_pieces(
            2,
            Variant::International,
            false,
            &[p0, p1],
            Mask::EMPTY,
            to_move,
        )
        .expect("valid");
        Checkers::from_position(Rules::default(), pos)
    }

    fn nodes(n: u64, stop: &AtomicBool) -> race::RaceBudget<'_> {
        race::RaceBudget {
            nodes: n,
            deadline: None,
            stop,
        }
    }

    #[test]
    fn the_race_solver_counts_moves_home() {
        let game = race(0);
        let stop = AtomicBool::new(false);
        assert!(race::separated(game.position()));
        assert!(matches!(
            race::moves_home(game.position(), 0, true, 6, nodes(100_000, &stop)),
            race::Home::In(2, Some(_))
        ));
        assert!(matches!(
            race::moves_home(game.position(), 1, true, 6, nodes(100_000, &stop)),
            race::Home::In(3, Some(_))
        ));
        let r = race::solve(&game, 6, nodes(100_000, &stop)).expect("a race");
        assert!(r.wins && r.plies == 3);
    }

    /// A separated endgame whose race takes the solver many thousands of
    /// nodes (from a CCERL match where it outlasted `go movetime 50`).
    const LONG_RACE: &str = "I2 2 j12,k12,l13,j14,m14,l15,m15,l16,m16,m17/\
                             e1,e2,f2,f3,f4,g4,h4,f5,h5,f8 first=1 ply=91";

    #[test]
    fn the_race_solver_gives_up_at_its_deadline_and_on_stop() {
        let game = Checkers::from_text_with_defaults(LONG_RACE, &Rules::ccerl()).expect("valid");
        assert!(race::separated(game.position()));
        let stop = AtomicBool::new(false);
        // Unbounded, the solver searches well past the first clock check.
        let past = race::RaceBudget {
            deadline: Some(Instant::now()),
            ..nodes(u64::MAX, &stop)
        };
        assert_eq!(
            race::moves_home(game.position(), 1, true, 6, past),
            race::Home::Unknown
        );
        let raised = AtomicBool::new(true);
        assert_eq!(
            race::moves_home(game.position(), 1, true, 6, nodes(u64::MAX, &raised)),
            race::Home::Unknown
        );
        assert_eq!(
            race::moves_home(game.position(), 1, true, 6, nodes(300, &stop)),
            race::Home::Unknown
        );
    }

    /// The second player's last piece on its goal tip e1, hemmed in by
    /// e2, e3 and g3: f3-f2 leaves it without a step or a jump.
    const TRAP: &str = "I2 1 e2,e3,f3,g3,i9/e1 first=1 ply=60";

    #[test]
    fn two_players_win_by_taking_the_last_moves_away_when_a_side_without_a_move_loses() {
        let stop = AtomicBool::new(false);
        let limits = SearchLimits {
            nodes: Some(20_000),
            ..SearchLimits::default()
        };
        let ccerl = Checkers::from_text_with_defaults(TRAP, &Rules::ccerl()).expect("valid");
        assert!(ccerl.rules().no_move_loss);
        let mut engine = Engine::new(1);
        let r = engine.search(&ccerl, &limits, &stop, &mut |_| {});
        let trap = ccerl.parse_move("f3-f2").expect("legal");
        assert_eq!(r.best, Some(trap));
        assert_eq!(r.score, Score::Win(1));
        // Where a side without a move passes, the same move wins nothing.
        let passing = Rules {
            no_move_loss: false,
            ..Rules::ccerl()
        };
        let pass = Checkers::from_text_with_defaults(TRAP, &passing).expect("valid");
        let r = Engine::new(1).search(&pass, &limits, &stop, &mut |_| {});
        assert!(matches!(r.score, Score::Centi(_)), "{:?}", r.score);
    }

    #[test]
    fn six_players_run_monte_carlo_with_a_node_or_time_limit_and_the_tree_with_a_depth() {
        let game = Checkers::new(Rules::for_players(6));
        let stop = AtomicBool::new(false);
        let mut engine = Engine::new(1);
        let by_nodes = SearchLimits {
            nodes: Some(700),
            ..SearchLimits::default()
        };
        let a = engine.search(&game, &by_nodes, &stop, &mut |_| {});
        // Iterations are the nodes: exactly the limit, and reproducible.
        assert_eq!(a.nodes, 700);
        assert!(game.position().is_legal(&a.best.expect("a move")));
        assert_eq!(a.pv.first(), a.best.as_ref());
        assert_eq!(a.depth as usize, a.pv.len());
        // (A second search of the same engine goes on in the tree it kept.)
        let b = Engine::new(1).search(&game, &by_nodes, &stop, &mut |_| {});
        assert_eq!((b.best, b.nodes), (a.best, 700));
        let timed = SearchLimits {
            movetime: Some(std::time::Duration::from_millis(30)),
            ..SearchLimits::default()
        };
        let mut infos = 0;
        let t = engine.search(&game, &timed, &stop, &mut |_| infos += 1);
        assert!(infos >= 1 && game.position().is_legal(&t.best.expect("a move")));
        assert!(matches!(t.score, Score::Centi(-100..=100)));
        // A depth limit runs the best-reply tree, which completes it.
        let by_depth = SearchLimits {
            depth: Some(2),
            ..SearchLimits::default()
        };
        let d = engine.search(&game, &by_depth, &stop, &mut |_| {});
        assert_eq!(d.depth, 2);
        assert!(d.nodes > game.legal_moves().len() as u64);
    }

    #[test]
    fn the_positions_seen_twice_are_those_a_third_occurrence_draws() {
        let shuffle = [
            "h12-i12", "i10-i9", "i12-h12", "i9-i10", "h12-i12", "i10-i9", "i12-h12",
        ];
        let play = |rules: &Rules| {
            let mut game = Checkers::from_text_with_defaults("I2 2 i10/h12", rules).expect("valid");
            for text in shuffle {
                game.play_text(text).expect("legal");
            }
            game
        };
        let game = play(&Rules::ccerl());
        assert!(!game.is_over());
        // i9-i10 would bring back the start for the third time; the
        // position now, after two rounds of the shuffle, is there twice.
        let mut again = *game.position();
        again.play_unchecked(&Move::new(
            "i9".parse().expect("a point"),
            "i10".parse().expect("a point"),
        ));
        let twice = seen_twice(&game);
        assert!(twice.contains(&again.hash()));
        assert!(twice.contains(&game.position().hash()));
        assert_eq!(twice.len(), 4, "each position of the shuffle's cycle");
        // Without the repetition rule nothing draws.
        assert!(seen_twice(&play(&Rules::default())).is_empty());
    }

    #[test]
    fn recent_positions_undo_the_history() {
        let mut game = Checkers::new(Rules::default());
        let start = tree::piece_hash(game.position());
        for text in ["e4-e5", "m14-m13", "e5-e4", "m13-m14"] {
            game.play_text(text).expect("legal");
        }
        // Back at the start placement: the last position two plies ago
        // differs, four plies ago it is the start.
        let recent = recent_positions(&game, 4);
        assert_eq!(recent.len(), 4);
        assert_eq!(recent[3], start);
        assert_eq!(tree::piece_hash(game.position()), start);
    }
}
