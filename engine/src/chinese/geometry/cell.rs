//! [`Cell`]: a point of the star, its coordinates and its name.

use super::tables::{hex_dist, CELLS, GEO, NONE};
use std::fmt;
use std::str::FromStr;

/// A point of the star, by its index `0..121` in the fixed cell order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The cell with index `i`, if `i < 121`.
    pub const fn from_index(i: usize) -> Option<Cell> {
        if i < CELLS {
            Some(Cell(i as u8))
        } else {
            None
        }
    }

    /// Like [`Cell::from_index`] for indices known to be valid (crate use).
    #[inline(always)]
    pub(crate) const fn from_u8(i: u8) -> Cell {
        Cell(i)
    }

    /// Index `0..121` in the fixed cell order.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File `0..17` (`a` = 0).
    pub fn x(self) -> u8 {
        GEO.xs[self.0 as usize]
    }

    /// Rank `0..17` (rank number minus one).
    pub fn y(self) -> u8 {
        GEO.ys[self.0 as usize]
    }

    /// The cell at file `x`, rank `y` (both 0-based), if it is on the star.
    pub fn from_coords(x: i32, y: i32) -> Option<Cell> {
        if !(0..17).contains(&x) || !(0..17).contains(&y) {
            return None;
        }
        let i = GEO.index_of[y as usize][x as usize];
        (i != NONE).then_some(Cell(i))
    }

    /// Every cell, in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }

    /// Hexagonal (step) distance between two cells.
    pub fn hex_distance(self, other: Cell) -> u32 {
        hex_dist(
            self.x() as i32,
            self.y() as i32,
            other.x() as i32,
            other.y() as i32,
        )
    }

    /// The human name: file letter and rank number, e.g. `e1`.
    pub fn name(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x()) as char, self.y() + 1)
    }
}

/// The error for a string that is not a cell name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a cell of the star: {0:?}")]
pub struct CellParseError(pub String);

impl FromStr for Cell {
    type Err = CellParseError;

    /// Parses `e1`-style names (file `a`..`q`, rank `1`..`17`), any case.
    fn from_str(s: &str) -> Result<Cell, CellParseError> {
        let err = || CellParseError(s.to_string());
        let mut chars = s.chars();
        let f = chars.next().ok_or_else(err)?.to_ascii_lowercase();
        if !f.is_ascii_lowercase() {
            return Err(err());
        }
        let rest = chars.as_str();
        if rest.is_empty() || rest.starts_with('0') || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let r: i32 = rest.parse().map_err(|_| err())?;
        Cell::from_coords(f as i32 - 'a' as i32, r - 1).ok_or_else(err)
    }
}
