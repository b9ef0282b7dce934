//! Types shared by the searches of both games: the limits a search runs
//! under, the scores it reports, and the progress values it emits.
//!
//! The searches never print; they hand [`SearchInfo`] values to a callback
//! and the protocol crate formats them.

use std::time::Duration;

/// What bounds one search, as given by the protocol's `go` command.
///
/// Every limit is optional; a search with no limit at all runs until it is
/// stopped (the `infinite` case) or until it has nothing more to learn.
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

/// Progress of a running search, emitted at least once per completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
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
    /// Principal variation, already in the game's move notation.
    pub pv: Vec<String>,
}

impl SearchInfo {
    /// Nodes per second, from `nodes` and `time`.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
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
    /// The move that looks best one ply ahead by the plain evaluation.
    Greedy,
    /// A uniformly random legal move.
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
