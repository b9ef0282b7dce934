//! Moves and move lists.

use super::geometry::Cell;
use arrayvec::ArrayVec;
use std::fmt;

/// A move: the piece on `from` ends on `to`. A move is identified by this
/// pair; the path (for steps `[from, to]`, for chains every landing point)
/// comes from [`Position::path`](super::Position::path).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move {
    pub(crate) from: Cell,
    pub(crate) to: Cell,
}

impl Move {
    /// The move from `from` to `to`. Nothing is checked here;
    /// [`Position::legal_moves`](super::Position::legal_moves) produces legal moves.
    #[inline(always)]
    pub const fn new(from: Cell, to: Cell) -> Move {
        Move { from, to }
    }

    /// Starting point.
    #[inline(always)]
    pub const fn from(self) -> Cell {
        self.from
    }

    /// Final point.
    #[inline(always)]
    pub const fn to(self) -> Cell {
        self.to
    }
}

impl fmt::Display for Move {
    /// Short form without position context: `from-to`, e.g. `e4-e5`. Use
    /// [`move_text`](crate::Game::move_text) for the full path.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// Capacity of a [`MoveList`]. A player has `k ≤ 15` pieces (enforced by
/// [`Position::from_pieces`](super::Position::from_pieces)) and each has at most `121 − k` destinations
/// (the points not holding an own piece), so a position has at most
/// `15 × 106 = 1590` moves (the Japanese solitaire start comes close).
pub const MAX_MOVES: usize = 1600;

/// The moves of one position, on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
