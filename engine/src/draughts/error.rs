//! Errors of reading a position and of playing a move.

use thiserror::Error;

use super::color::Color;
use super::moves::Move;

/// What is wrong with a position text (FEN) or with a position built from
/// parts.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// Nothing but whitespace.
    #[error("empty FEN")]
    Empty,
    /// The first field is not `W` or `B`.
    #[error("expected side to move 'W' or 'B' at the start, found '{found}'")]
    BadSide {
        /// The text found instead.
        found: String,
    },
    /// No `:` after the side to move.
    #[error("expected ':' after side to move")]
    ExpectedColon,
    /// A piece list does not start with `W` or `B`.
    #[error("piece list must start with 'W' or 'B', found '{found}'")]
    BadListColor {
        /// The list as found.
        found: String,
    },
    /// The same colour has two piece lists.
    #[error("{color} piece list given twice")]
    DuplicateList {
        /// The repeated colour.
        color: Color,
    },
    /// A colour has no piece list.
    #[error("missing {color} piece list")]
    MissingList {
        /// The missing colour.
        color: Color,
    },
    /// An item is neither a number nor a range.
    #[error("invalid square '{text}' in {color} pieces")]
    BadSquare {
        /// The item as found.
        text: String,
        /// Whose list it is in.
        color: Color,
    },
    /// A square number outside 1..=32.
    #[error("square {square} out of range in {color} pieces (1-32)")]
    OutOfRange {
        /// The number given.
        square: u64,
        /// Whose list it is in.
        color: Color,
    },
    /// A range whose end is before its start.
    #[error("range '{text}' runs backwards in {color} pieces")]
    BadRange {
        /// The range as found.
        text: String,
        /// Whose list it is in.
        color: Color,
    },
    /// The same square listed twice.
    #[error("square {square} listed twice")]
    DuplicateSquare {
        /// The square number.
        square: u8,
    },
    /// A square holds pieces of both colours.
    #[error("square {square} holds both a white and a black piece")]
    BothColors {
        /// The square number.
        square: u8,
    },
    /// A king marker on an empty square (only from `Position::from_pieces`).
    #[error("king marker on empty square {square}")]
    KingOnEmpty {
        /// The square number.
        square: u8,
    },
    /// More pieces of one colour than a game can have (12): a FEN is read
    /// only for positions that can arise. `Position::from_pieces` does not
    /// check this.
    #[error("{count} {color} pieces (at most 12)")]
    TooManyPieces {
        /// Whose pieces.
        color: Color,
        /// How many were listed.
        count: u32,
    },
    /// A man on its own promotion row, where it would already be a king.
    #[error("{color} man on square {square}, its promotion row (write it as a king)")]
    ManOnLastRow {
        /// The man's colour.
        color: Color,
        /// The square number.
        square: u8,
    },
}

/// A move that is not legal in the position it was played in (see
/// [`Position::play`](super::Position::play)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("illegal move {0}")]
pub struct IllegalMoveError(pub Move);
