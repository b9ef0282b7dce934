//! [`Mask`]: a set of cells as the low 121 bits of a `u128`.

use super::cell::Cell;
use super::tables::{CELLS, GEO};
use std::fmt;

/// A set of cells: bit `i` is [`Cell`] `i`. Bits 121..128 are always clear:
/// the field is private, [`Mask::from_bits`] refuses them and `!` keeps them
/// clear.
///
/// ```
/// use damas::chinese::{Cell, Mask};
/// let e1: Cell = "e1".parse().unwrap();
/// let m: Mask = [e1, Cell::from_index(5).unwrap()].into_iter().collect();
/// assert_eq!(m.count(), 2);
/// assert!(m.contains(e1));
/// assert_eq!(m.without(e1).first(), Cell::from_index(5));
/// assert!(Mask::from_bits(1 << 121).is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Mask(pub(crate) u128);

const FULL: u128 = (1u128 << CELLS) - 1;

impl Mask {
    /// The empty set.
    pub const EMPTY: Mask = Mask(0);
    /// All 121 cells.
    pub const ALL: Mask = Mask(FULL);

    /// Whether `c` is in the set.
    #[inline(always)]
    pub const fn contains(self, c: Cell) -> bool {
        self.0 >> c.index() & 1 != 0
    }

    /// Adds `c`.
    #[inline(always)]
    pub fn insert(&mut self, c: Cell) {
        self.0 |= 1u128 << c.index();
    }

    /// Removes `c`.
    #[inline(always)]
    pub fn remove(&mut self, c: Cell) {
        self.0 &= !(1u128 << c.index());
    }

    /// The set whose bit `i` stands for cell `i`, or `None` if a bit at
    /// 121 or above (outside the star) is set.
    #[inline(always)]
    pub const fn from_bits(bits: u128) -> Option<Mask> {
        if bits & !FULL == 0 {
            Some(Mask(bits))
        } else {
            None
        }
    }

    /// The raw bits: bit `i` for cell `i`.
    #[inline(always)]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// Number of cells in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `c` added.
    #[inline(always)]
    pub const fn with(self, c: Cell) -> Mask {
        Mask(self.0 | 1u128 << c.index())
    }

    /// The set with `c` removed.
    #[inline(always)]
    pub const fn without(self, c: Cell) -> Mask {
        Mask(self.0 & !(1u128 << c.index()))
    }

    /// The lowest cell of the set, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::from_u8(self.0.trailing_zeros() as u8))
        }
    }

    /// The cells of the set in index order.
    #[inline(always)]
    pub const fn iter(self) -> MaskIter {
        MaskIter(self.0)
    }
}

/// Iterator over the cells of a [`Mask`], lowest index first.
#[derive(Clone, Debug)]
pub struct MaskIter(u128);

impl Iterator for MaskIter {
    type Item = Cell;

    #[inline(always)]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Cell::from_u8(i as u8))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MaskIter {}

impl IntoIterator for Mask {
    type Item = Cell;
    type IntoIter = MaskIter;

    fn into_iter(self) -> MaskIter {
        self.iter()
    }
}

impl FromIterator<Cell> for Mask {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Mask {
        iter.into_iter().fold(Mask::EMPTY, Mask::with)
    }
}

impl From<Cell> for Mask {
    fn from(c: Cell) -> Mask {
        c.bit()
    }
}

impl fmt::Debug for Mask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|c| c.to_string()))
            .finish()
    }
}

crate::bitset::set_operators!(Mask, Mask::ALL);

impl Cell {
    /// The set holding only this cell (as `spanish::Square::bit`).
    #[inline(always)]
    pub const fn bit(self) -> Mask {
        Mask(1u128 << self.index())
    }

    /// All on-star neighbours as a mask.
    pub fn neighbours(self) -> Mask {
        Mask(GEO.nbr_mask[self.index()])
    }
}
