//! The search interface shared by both games: the limits a search runs
//! under, the options it is configured with, the scores it reports, the
//! progress values it emits and the result it returns.
//!
//! Each game has a search context with the same shape,
//! [`spanish::Engine`](crate::spanish::Engine) and
//! [`chinese::Engine`](crate::chinese::Engine): it lives across searches,
//! holds the transposition table and the per-thread state, and its
//! `search` method takes a game, [`SearchLimits`], a stop flag and a
//! callback for [`SearchInfo`], and returns a [`SearchResult`].
//!
//! The searches never print; they hand [`SearchInfo`] values (with the
//! principal variation as typed moves) to a callback and the protocol crate
//! formats them.
//!
//! Both games share one internal score scale and its conversion to
//! [`Score`], one time manager, one principal-variation table and one rule
//! for searches without a limit: with `limits.infinite`, or with no limit
//! at all ([`SearchLimits::is_unlimited`]), a search returns only after the
//! stop flag is raised, even when it has nothing more to learn.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub(crate) mod deepest;
pub(crate) mod pv;
pub(crate) mod time;

/// What bounds one search, as given by the protocol's `go` command.
///
/// Every limit is optional; a search with no limit at all, like one with
/// `infinite`, runs until it is stopped: it may finish its work early, but
/// then it waits for the stop flag before returning.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Maximum nominal depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Exact time to spend on this move.
    pub movetime: Option<Duration>,
    /// Search until stopped, whatever the other limits say about time.
    pub infinite: bool,
    /// Time left on the clock of the player to move.
    pub time_left: Option<Duration>,
    /// Increment of the player to move, added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the clock has one.
    pub moves_to_go: Option<u32>,
}

impl SearchLimits {
    /// Whether no limit is set: no depth, nodes, movetime or clock. Such a
    /// search, like an `infinite` one, returns only once it is stopped.
    ///
    /// ```
    /// use damas::search::SearchLimits;
    /// assert!(SearchLimits::default().is_unlimited());
    /// let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
    /// assert!(!limits.is_unlimited());
    /// ```
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.time_left.is_none()
    }

    /// Whether a search under these limits runs until stopped.
    pub(crate) fn until_stopped(&self) -> bool {
        self.infinite || self.is_unlimited()
    }
}

/// Waits for `stop` when `limits` ask to search until stopped (the one
/// rule of both games for `infinite` and for no limit at all).
pub(crate) fn wait_for_stop(limits: &SearchLimits, stop: &AtomicBool) {
    if limits.until_stopped() {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A heuristic score in hundredths of a man (draughts) or of a step
    /// (Chinese checkers).
    Centi(i32),
    /// A forced win in this many plies.
    Win(u32),
    /// A forced loss in this many plies.
    Loss(u32),
}

/// The internal score of a win at the root: a win in `n` plies scores
/// `MATE - n`, a loss in `n` plies `-(MATE - n)` (both games).
pub(crate) const MATE: i32 = 30_000;
/// Deepest ply either search reaches, the one bound of both games: the
/// per-ply tables (principal variations, killers, the Chinese tree's rival
/// costs) cover it, and a line is cut there. Each game's deepest nominal
/// depth (`MAX_DEPTH` in its `parameters` module) stays below it. Internal
/// scores beyond [`MATE_BOUND`] in magnitude are proven results.
pub(crate) const MAX_PLY: usize = 128;
/// Internal scores at least this large in magnitude are proven results.
pub(crate) const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
/// Larger than any internal score.
pub(crate) const INF: i32 = MATE + 1;

/// An internal score made relative to the node at `ply` for a
/// transposition table: a proven result counts its plies from that node,
/// so it stays right wherever (and in whichever search) it is read back.
#[inline]
pub(crate) fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// The inverse of [`to_tt`] for a node at `ply`.
#[inline]
pub(crate) fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

impl Score {
    /// The score of an internal value (see [`MATE`]).
    pub(crate) fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Win((MATE - s) as u32)
        } else if s <= -MATE_BOUND {
            Score::Loss((MATE + s) as u32)
        } else {
            Score::Centi(s)
        }
    }

    /// The internal value of a score (inverse of [`Score::from_internal`]).
    pub(crate) fn to_internal(self) -> i32 {
        match self {
            Score::Centi(c) => c,
            Score::Win(n) => MATE - n as i32,
            Score::Loss(n) => -MATE + n as i32,
        }
    }
}

/// Progress of a running search, emitted at least once per completed depth;
/// `M` is the game's move type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M> {
    /// Completed nominal depth.
    pub depth: u32,
    /// Deepest ply reached (selective depth).
    pub seldepth: u32,
    /// Score of the best line.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time spent so far.
    pub time: Duration,
    /// Transposition-table fill in permille, when the search has one.
    pub hashfull: Option<u32>,
    /// Endgame-table probes that gave a value, when tables are in use
    /// (Spanish draughts with a tablebase set).
    pub tbhits: Option<u64>,
    /// Principal variation, as moves from the searched position (each
    /// legal after the previous ones; the protocol formats them).
    pub pv: Vec<M>,
}

impl<M> SearchInfo<M> {
    /// The same report with another principal variation: the search's
    /// moves in another game's type, or as text.
    pub fn with_pv<N>(&self, pv: Vec<N>) -> SearchInfo<N> {
        SearchInfo {
            depth: self.depth,
            seldepth: self.seldepth,
            score: self.score,
            nodes: self.nodes,
            time: self.time,
            hashfull: self.hashfull,
            tbhits: self.tbhits,
            pv,
        }
    }

    /// Nodes per second, from `nodes` and `time`.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

/// What a search found; `M` is the game's move type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when there is no legal move (in
    /// Chinese checkers: the player to move must pass, or the game is over).
    pub best: Option<M>,
    /// Its score for the side to move.
    pub score: Score,
    /// Last completed depth (the plan length for the solitaire beam).
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Principal variation, starting with `best` when there is one.
    pub pv: Vec<M>,
}

/// The search settings that come from options rather than from `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (Lazy SMP in Spanish draughts; in Chinese checkers
    /// the 2–6 player tree search splits its root moves among them, while
    /// the solitaire beam, the race solver, the 6-player Monte Carlo
    /// search, the `plain` style and `nodes` limits run on one). Clamped
    /// to 1..=64.
    pub threads: usize,
    /// The full engine or a baseline.
    pub style: Style,
    /// Chinese checkers beam width: positions per ply of the solitaire
    /// beam; the game searches keep `beam_width / 4` own moves (4 to 64)
    /// per node. Unused by Spanish draughts.
    pub beam_width: usize,
    /// The seed of the baseline styles' random choices ([`Style::Random`],
    /// and the ties of [`Style::Greedy`]), in both games. With `Some(s)`
    /// each choice derives from `s` mixed with the position's hash and the
    /// plies played, so a game replays exactly; with `None` (the default)
    /// from the clock, mixed the same way. The full engine and
    /// [`Style::Plain`] do not use it.
    pub seed: Option<u64>,
    /// Play from the opening book when the position is in it (Spanish
    /// draughts, [`crate::spanish::Book`]; the full engine only, never an
    /// infinite search). Off by default in the library; the protocol's
    /// `OwnBook` option is on by default.
    pub own_book: bool,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            threads: 1,
            style: Style::Best,
            beam_width: 64,
            seed: None,
            own_book: false,
        }
    }
}

/// Largest transposition table an engine allocates, in MiB (4 GiB, the
/// protocol's largest `Hash`): `hash_mb` is clamped to `1..=MAX_HASH_MB`.
pub const MAX_HASH_MB: usize = 4096;

/// Most search threads an engine starts (the protocol's largest `Threads`):
/// `threads` is clamped to `1..=MAX_THREADS`, and then to the machine's
/// cores ([`effective_threads`]).
pub const MAX_THREADS: usize = 64;

/// The threads a search or perft really starts for `requested`: at least
/// one, at most [`MAX_THREADS`] and at most the cores of this machine.
/// More threads than cores only add switching (and time-slicing delays
/// every thread's look at the clock, so a short `movetime` would overrun).
///
/// ```
/// use damas::search::effective_threads;
/// assert_eq!(effective_threads(0), 1);
/// assert!(effective_threads(1_000_000) <= damas::search::MAX_THREADS);
/// ```
pub fn effective_threads(requested: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    requested.clamp(1, MAX_THREADS.min(cores).max(1))
}

/// `hash_mb` clamped to `1..=MAX_HASH_MB`.
pub(crate) fn clamp_hash_mb(hash_mb: usize) -> usize {
    hash_mb.clamp(1, MAX_HASH_MB)
}

/// How a search plays: the full engine, or one of the fixed baselines that
/// strength measurements play against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// The full engine.
    #[default]
    Best,
    /// Plain fixed-depth alpha-beta on material (draughts) or summed
    /// distance (Chinese checkers) only: the baseline for Elo gains.
    Plain,
    /// The move that looks best one ply ahead by the plain evaluation;
    /// ties drawn at random by [`EngineOptions::seed`]'s rule (the same in
    /// both games).
    Greedy,
    /// A uniformly random legal move, drawn by [`EngineOptions::seed`]'s
    /// rule.
    Random,
}

impl Style {
    /// The option value naming this style.
    pub fn name(self) -> &'static str {
        match self {
            Style::Best => "best",
            Style::Plain => "plain",
            Style::Greedy => "greedy",
            Style::Random => "random",
        }
    }

    /// Every style, in option order.
    pub const ALL: [Style; 4] = [Style::Best, Style::Plain, Style::Greedy, Style::Random];
}

/// Totals of a benchmark run (`damas bench`): a fixed set of positions
/// searched to a fixed depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes over all positions: the search's signature, which changes
    /// exactly when the search's behaviour changes.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000 / self.time.as_micros().max(1)) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_scores_convert_both_ways() {
        for s in [
            0,
            35,
            -1200,
            MATE - 1,
            MATE - 40,
            -MATE + 3,
            MATE_BOUND,
            -MATE_BOUND,
        ] {
            assert_eq!(Score::from_internal(s).to_internal(), s);
        }
        assert_eq!(Score::from_internal(MATE - 3), Score::Win(3));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Loss(2));
        assert_eq!(
            Score::from_internal(MATE_BOUND - 1),
            Score::Centi(MATE_BOUND - 1)
        );
    }

    #[test]
    fn an_unlimited_search_waits_for_stop() {
        let stop = AtomicBool::new(true);
        wait_for_stop(&SearchLimits::default(), &stop);
        let limits = SearchLimits {
            depth: Some(1),
            ..SearchLimits::default()
        };
        assert!(!limits.until_stopped());
        wait_for_stop(&limits, &AtomicBool::new(false));
    }
}
