//! Move text: `11-15`, `15x24`, and the long form `from x to x captured...`.

use std::fmt::Write as _;

use thiserror::Error;

use super::bitboard::Bitboard;
use super::moves::Move;
use super::position::Position;
use super::square::Square;
use crate::IllegalReason;

/// Why a move text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveParseError {
    /// Nothing but whitespace.
    #[error("empty move")]
    Empty,
    /// The text is not of the form `a-b`, `axb` or `axbxc...`.
    #[error("malformed move '{text}': {reason}")]
    Malformed {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A token is not a square number 1..=32.
    #[error("'{token}' is not a square number 1-32 in move '{text}'")]
    BadSquare {
        /// The text as given.
        text: String,
        /// The offending token.
        token: String,
    },
    /// Well formed, but no legal move matches.
    #[error("illegal move '{text}'{}", hint(*.reason))]
    Illegal {
        /// The text as given.
        text: String,
        /// Why: [`IllegalReason::NotLegal`] or a more precise reason
        /// (a capture is mandatory, the move does not capture, no capture
        /// takes those pieces), which the message adds after a colon.
        reason: IllegalReason,
    },
    /// Several legal moves match; the long forms tell them apart.
    #[error("ambiguous move '{text}': could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The text as given.
        text: String,
        /// Long forms of the matching moves.
        candidates: Vec<String>,
    },
}

/// The explanation [`MoveParseError::Illegal`] adds for `reason`: empty or
/// starting with `": "`.
fn hint(reason: IllegalReason) -> &'static str {
    match reason {
        IllegalReason::CaptureMandatory => ": a capture is mandatory",
        IllegalReason::NotACapture => ": that move does not capture",
        IllegalReason::WrongCaptures => ": no legal capture takes exactly those pieces",
        IllegalReason::NotLegal | IllegalReason::Ambiguous => "",
    }
}

fn parse_square(token: &str, text: &str) -> Result<Square, MoveParseError> {
    let bad = || MoveParseError::BadSquare {
        text: text.to_string(),
        token: token.to_string(),
    };
    let t = token.trim();
    if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    t.parse::<u8>().ok().and_then(Square::new).ok_or_else(bad)
}

impl Position {
    /// Parses a move and checks it against the legal moves.
    ///
    /// Accepted forms: `11-15` (quiet move), `15x24` (capture), and the long
    /// form `from x to x c1 x c2 ...` listing the captured squares in any
    /// order. Returns [`MoveParseError::Ambiguous`] when the short form
    /// matches several legal captures.
    ///
    /// ```
    /// use damas::spanish::{MoveParseError, Position};
    /// let pos = Position::start();
    /// assert!(pos.parse_move("11-15").is_ok());
    /// assert!(matches!(pos.parse_move("11-16"), Err(MoveParseError::Illegal { .. })));
    /// assert!(matches!(pos.parse_move("11-"), Err(MoveParseError::BadSquare { .. })));
    /// ```
    ///
    /// # Errors
    ///
    /// [`MoveParseError::Empty`] for blank text; [`MoveParseError::Malformed`]
    /// for text not of the form `a-b`, `axb` or `axbxc…`;
    /// [`MoveParseError::BadSquare`] for a token that is not a square 1–32;
    /// [`MoveParseError::Illegal`] when no legal move matches (the hint says
    /// when a capture is mandatory); [`MoveParseError::Ambiguous`] when several
    /// legal captures fit a short text.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(MoveParseError::Empty);
        }
        let malformed = |reason| MoveParseError::Malformed {
            text: text.to_string(),
            reason,
        };
        let has_dash = t.contains('-');
        let has_x = t.contains(['x', 'X']);
        if has_dash && has_x {
            return Err(malformed("mixes '-' and 'x'"));
        }
        if !has_dash && !has_x {
            return Err(malformed("expected '-' or 'x' between squares"));
        }
        let tokens: Vec<&str> = if has_dash {
            t.split('-').collect()
        } else {
            t.split(['x', 'X']).collect()
        };
        if has_dash && tokens.len() != 2 {
            return Err(malformed("a quiet move is exactly 'from-to'"));
        }
        let mut squares = Vec::with_capacity(tokens.len());
        for tok in &tokens {
            squares.push(parse_square(tok, text)?);
        }
        let (from, to) = (squares[0], squares[1]);
        let listed: Option<Bitboard> = if squares.len() > 2 {
            let mut set = Bitboard::EMPTY;
            for &s in &squares[2..] {
                if set.contains(s) {
                    return Err(malformed("a captured square is listed twice"));
                }
                set.insert(s);
            }
            Some(set)
        } else {
            None
        };
        let legal = self.legal_moves();
        let matches: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                m.from() == from
                    && m.to() == to
                    && m.is_capture() == has_x
                    && match listed {
                        None => true,
                        Some(set) => m.captured() == set,
                    }
            })
            .collect();
        match matches.len() {
            1 => Ok(matches[0]),
            0 => {
                let reason = if has_dash && legal.first().is_some_and(|m| m.is_capture()) {
                    IllegalReason::CaptureMandatory
                } else if has_x
                    && legal
                        .iter()
                        .any(|m| m.from() == from && m.to() == to && !m.is_capture())
                {
                    IllegalReason::NotACapture
                } else if has_x
                    && listed.is_some()
                    && legal
                        .iter()
                        .any(|m| m.from() == from && m.to() == to && m.is_capture())
                {
                    IllegalReason::WrongCaptures
                } else {
                    IllegalReason::NotLegal
                };
                Err(MoveParseError::Illegal {
                    text: text.to_string(),
                    reason,
                })
            }
            _ => Err(MoveParseError::Ambiguous {
                text: text.to_string(),
                candidates: matches.iter().map(long_text).collect(),
            }),
        }
    }

    /// Text of a legal move: `11-15` or `15x24`, or the long form
    /// `from x to x c1 x c2 ...` (captured squares ascending) when another
    /// legal move has the same origin and destination.
    ///
    /// ```
    /// use damas::spanish::Position;
    /// let pos = Position::start();
    /// let mv = pos.parse_move("9-13").unwrap();
    /// assert_eq!(pos.move_text(&mv), "9-13");
    /// assert_eq!(pos.parse_move(&pos.move_text(&mv)), Ok(mv));
    /// ```
    pub fn move_text(&self, mv: &Move) -> String {
        if !mv.is_capture() {
            return format!("{}-{}", mv.from(), mv.to());
        }
        let twins = self
            .legal_moves()
            .iter()
            .filter(|m| m.from() == mv.from() && m.to() == mv.to())
            .count();
        if twins > 1 {
            long_text(mv)
        } else {
            format!("{}x{}", mv.from(), mv.to())
        }
    }
}

/// The long form of a move: `from x to x c1 x c2 ...`, captured ascending.
/// A quiet move prints as `from-to`.
pub fn long_text(mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let mut s = format!("{}x{}", mv.from(), mv.to());
    for c in mv.captured() {
        let _ = write!(s, "x{c}");
    }
    s
}
