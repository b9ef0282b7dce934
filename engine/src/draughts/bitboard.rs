//! A set of squares as a `u32`, one bit per playable square.

use std::fmt;

use super::square::Square;

/// A set of squares: bit `n - 1` stands for the square with PDN number `n`.
///
/// ```
/// use damas::spanish::{Bitboard, Square};
/// let b: Bitboard = [1, 5, 32].iter().filter_map(|&n| Square::new(n)).collect();
/// assert_eq!(b.count(), 3);
/// assert!(b.contains(Square::new(5).unwrap()));
/// let numbers: Vec<u8> = b.iter().map(|s| s.number()).collect();
/// assert_eq!(numbers, [1, 5, 32]);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub(crate) u32);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 32 squares.
    pub const ALL: Bitboard = Bitboard(u32::MAX);

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// Adds `sq`.
    #[inline(always)]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    /// Removes `sq`.
    #[inline(always)]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The set whose bit `n - 1` stands for square `n`, or `None` if a bit
    /// lies outside the board (never for a `u32`: all 32 bits are squares).
    #[inline(always)]
    pub const fn from_bits(bits: u32) -> Option<Bitboard> {
        Some(Bitboard(bits))
    }

    /// The raw bits: bit `n - 1` for square `n`.
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest-numbered square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros()))
        }
    }

    /// Iterates over the squares in increasing number.
    #[inline(always)]
    pub const fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl Square {
    /// The one-square bitboard of this square.
    #[inline(always)]
    pub const fn bit(self) -> Bitboard {
        Bitboard(1 << self.index())
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest number first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter(u32);

impl Iterator for BitIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for s in iter {
            b.insert(s);
        }
        b
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        sq.bit()
    }
}

crate::bitset::set_operators!(Bitboard, Bitboard::ALL);

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|s| s.number()))
            .finish()
    }
}
