//! [`Mask`]: a set of cells as the low 121 bits of a `u128`.

use super::geometry::{Cell, CELLS};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells: bit `i` is [`Cell`] `i`. Bits 121..128 are always clear
/// (`!` keeps them clear).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Mask(pub u128);

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
    pub fn iter(self) -> MaskIter {
        MaskIter(self.0)
    }

    /// Builds a set from cells.
    pub fn from_cells<I: IntoIterator<Item = Cell>>(cells: I) -> Mask {
        cells.into_iter().fold(Mask::EMPTY, Mask::with)
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
        Mask::from_cells(iter)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Mask {
            type Output = Mask;
            #[inline(always)]
            fn $f(self, rhs: Mask) -> Mask {
                Mask(self.0 $op rhs.0)
            }
        }
        impl $atr for Mask {
            #[inline(always)]
            fn $af(&mut self, rhs: Mask) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Mask {
    type Output = Mask;
    #[inline(always)]
    fn not(self) -> Mask {
        Mask(!self.0 & FULL)
    }
}
