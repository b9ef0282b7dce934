//! Every tuning constant of the Spanish draughts search, in one place:
//! depth bounds, aspiration windows, pruning and reduction margins, the
//! late-move reduction formula, move-ordering bonuses, history limits and
//! the Lazy SMP settings. The search modules refer to them by name.
//!
//! The evaluation's tuned weights are not here: `damas tune` writes them
//! into `weights.rs`. Changing any value below changes the search, and so
//! the node signature of `damas bench`.

use crate::search::MAX_PLY;

// Depth.

/// Deepest nominal depth of an unlimited search: a few plies below
/// [`MAX_PLY`], so that the tables cover every line the search returns.
pub(super) const MAX_DEPTH: u32 = 120;
/// Iterative deepening ends once the completed depth is within this many
/// plies of [`MAX_PLY`] (the next iteration could not be searched out).
pub(super) const DEPTH_HEADROOM: usize = 8;
/// A forced move (a single legal move) is extended while the ply is below
/// this multiple of the root depth, so that capture chains cannot extend
/// a line without end.
pub(super) const FORCED_EXTENSION_FACTOR: i32 = 2;

const _: () = assert!(MAX_DEPTH as usize <= MAX_PLY - DEPTH_HEADROOM);

// Aspiration windows (module `deepening`).

/// The first depth searched with an aspiration window (the shallower ones
/// are too cheap and too unstable to gain from one).
pub(super) const ASPIRATION_MIN_DEPTH: i32 = 5;
/// The first half-width of the window around the previous score, in the
/// evaluation's units; doubled after each failure.
pub(super) const ASPIRATION_DELTA: i32 = 30;
/// Once the half-width passes this, the window is the full range.
pub(super) const ASPIRATION_MAX_DELTA: i32 = 1000;

// Stopping iterative deepening on the clock.

/// How much of the count of best-move changes survives each iteration.
pub(super) const CHANGE_DECAY: f64 = 0.5;
/// The instability handed to the time manager is `1 + CHANGE_WEIGHT ×`
/// the decayed count of changes (up to about 2.5 after changes).
pub(super) const CHANGE_WEIGHT: f64 = 3.0;
/// A proven result in `n` plies stops the search on the clock once the
/// depth reaches `2 n + PROVEN_DEPTH_MARGIN`: deeper iterations cannot
/// change it.
pub(super) const PROVEN_DEPTH_MARGIN: i32 = 4;

// Reverse futility pruning.

/// Reverse futility margin per ply of remaining depth, in the
/// evaluation's units (a man is about 500 of them in the middle game;
/// 140 beat 70 in games: docs/SEARCH.md, "Evaluation").
pub(super) const FUTILITY_MARGIN: i32 = 140;
/// Reverse futility applies at this remaining depth and below.
pub(super) const FUTILITY_MAX_DEPTH: i32 = 3;

// Null move (draughts has zugzwangs: only with enough material).

/// The least remaining depth of a null-move search.
pub(super) const NULL_MIN_DEPTH: i32 = 3;
/// The side to move needs at least this many men for a null move.
pub(super) const NULL_MIN_MEN: u32 = 4;
/// The board needs at least this many pieces for a null move.
pub(super) const NULL_MIN_PIECES: u32 = 10;
/// The null move's depth reduction is `NULL_REDUCTION + depth /
/// NULL_REDUCTION_DIVISOR` (on top of the ply itself).
pub(super) const NULL_REDUCTION: i32 = 3;
/// See [`NULL_REDUCTION`].
pub(super) const NULL_REDUCTION_DIVISOR: i32 = 4;

// Late-move pruning.

/// Late-move pruning applies at this remaining depth and below.
pub(super) const LMP_MAX_DEPTH: i32 = 3;
/// Quiet moves from number `LMP_BASE + LMP_FACTOR × depth²` on are
/// skipped.
pub(super) const LMP_BASE: i32 = 4;
/// See [`LMP_BASE`].
pub(super) const LMP_FACTOR: i32 = 2;

// Late-move reductions.

/// Late-move reductions start at this remaining depth.
pub(super) const LMR_MIN_DEPTH: i32 = 3;
/// The first moves (by the ordering) that are never reduced.
pub(super) const LMR_MIN_MOVE: usize = 2;
/// The reduction is `LMR_BASE + ln(depth) × ln(move) / LMR_DIVISOR`,
/// truncated.
pub(super) const LMR_BASE: f64 = 0.75;
/// See [`LMR_BASE`].
pub(super) const LMR_DIVISOR: f64 = 2.25;
/// The reduction table covers depths and move numbers below this (larger
/// ones use its last row and column).
pub(super) const LMR_TABLE: usize = 64;
/// Plies less reduction in a principal-variation node.
pub(super) const LMR_PV_LESS: i32 = 1;

// Move ordering (module `ordering`): each class above the next.

/// The transposition table's move.
pub(super) const TT_SCORE: i32 = 1 << 30;
/// Any capture.
pub(super) const CAPTURE_SCORE: i32 = 1 << 26;
/// Added to a capture per king it takes.
pub(super) const CAPTURED_KING_BONUS: i32 = 16;
/// Added to a capture that also promotes: above the same capture without
/// promotion, below one more king taken.
pub(super) const PROMOTING_CAPTURE_BONUS: i32 = 1;
/// A quiet promotion.
pub(super) const PROMOTION_SCORE: i32 = 1 << 25;
/// The ply's first killer move.
pub(super) const KILLER1_SCORE: i32 = 1 << 24;
/// The ply's second killer move, just below the first.
pub(super) const KILLER2_SCORE: i32 = (1 << 24) - 1;
/// The largest history bonus of one cut-off (the bonus is depth², capped).
pub(super) const HISTORY_BONUS_MAX: i32 = 400;
/// History entries approach ±`HISTORY_LIMIT` and stay within it (each
/// update is scaled down by `entry / HISTORY_LIMIT`); far below the
/// killers' scores.
pub(super) const HISTORY_LIMIT: i32 = 16384;
/// The history is divided by this at the start of each search.
pub(super) const HISTORY_AGING: i32 = 2;
/// The most quiet moves tried before a cut-off that the history
/// penalises.
pub(super) const TRIED_MOVES: usize = 48;

// Threads and polling.

/// Nodes between two looks at the stop flag, the clock and the shared
/// node count: `nodes & POLL_MASK == 0` (every 1024 nodes, about 0.25 ms
/// at the search's 4 M nodes a second: the clock is read at least every
/// millisecond of work even on a loaded core).
pub(super) const POLL_MASK: u64 = 1023;
/// How far ahead of the main thread odd-numbered helpers start each
/// iteration.
pub(super) const HELPER_OFFSET: i32 = 1;
/// Stack size of a helper thread (the recursion reaches [`MAX_PLY`]).
pub(super) const HELPER_STACK: usize = 16 << 20;
