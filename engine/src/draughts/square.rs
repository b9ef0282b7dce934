//! The 32 playable squares and their PDN numbers.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// One of the 32 playable (dark) squares of the board.
///
/// Squares are numbered 1..=32 as in PDN GameType `24,W,8,8,N1,1`: seen from
/// White, square 1 is the bottom-right corner (h1), numbers run right to left
/// along each row and bottom to top, and square 32 is the top-left corner
/// (a8). Internally a square is its number minus one, which is also its bit in
/// a [`Bitboard`](super::Bitboard).
///
/// ```
/// use damas::spanish::Square;
/// let s = Square::new(1).unwrap();
/// assert_eq!((s.file(), s.rank()), (7, 0)); // h1
/// assert_eq!(Square::new(32).unwrap().name(), "a8");
/// assert!(Square::new(33).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of playable squares.
    pub const COUNT: usize = 32;

    /// The square with PDN number `number` (1..=32), or `None`.
    #[inline]
    pub const fn new(number: u8) -> Option<Square> {
        if number >= 1 && number <= 32 {
            Some(Square(number - 1))
        } else {
            None
        }
    }

    /// The square with bit index `index` (0..32), or `None`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 32 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Bit index without a range check; callers guarantee `index < 32`.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        Square(index as u8)
    }

    /// PDN number, 1..=32.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// Bit index, 0..32 (the PDN number minus one).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row counted from White's side, 0 (row 1) to 7 (row 8).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 4
    }

    /// Column from White's left, 0 (file a) to 7 (file h).
    #[inline]
    pub const fn file(self) -> u8 {
        let i = self.0 % 4;
        if self.rank() % 2 == 0 {
            7 - 2 * i
        } else {
            6 - 2 * i
        }
    }

    /// The dark square at (`file`, `rank`), both 0..8 from White's bottom
    /// left; `None` off the board or on a light square.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file > 7 || rank > 7 || (file + rank) % 2 == 0 {
            return None;
        }
        let i = if rank % 2 == 0 {
            (7 - file) / 2
        } else {
            (6 - file) / 2
        };
        Some(Square(rank * 4 + i))
    }

    /// Algebraic name such as `h1` (for humans; the notation uses numbers).
    pub fn name(self) -> String {
        format!("{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }

    /// All 32 squares in increasing number.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..32u8).map(Square)
    }
}

impl fmt::Display for Square {
    /// Writes the PDN number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// The error for a string that is not a square number 1..=32.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("not a square number 1-32: {0:?}")]
pub struct SquareParseError(pub String);

impl FromStr for Square {
    type Err = SquareParseError;

    /// Parses a PDN square number, `1`..=`32`.
    ///
    /// ```
    /// use damas::spanish::Square;
    /// assert_eq!("32".parse::<Square>().unwrap().name(), "a8");
    /// assert!("33".parse::<Square>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let t = s.trim();
        let err = || SquareParseError(s.to_string());
        if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        t.parse::<u8>().ok().and_then(Square::new).ok_or_else(err)
    }
}
