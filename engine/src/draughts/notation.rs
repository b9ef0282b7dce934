//! Move text: `11-15`, `15x24`, and the long form `from x to x captured...`.

use std::fmt::Write as _;

use thiserror::Error;

use super::bitboard::Bitboard;
use super::color::Color;
use super::error::FenError;
use super::moves::Move;
use super::position::Position;
use super::rules::Variant;
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
    /// A token names no dark square a1..h8 (the algebraic notation).
    #[error("'{token}' is not a dark square a1-h8 in move '{text}'")]
    BadName {
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

/// How the players of a variant write squares, moves and positions
/// (docs/NOTATION.md).
///
/// The board is the same in every variant: the library's squares are the
/// Spanish numbers (PDN GameType 24). Brazilian and Russian players set
/// the board up the other way round, with a dark square in White's
/// lower-left corner, and name the squares a1–h8: the same game seen in a
/// mirror, so that their file is the Spanish file mirrored (the Spanish
/// square 1, h1, is their a1) and the rows are the same.
///
/// ```
/// use damas::spanish::{Notation, Square, Variant};
/// let algebraic = Notation::of(Variant::Brazilian);
/// let one = Square::new(1).unwrap();
/// assert_eq!(algebraic.square_name(one), "a1");
/// assert_eq!(algebraic.read_square("A1"), Some(one));
/// assert_eq!(algebraic.read_square("b1"), None); // a light square
/// assert_eq!(Notation::of(Variant::Portuguese).square_name(one), "1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Square numbers 1–32, White's lower-right corner 1 (PDN GameType 24
    /// and 28): Spanish and Portuguese draughts. `11-15`, `15x24`.
    Numeric,
    /// Squares a1–h8, a1 White's lower-left dark square (PDN GameType 25
    /// and 26): Brazilian and Russian draughts. A move is `c3-d4`; a
    /// capture is every square it stands on, joined by the variant's
    /// separator (`c3xe5xg3` in Brazilian, `c3:e5:g3` in Russian
    /// draughts, as the FMJD's PDN GameType table writes them).
    Algebraic {
        /// What joins the squares of a capture: `x` or `:`.
        capture: char,
    },
}

impl Notation {
    /// The notation of `variant`'s players.
    pub const fn of(variant: Variant) -> Notation {
        match variant {
            Variant::Spanish | Variant::Portuguese => Notation::Numeric,
            Variant::Brazilian => Notation::Algebraic { capture: 'x' },
            Variant::Russian => Notation::Algebraic { capture: ':' },
        }
    }

    /// Where `sq` is drawn: its file from White's left (0 is a) and its
    /// rank from White's side (0 is row 1), in this notation's setting of
    /// the board.
    pub fn coords(self, sq: Square) -> (u8, u8) {
        match self {
            Notation::Numeric => (sq.file(), sq.rank()),
            Notation::Algebraic { .. } => (7 - sq.file(), sq.rank()),
        }
    }

    /// The square drawn at `file`, `rank` ([`Notation::coords`]), if it is
    /// a dark one.
    pub fn square_at(self, file: u8, rank: u8) -> Option<Square> {
        match self {
            Notation::Numeric => Square::from_coords(file, rank),
            Notation::Algebraic { .. } if file < 8 => Square::from_coords(7 - file, rank),
            Notation::Algebraic { .. } => None,
        }
    }

    /// The name of `sq`: `11` or `c3`.
    pub fn square_name(self, sq: Square) -> String {
        match self {
            Notation::Numeric => sq.to_string(),
            Notation::Algebraic { .. } => {
                let (file, rank) = self.coords(sq);
                format!("{}{}", char::from(b'a' + file), rank + 1)
            }
        }
    }

    /// The square `name` names (`11`; `c3` or `C3`), if it names one of
    /// the 32 dark squares.
    pub fn read_square(self, name: &str) -> Option<Square> {
        let name = name.trim();
        match self {
            Notation::Numeric => {
                if name.is_empty() || name.len() > 2 || !name.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                name.parse::<u8>().ok().and_then(Square::new)
            }
            Notation::Algebraic { .. } => match name.as_bytes() {
                &[file, rank] => {
                    let file = file.to_ascii_lowercase().checked_sub(b'a')?;
                    let rank = rank.checked_sub(b'1')?;
                    (rank < 8).then_some(())?;
                    self.square_at(file, rank)
                }
                _ => None,
            },
        }
    }
}

/// The squares strictly between two squares of one diagonal, or `None` if
/// they share no diagonal.
fn squares_between(a: Square, b: Square) -> Option<Vec<Square>> {
    let (df, dr) = (
        i16::from(b.file()) - i16::from(a.file()),
        i16::from(b.rank()) - i16::from(a.rank()),
    );
    if df == 0 || df.abs() != dr.abs() {
        return None;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    (1..df.abs())
        .map(|k| {
            let file = u8::try_from(i16::from(a.file()) + sf * k).ok()?;
            let rank = u8::try_from(i16::from(a.rank()) + sr * k).ok()?;
            Square::from_coords(file, rank)
        })
        .collect()
}

/// Whether the capture `mv` hops along `landings` (`from` first, `to`
/// last): each hop runs along one diagonal over exactly one of the pieces
/// it takes, and every one is jumped once.
pub(crate) fn fits_landings(mv: &Move, landings: &[Square]) -> bool {
    let captured = mv.captured();
    if landings.first() != Some(&mv.from())
        || landings.last() != Some(&mv.to())
        || captured.count() as usize != landings.len() - 1
    {
        return false;
    }
    let mut jumped = Bitboard::EMPTY;
    for hop in landings.windows(2) {
        let Some(between) = squares_between(hop[0], hop[1]) else {
            return false;
        };
        let mut taken = between.into_iter().filter(|&sq| captured.contains(sq));
        let (Some(piece), None) = (taken.next(), taken.next()) else {
            return false;
        };
        if jumped.contains(piece) {
            return false;
        }
        jumped.insert(piece);
    }
    jumped == captured
}

impl Position {
    /// Text of a legal move in `notation`: [`Position::move_text`] in the
    /// numeric one; in the algebraic one `c3-d4`, or a capture as every
    /// square it stands on (`c3xe5xg3`), which no other move shares.
    pub fn move_text_in(&self, mv: &Move, notation: Notation) -> String {
        let Notation::Algebraic { capture } = notation else {
            return self.move_text(mv);
        };
        let name = |sq: Square| notation.square_name(sq);
        if !mv.is_capture() {
            return format!("{}-{}", name(mv.from()), name(mv.to()));
        }
        let path = super::capture_path::capture_path(self, mv)
            .map_or_else(|| vec![mv.from(), mv.to()], |(path, _)| path);
        path.into_iter()
            .map(name)
            .collect::<Vec<_>>()
            .join(&capture.to_string())
    }

    /// Reads a move in `notation` and checks it against the legal moves:
    /// [`Position::parse_move`] in the numeric one; in the algebraic one
    /// `c3-d4`, a capture by its two ends (`c3:g3`, when only one capture
    /// joins them) or by every square it stands on (`c3:e5:g3`), with `:`
    /// or `x` between the squares, in any case.
    ///
    /// ```
    /// use damas::spanish::{Notation, Position, Rules, Variant};
    /// let rules = Rules::new(Variant::Brazilian).unwrap();
    /// let notation = Notation::of(Variant::Brazilian);
    /// // The Spanish 22, 27 and 28 are d6, e7 and g7 on the Brazilian board.
    /// let pos = Position::from_fen_in("W:Wd6:Be7,g7", notation).unwrap().with_rules(rules);
    /// assert_eq!(pos, Position::from_fen("W:W22:B27,28").unwrap().with_rules(rules));
    /// let mv = pos.parse_move_in("d6:h6", notation).unwrap();
    /// assert_eq!(pos.parse_move_in("D6xF8xH6", notation), Ok(mv));
    /// assert_eq!(pos.move_text_in(&mv, notation), "d6xf8xh6");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Position::parse_move`]: [`MoveParseError::Empty`],
    /// [`MoveParseError::Malformed`], [`MoveParseError::BadName`] (a
    /// token that names no dark square), [`MoveParseError::Illegal`] and
    /// [`MoveParseError::Ambiguous`] (two captures join the two squares
    /// given; the candidates are their full paths).
    pub fn parse_move_in(&self, text: &str, notation: Notation) -> Result<Move, MoveParseError> {
        if notation == Notation::Numeric {
            return self.parse_move(text);
        }
        let t = text.trim();
        if t.is_empty() {
            return Err(MoveParseError::Empty);
        }
        let malformed = |reason| MoveParseError::Malformed {
            text: text.to_string(),
            reason,
        };
        let is_capture_mark = |c: char| c == ':' || c == 'x' || c == 'X';
        let has_dash = t.contains('-');
        let has_x = t.contains(is_capture_mark);
        if has_dash && has_x {
            return Err(malformed("mixes '-' and a capture mark"));
        }
        if !has_dash && !has_x {
            return Err(malformed("expected '-', ':' or 'x' between squares"));
        }
        let tokens: Vec<&str> = if has_dash {
            t.split('-').collect()
        } else {
            t.split(is_capture_mark).collect()
        };
        if has_dash && tokens.len() != 2 {
            return Err(malformed("a quiet move is exactly 'from-to'"));
        }
        let squares = tokens
            .iter()
            .map(|token| {
                notation
                    .read_square(token)
                    .ok_or_else(|| MoveParseError::BadName {
                        text: text.to_string(),
                        token: token.trim().chars().take(20).collect(),
                    })
            })
            .collect::<Result<Vec<Square>, _>>()?;
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let legal = self.legal_moves();
        let matches: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                m.from() == from
                    && m.to() == to
                    && m.is_capture() == has_x
                    && (squares.len() == 2 || fits_landings(m, &squares))
            })
            .collect();
        match matches.len() {
            1 => Ok(matches[0]),
            0 => {
                let joins = |capture: bool| {
                    legal
                        .iter()
                        .any(|m| m.from() == from && m.to() == to && m.is_capture() == capture)
                };
                let reason = if has_dash && legal.first().is_some_and(|m| m.is_capture()) {
                    IllegalReason::CaptureMandatory
                } else if has_x && joins(false) {
                    IllegalReason::NotACapture
                } else if has_x && squares.len() > 2 && joins(true) {
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
                candidates: matches
                    .iter()
                    .map(|m| self.move_text_in(m, notation))
                    .collect(),
            }),
        }
    }

    /// The PDN FEN in `notation`: [`Position::to_fen`] in the numeric one;
    /// in the algebraic one the squares by name, in the order of the
    /// board's rows from White's side, kings marked `K`:
    /// `W:Wa1,c1,e1,g1,b2,...:B...`.
    pub fn fen_in(&self, notation: Notation) -> String {
        if notation == Notation::Numeric {
            return self.to_fen();
        }
        let mut s = String::from(match self.to_move() {
            Color::White => "W",
            Color::Black => "B",
        });
        for (letter, color) in [('W', Color::White), ('B', Color::Black)] {
            let mut squares: Vec<Square> = self.pieces(color).into_iter().collect();
            squares.sort_by_key(|&sq| {
                let (file, rank) = notation.coords(sq);
                (rank, file)
            });
            let items: Vec<String> = squares
                .into_iter()
                .map(|sq| {
                    let king = if self.kings(color).contains(sq) {
                        "K"
                    } else {
                        ""
                    };
                    format!("{king}{}", notation.square_name(sq))
                })
                .collect();
            let _ = write!(s, ":{letter}{}", items.join(","));
        }
        s
    }

    /// Reads a PDN FEN in `notation`: [`Position::from_fen`] in the
    /// numeric one; in the algebraic one the same fields with squares by
    /// name (`W:Wa1,Kc3:Bh8`; no ranges). The position's rules are the
    /// default ones: set the variant's with [`Position::with_rules`].
    ///
    /// # Errors
    ///
    /// The [`FenError`] of [`Position::from_fen`]; an item that names no
    /// dark square is [`FenError::BadSquare`]. Errors that name a square
    /// give its number: [`fen_error_text`] words them in `notation`.
    pub fn from_fen_in(text: &str, notation: Notation) -> Result<Position, FenError> {
        if notation == Notation::Numeric {
            return Position::from_fen(text);
        }
        // The same text with every square as its number: the numeric
        // reader then checks everything else once, for both notations.
        let mut numeric = String::with_capacity(text.len());
        let fields = text.split(':').count();
        for (i, field) in text.split(':').enumerate() {
            if i > 0 {
                numeric.push(':');
            }
            let trimmed = field.trim();
            let (color, body) = match trimmed.strip_prefix(['W', 'w', 'B', 'b']) {
                Some(body) if i > 0 => {
                    numeric.push_str(&trimmed[..1]);
                    let white = trimmed.starts_with(['W', 'w']);
                    (if white { Color::White } else { Color::Black }, body)
                }
                _ => {
                    numeric.push_str(field);
                    continue;
                }
            };
            let body = body.trim();
            let body = if i + 1 == fields {
                body.strip_suffix('.').unwrap_or(body).trim_end()
            } else {
                body
            };
            if body.is_empty() {
                continue;
            }
            let mut items = Vec::new();
            for item in body.split(',') {
                let item = item.trim();
                let (king, name) = match item.strip_prefix(['K', 'k']) {
                    Some(name) => ("K", name),
                    None => ("", item),
                };
                let sq = notation
                    .read_square(name)
                    .ok_or_else(|| FenError::BadSquare {
                        text: item.chars().take(20).collect(),
                        color,
                    })?;
                items.push(format!("{king}{}", sq.number()));
            }
            numeric.push_str(&items.join(","));
        }
        Position::from_fen(&numeric)
    }
}

/// The message of a FEN error with its square named in `notation`
/// ("square c3 listed twice").
pub fn fen_error_text(err: &FenError, notation: Notation) -> String {
    let name = |number: u8| {
        Square::new(number).map_or_else(|| number.to_string(), |sq| notation.square_name(sq))
    };
    match *err {
        FenError::DuplicateSquare { square } => format!("square {} listed twice", name(square)),
        FenError::BothColors { square } => {
            format!(
                "square {} holds both a white and a black piece",
                name(square)
            )
        }
        FenError::KingOnEmpty { square } => format!("king marker on empty square {}", name(square)),
        FenError::ManOnLastRow { color, square } => format!(
            "{color} man on square {}, its promotion row (write it as a king)",
            name(square)
        ),
        _ => err.to_string(),
    }
}
