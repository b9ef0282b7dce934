//! Moves and move lists.

use std::fmt;

use arrayvec::ArrayVec;

use super::bitboard::Bitboard;
use super::square::Square;

/// Capacity of a [`MoveList`].
///
/// Quiet moves: a side has at most 12 pieces in a game, and a king reaches at
/// most 13 squares (the two diagonals through a central square hold 8 + 7
/// squares including its own), so at most 12 × 13 = 156 (even 32 pieces of
/// which most are blocked stay far below 256). Captures have no simple
/// closed bound; a randomised hill-climbing search over 3000 random starts
/// (positions of any piece counts, kings included) found at most 72 quiet
/// moves and 38 maximal captures in one position. 256 leaves a wide margin
/// while keeping a list at 2 KiB on the stack. Should a position ever exceed
/// it, generation panics rather than drop a move.
pub const MAX_MOVES: usize = 256;

/// The legal moves of a position; never allocates.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// A move: origin, destination and the set of captured squares, and
/// whether a man was crowned on the way without ending on its last row
/// (Russian draughts, where it goes on capturing as a king).
///
/// Two moves are equal when these agree, whatever path the piece took
/// (the rules treat such sequences as one move). A king that captures around
/// a ring may end where it started, so `from == to` is possible for captures.
///
/// ```
/// use damas::spanish::Position;
/// let pos = Position::start();
/// let mv = pos.parse_move("11-15").unwrap();
/// assert_eq!((mv.from().number(), mv.to().number()), (11, 15));
/// assert!(!mv.is_capture());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) captured: u32,
    /// A man crowned in the middle of the capture that ends off its last
    /// row: the end square alone does not tell that it is a king. A byte
    /// of what would be padding, so a move stays 8 bytes.
    pub(crate) crowned: bool,
}

impl Move {
    /// A move from `from` to `to` capturing the pieces on `captured`, with
    /// no crowning on the way ([`Move::crowned_on_the_way`]).
    ///
    /// Nothing is checked here; [`super::Position::legal_moves`] and
    /// [`super::Position::parse_move`] produce legal moves.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, captured: Bitboard) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
            captured: captured.0,
            crowned: false,
        }
    }

    /// Whether a man was crowned in the middle of this capture and ends it
    /// as a king off its last row (Russian draughts, where a man reaching
    /// the last row goes on capturing as a king). Always false in the other
    /// variants, and for a capture that ends on the last row.
    #[inline(always)]
    pub const fn crowned_on_the_way(self) -> bool {
        self.crowned
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked(self.from as u32)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(self.to as u32)
    }

    /// Squares of the captured pieces (empty for a quiet move).
    #[inline(always)]
    pub const fn captured(self) -> Bitboard {
        Bitboard(self.captured)
    }

    /// Whether the move captures.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.captured != 0
    }

    /// Number of pieces captured.
    #[inline(always)]
    pub const fn capture_count(self) -> u32 {
        self.captured.count_ones()
    }
}

impl fmt::Display for Move {
    /// Short form without position context: `11-15` or `15x24`. Use
    /// [`super::Position::move_text`] for the form that is never ambiguous.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}{}{}", self.from(), sep, self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self)?;
        for c in self.captured() {
            write!(f, "x{c}")?;
        }
        Ok(())
    }
}
