//! PDN FEN: `W:W1-12:B21-32`, `B:W18,K3:BK30,22`, and `Display`/`FromStr`
//! of [`Position`].

use std::fmt;
use std::str::FromStr;

use super::bitboard::Bitboard;
use super::color::Color;
use super::error::FenError;
use super::position::Position;

/// Pieces of one colour at the start, and so at most in any game.
const MAX_PIECES: u32 = 12;

fn parse_number(text: &str, color: Color) -> Result<u8, FenError> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::BadSquare {
            text: text.to_string(),
            color,
        });
    }
    let n: u64 = t.parse().unwrap_or(u64::MAX);
    if (1..=32).contains(&n) {
        Ok(n as u8)
    } else {
        Err(FenError::OutOfRange { square: n, color })
    }
}

/// Parses one colour's list (after its colour letter) into (men, kings).
fn parse_list(body: &str, color: Color) -> Result<(u32, u32), FenError> {
    let mut men = 0u32;
    let mut kings = 0u32;
    if body.trim().is_empty() {
        return Ok((0, 0));
    }
    for item in body.split(',') {
        let item = item.trim();
        let (king, rest) = match item.strip_prefix(['K', 'k']) {
            Some(r) => (true, r),
            None => (false, item),
        };
        let (lo, hi) = match rest.split_once('-') {
            Some((a, b)) => {
                let lo = parse_number(a, color)?;
                let hi = parse_number(b, color)?;
                if hi < lo {
                    return Err(FenError::BadRange {
                        text: item.to_string(),
                        color,
                    });
                }
                (lo, hi)
            }
            None => {
                let n = parse_number(rest, color)?;
                (n, n)
            }
        };
        for n in lo..=hi {
            let bit = 1u32 << (n - 1);
            if (men | kings) & bit != 0 {
                return Err(FenError::DuplicateSquare { square: n });
            }
            if king {
                kings |= bit;
            } else {
                men |= bit;
            }
        }
    }
    Ok((men, kings))
}

impl Position {
    /// Parses a PDN FEN such as `W:W1-12:B21-32` or `B:W18,K3:BK30,22`.
    ///
    /// The side to move comes first, then the two piece lists in either
    /// order; `K` marks a king and `a-b` a range. Spaces around items and a
    /// final `.` are accepted.
    ///
    /// ```
    /// use damas::spanish::{FenError, Position};
    /// let pos = Position::from_fen("B:W18,K3:BK30,22").unwrap();
    /// assert_eq!(pos.to_fen(), "B:WK3,18:B22,K30");
    /// let err = Position::from_fen("W:W1-12,33:B21-32").unwrap_err();
    /// assert_eq!(err.to_string(), "square 33 out of range in white pieces (1-32)");
    /// ```
    ///
    /// # Errors
    ///
    /// A [`FenError`] naming the first fault: an empty text, a side that is not
    /// `W` or `B`, a missing `:`, a piece list of no colour or of one colour
    /// twice, a square or range out of 1–32, a square listed twice or for both
    /// colours, or more pieces than a side can have.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let t = text.trim();
        let t = t.strip_suffix('.').unwrap_or(t).trim();
        if t.is_empty() {
            return Err(FenError::Empty);
        }
        let (side_text, rest) = match t.split_once(':') {
            Some(x) => x,
            None => {
                return if matches!(t, "W" | "B" | "w" | "b") {
                    Err(FenError::ExpectedColon)
                } else {
                    Err(FenError::BadSide {
                        found: t.chars().take(10).collect(),
                    })
                }
            }
        };
        let side = match side_text.trim() {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            other => {
                return Err(FenError::BadSide {
                    found: other.to_string(),
                })
            }
        };
        let mut lists: [Option<(u32, u32)>; 2] = [None, None];
        for part in rest.split(':') {
            let p = part.trim();
            let (color, body) = if let Some(b) = p.strip_prefix(['W', 'w']) {
                (Color::White, b)
            } else if let Some(b) = p.strip_prefix(['B', 'b']) {
                (Color::Black, b)
            } else {
                return Err(FenError::BadListColor {
                    found: p.to_string(),
                });
            };
            let slot = &mut lists[color as usize];
            if slot.is_some() {
                return Err(FenError::DuplicateList { color });
            }
            *slot = Some(parse_list(body, color)?);
        }
        let (wm, wk) = lists[0].ok_or(FenError::MissingList {
            color: Color::White,
        })?;
        let (bm, bk) = lists[1].ok_or(FenError::MissingList {
            color: Color::Black,
        })?;
        for (color, pieces) in [(Color::White, wm | wk), (Color::Black, bm | bk)] {
            if pieces.count_ones() > MAX_PIECES {
                return Err(FenError::TooManyPieces {
                    color,
                    count: pieces.count_ones(),
                });
            }
        }
        Position::from_pieces(
            Bitboard(wm | wk),
            Bitboard(bm | bk),
            Bitboard(wk | bk),
            side,
        )
    }

    /// Prints the position as PDN FEN, squares ascending, kings marked `K`,
    /// runs of three or more consecutive men as ranges: `W:W1-12:B21-32`.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(48);
        s.push(match self.side {
            Color::White => 'W',
            Color::Black => 'B',
        });
        for (letter, color) in [('W', Color::White), ('B', Color::Black)] {
            s.push(':');
            s.push(letter);
            let pieces = self.pieces(color).0;
            let mut items: Vec<String> = Vec::new();
            let mut n = 0usize;
            while n < 32 {
                let bit = 1u32 << n;
                if pieces & bit == 0 {
                    n += 1;
                    continue;
                }
                if self.kings & bit != 0 {
                    items.push(format!("K{}", n + 1));
                    n += 1;
                    continue;
                }
                let mut end = n;
                while end + 1 < 32
                    && pieces & (1 << (end + 1)) != 0
                    && self.kings & (1 << (end + 1)) == 0
                {
                    end += 1;
                }
                if end >= n + 2 {
                    items.push(format!("{}-{}", n + 1, end + 1));
                } else {
                    for m in n..=end {
                        items.push(format!("{}", m + 1));
                    }
                }
                n = end + 1;
            }
            s.push_str(&items.join(","));
        }
        s
    }
}

impl fmt::Display for Position {
    /// Writes the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}
