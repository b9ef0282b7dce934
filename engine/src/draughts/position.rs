//! The position with its make-move and hashing.

use std::fmt;

use super::bitboard::Bitboard;
use super::color::{Color, ColoredPiece, PieceKind};
use super::error::{FenError, IllegalMoveError};
use super::moves::Move;
use super::rules::Rules;
use super::square::Square;
use super::tables::{ROW_1, ROW_8};
use super::zobrist;

/// A draughts position: pieces, kings, side to move and the rules played
/// ([`Rules`], Spanish draughts unless [`Position::with_rules`] says
/// otherwise), with its Zobrist hash kept up to date.
///
/// Positions are small (`Copy`, 24 bytes); search and perft use copy-make
/// ([`Position::played_unchecked`]) while [`Position::play_unchecked`]
/// updates in place. Neither checks legality; [`Position::play`] does.
///
/// ```
/// use damas::spanish::{Color, Position};
/// let mut pos = Position::start();
/// assert_eq!(pos.legal_moves().len(), 7);
/// let mv = pos.parse_move("11-15").unwrap();
/// pos.play(&mv).unwrap();
/// assert_eq!(pos.to_move(), Color::Black);
/// assert_eq!(pos.hash(), pos.compute_hash());
/// assert_eq!(pos.to_fen(), "B:W1-10,12,15:B21-32");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) white: u32,
    pub(crate) black: u32,
    pub(crate) kings: u32,
    pub(crate) side: Color,
    /// The rule set played; a byte in what would be padding, so the
    /// position stays 24 bytes.
    pub(crate) rules: Rules,
    pub(crate) hash: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The initial position: White men on 1–12, Black men on 21–32, White
    /// to move (`W:W1-12:B21-32`).
    pub fn start() -> Position {
        Position::from_pieces(
            Bitboard(0x0000_0FFF),
            Bitboard(0xFFF0_0000),
            Bitboard::EMPTY,
            Color::White,
        )
        .unwrap_or_else(|_| unreachable!("the start position is valid"))
    }

    /// Builds a position from piece sets. `kings` marks which of the pieces
    /// are kings. Fails if the colours overlap, a king marker is on an empty
    /// square, or a man stands on its own promotion row.
    ///
    /// # Errors
    ///
    /// [`FenError::BothColors`] when a square holds pieces of both colours;
    /// [`FenError::KingOnEmpty`] for a king marker on an empty square; the
    /// [`FenError`] of a man on its own promotion row.
    pub fn from_pieces(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Result<Position, FenError> {
        if let Some(sq) = (white & black).first() {
            return Err(FenError::BothColors {
                square: sq.number(),
            });
        }
        if let Some(sq) = (kings - (white | black)).first() {
            return Err(FenError::KingOnEmpty {
                square: sq.number(),
            });
        }
        if let Some(sq) = ((white - kings) & Color::White.promotion_row()).first() {
            return Err(FenError::ManOnLastRow {
                color: Color::White,
                square: sq.number(),
            });
        }
        if let Some(sq) = ((black - kings) & Color::Black.promotion_row()).first() {
            return Err(FenError::ManOnLastRow {
                color: Color::Black,
                square: sq.number(),
            });
        }
        let mut pos = Position {
            white: white.0,
            black: black.0,
            kings: kings.0,
            side,
            rules: Rules::SPANISH,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The same position played under `rules`. The hash does not change:
    /// a search or a table holds positions of one rule set only.
    ///
    /// ```
    /// use damas::spanish::{Position, Rules};
    /// let pos = Position::start().with_rules(Rules::default());
    /// assert_eq!(pos.rules(), Rules::default());
    /// ```
    #[must_use]
    pub fn with_rules(mut self, rules: Rules) -> Position {
        self.rules = rules;
        self
    }

    /// The rules played.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Side to move.
    #[inline(always)]
    pub fn to_move(&self) -> Color {
        self.side
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        Bitboard(match color {
            Color::White => self.white,
            Color::Black => self.black,
        })
    }

    /// Men of `color`.
    #[inline(always)]
    pub fn men(&self, color: Color) -> Bitboard {
        self.pieces(color) - Bitboard(self.kings)
    }

    /// Kings of `color`.
    #[inline(always)]
    pub fn kings(&self, color: Color) -> Bitboard {
        self.pieces(color) & Bitboard(self.kings)
    }

    /// All kings of both sides.
    #[inline(always)]
    pub fn all_kings(&self) -> Bitboard {
        Bitboard(self.kings)
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.white | self.black)
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<ColoredPiece> {
        let color = if self.white & sq.bit().0 != 0 {
            Color::White
        } else if self.black & sq.bit().0 != 0 {
            Color::Black
        } else {
            return None;
        };
        let kind = if self.kings & sq.bit().0 != 0 {
            PieceKind::King
        } else {
            PieceKind::Man
        };
        Some(ColoredPiece { color, kind })
    }

    /// Zobrist hash, maintained incrementally by [`Position::play_unchecked`].
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Zobrist hash computed from scratch (for tests and checks).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (black, set) in [(false, self.white), (true, self.black)] {
            for sq in Bitboard(set) {
                let king = self.kings & sq.bit().0 != 0;
                h ^= zobrist::PIECE[zobrist::kind(black, king)][sq.index()];
            }
        }
        if self.side == Color::Black {
            h ^= zobrist::SIDE;
        }
        h
    }

    /// Plays `mv`, which must be legal in this position (as returned by
    /// [`Position::legal_moves`] or [`Position::parse_move`]), and passes the
    /// turn. The hash is updated incrementally. A man ending on its last row,
    /// or crowned on the way, becomes a king. Nothing is checked: an illegal move corrupts the
    /// position (see [`Position::play`] for the checked form).
    #[inline(always)]
    pub fn play_unchecked(&mut self, mv: &Move) {
        let from = 1u32 << mv.from;
        let to = 1u32 << mv.to;
        let black = self.side == Color::Black;
        let was_king = self.kings & from != 0;
        let promo = if black { ROW_1 } else { ROW_8 };
        let now_king = was_king || to & promo != 0 || mv.crowned;
        let mut h = self.hash ^ zobrist::SIDE;
        h ^= zobrist::PIECE[zobrist::kind(black, was_king)][mv.from as usize];
        h ^= zobrist::PIECE[zobrist::kind(black, now_king)][mv.to as usize];
        let cap = mv.captured;
        if cap != 0 {
            let mut c = cap;
            while c != 0 {
                let s = c.trailing_zeros() as usize;
                c &= c - 1;
                let k = self.kings & (1 << s) != 0;
                h ^= zobrist::PIECE[zobrist::kind(!black, k)][s];
            }
        }
        self.hash = h;
        self.apply(mv.from, mv.to, cap, now_king);
    }

    /// Board update without the hash (perft's fast path).
    #[inline(always)]
    pub(crate) fn apply(&mut self, from: u8, to: u8, cap: u32, now_king: bool) {
        let fb = 1u32 << from;
        let tb = 1u32 << to;
        let kings = self.kings & !fb & !cap;
        self.kings = if now_king { kings | tb } else { kings };
        match self.side {
            Color::White => {
                self.white = (self.white & !fb) | tb;
                self.black &= !cap;
                self.side = Color::Black;
            }
            Color::Black => {
                self.black = (self.black & !fb) | tb;
                self.white &= !cap;
                self.side = Color::White;
            }
        }
    }

    /// Copy-make: the position after `mv`, which must be legal (unchecked,
    /// as [`Position::play_unchecked`]).
    #[inline(always)]
    pub fn played_unchecked(&self, mv: &Move) -> Position {
        let mut p = *self;
        p.play_unchecked(mv);
        p
    }

    /// Plays `mv` after checking it against [`Position::legal_moves`];
    /// the position is unchanged when it is not legal. Not for hot loops.
    ///
    /// ```
    /// use damas::spanish::{Move, Position, Square};
    /// let mut pos = Position::start();
    /// let sq = |n| Square::new(n).unwrap();
    /// let bad = Move::new(sq(11), sq(16), Default::default());
    /// assert!(pos.play(&bad).is_err());
    /// assert_eq!(pos, Position::start());
    /// ```
    ///
    /// # Errors
    ///
    /// [`IllegalMoveError`] when `mv` is not a legal move here; the position is
    /// then unchanged.
    pub fn play(&mut self, mv: &Move) -> Result<(), IllegalMoveError> {
        if !self.legal_moves().contains(mv) {
            return Err(IllegalMoveError(*mv));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Whether the piece that `mv` moves is a man (a man move resets the
    /// no-progress count). `mv` must start on an occupied square.
    pub fn moves_man(&self, mv: &Move) -> bool {
        self.kings & (1 << mv.from) == 0
    }

    /// Whether `mv` crowns a man (it ends on the mover's promotion row, or
    /// is crowned on the way: [`Move::crowned_on_the_way`]).
    ///
    /// ```
    /// use damas::spanish::Position;
    /// let pos = Position::from_fen("W:W25:B5").unwrap();
    /// let mv = pos.parse_move("25-29").unwrap();
    /// assert!(pos.is_promotion(&mv));
    /// ```
    pub fn is_promotion(&self, mv: &Move) -> bool {
        self.moves_man(mv) && (mv.crowned || self.side.promotion_row().contains(mv.to()))
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
