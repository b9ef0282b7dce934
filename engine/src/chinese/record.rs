//! What a game records: each player's state, the turns taken and why the
//! game ended.

use super::geometry::Cell;
use super::moves::Move;

/// Where a player stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PlayerState {
    /// Still moving.
    Playing,
    /// Finished (filled the goal) and took this place (1 = first).
    Finished {
        /// Place, 1-based.
        place: u8,
    },
    /// Resigned and took this place (the last free one); the pieces stay.
    Resigned {
        /// Place, 1-based.
        place: u8,
    },
    /// Placed when the game ended without this player finishing: the last
    /// player left, a move-limit draw, the no-progress ranking, or the
    /// ranking of the others when the game stops at the first finisher, or
    /// the referee's adjudication.
    /// Several players may share a place.
    Placed {
        /// Place, 1-based.
        place: u8,
    },
}

impl PlayerState {
    /// The place, when decided.
    pub fn place(self) -> Option<u8> {
        match self {
            PlayerState::Playing => None,
            PlayerState::Finished { place }
            | PlayerState::Resigned { place }
            | PlayerState::Placed { place } => Some(place),
        }
    }
}

/// One entry of the game record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Turn {
    /// A move with its full path.
    Move {
        /// The mover.
        player: usize,
        /// The move.
        mv: Move,
        /// Every point of the path, `from` first.
        path: Vec<Cell>,
    },
    /// A pass (the player had no legal move).
    Pass {
        /// The player who passed.
        player: usize,
    },
    /// A resignation.
    Resign {
        /// The player who resigned.
        player: usize,
    },
}
