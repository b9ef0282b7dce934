//! Errors: of reading or building a position, of playing a move, of the
//! game's text commands.

use super::geometry::{Cell, CellParseError};
use super::moves::Move;

/// What is wrong with a position text (read by [`Checkers`]'s `FromStr`) or with a
/// position built from pieces (see [`Position::from_pieces`]).
///
/// [`Checkers`]: super::Checkers
/// [`Position::from_pieces`]: super::Position::from_pieces
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// The text is empty or a mandatory token is missing.
    #[error("position text: missing {0}")]
    Missing(&'static str),
    /// The variant/players token is not `I1`..`I6` or `J1`..`J6`.
    #[error("position text: bad variant/players {0:?}")]
    Header(String),
    /// The side to move is not a player number.
    #[error("position text: bad player to move {0:?}")]
    ToMove(String),
    /// The piece groups do not match the number of players.
    #[error("position text: bad pieces {0:?}")]
    Pieces(String),
    /// A name is not a point of the star.
    #[error(transparent)]
    Cell(#[from] CellParseError),
    /// A `key=value` field is unknown or malformed.
    #[error("position text: bad field {0:?}")]
    Field(String),
    /// The fields contradict each other (a finished player to move, a
    /// game over with a player still playing).
    #[error("position text: {0}")]
    Inconsistent(String),
    /// The number of players is not 1..=6.
    #[error("bad number of players {0} (1 to 6)")]
    Players(usize),
    /// A cell holds pieces of two players.
    #[error("cell {0} holds pieces of two players")]
    Overlap(Cell),
    /// A player has more than 15 pieces.
    #[error("p{player} has {count} pieces (at most 15)", player = .0 + 1, count = .1)]
    TooMany(usize, u32),
    /// A king is not on a piece, or there is a king in the international
    /// variant, or a player has two kings.
    #[error("bad king placement: {0}")]
    King(String),
    /// The side to move given to [`Position::from_pieces`] is not a player.
    ///
    /// [`Position::from_pieces`]: super::Position::from_pieces
    #[error("side to move p{} is not a player", .0 + 1)]
    NotAPlayer(usize),
}

/// A move that is not legal in the position it was played in (see
/// [`Position::play`](super::Position::play)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {0}")]
pub struct IllegalMoveError(pub Move);

/// Errors of the Chinese rules behind [`play_text`](crate::Game::play_text) and
/// friends (the trait reports them as [`PlayError`](crate::PlayError)s).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckersError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The text is not a move (`e1-e3-g5`, `e1-g5`, `pass`, `resign`).
    #[error("not a move: {0:?}")]
    Syntax(String),
    /// A name is not a point of the star.
    #[error(transparent)]
    Cell(#[from] CellParseError),
    /// Well-formed but not legal here.
    #[error("illegal move {0}")]
    Illegal(String),
    /// `pass` while a move is available.
    #[error("cannot pass with {0} legal moves")]
    CannotPass(usize),
    /// The player named is not playing.
    #[error("player {0} is not playing")]
    NotPlaying(usize),
}
