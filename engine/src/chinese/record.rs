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

/// Why the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// All places decided by finishing and resigning.
    Decided,
    /// A player finished with `play_to_end` off (or in a 2-player game).
    FirstFinisher,
    /// The move limit was reached.
    MoveLimit,
    /// The no-progress limit was reached.
    NoProgress,
    /// No player still playing had a legal move.
    Blocked,
    /// The referee ended the game
    /// ([`adjudicate_draw`](crate::Game::adjudicate_draw)): the players
    /// still playing share the next free place.
    Adjudicated,
    /// A player had no legal move and lost ([`Rules::no_move_loss`]).
    ///
    /// [`Rules::no_move_loss`]: super::Rules::no_move_loss
    NoMoves,
    /// The same position with the same player to move for the third time
    /// ([`Rules::repetition_draw`]): the players still playing share the
    /// next place.
    ///
    /// [`Rules::repetition_draw`]: super::Rules::repetition_draw
    Repetition,
}
