//! Sides and pieces.

use std::fmt;
use std::ops::Not;

use super::bitboard::Bitboard;
use super::tables::{ROW_1, ROW_8};

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Starts on squares 1–12 and moves first.
    White,
    /// Starts on squares 21–32.
    Black,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The row where this side's men are promoted, as a bitboard.
    #[inline(always)]
    pub const fn promotion_row(self) -> Bitboard {
        match self {
            Color::White => Bitboard(ROW_8),
            Color::Black => Bitboard(ROW_1),
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.opposite()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// Man or king (dama): the game-neutral [`crate::PieceKind`]. A Spanish
/// man steps and captures forward only; a king flies.
pub use crate::board::PieceKind;

/// A piece: colour and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColoredPiece {
    /// Owner.
    pub color: Color,
    /// Man or king.
    pub kind: PieceKind,
}
