//! Spanish draughts (damas españolas).
//!
//! The rules of `docs/RULES.md` on the 32 dark squares of an 8×8 board:
//! men step and capture forward only, flying kings, mandatory capture of the
//! most pieces and then the most kings, promotion ending a capture.
//!
//! - [`Square`], [`Bitboard`]: squares numbered 1..=32 as in PDN (1 at h1,
//!   32 at a8) and `u32` sets of them.
//! - [`Position`]: pieces and side to move, FEN, legal moves, make-move,
//!   Zobrist hash, move text and a diagram.
//! - [`Draughts`]: history, repetition and no-progress draws, result.
//! - [`perft()`], [`divide`], [`perft_parallel`], [`perft_hashed`].
//! - [`Engine`]: the search, kept across searches; [`bench()`].
//! - [`tablebase`]: endgame tables: generation, files, probes, verification.
//! - [`tuning`]: the evaluation's features and weights (for `damas tune`).
//!
//! ```
//! use damas::spanish::{perft, Draughts, Position};
//! use damas::Game;
//! let pos = Position::start();
//! assert_eq!(perft(&pos, 4), 1469);
//! let mut game = Draughts::new(pos);
//! game.play_text("11-15").unwrap();
//! println!("{}", game.position().diagram());
//! ```

mod bitboard;
mod book;
mod book_build;
mod capture_path;
mod captures;
mod color;
mod diagram;
mod error;
mod fen;
mod game;
mod interface;
mod movegen;
mod moves;
mod notation;
mod perft;
mod perft_two;
mod position;
mod rules;
mod search;
mod square;
pub mod tablebase;
mod tables;
pub mod tuning;
mod zobrist;

pub use bitboard::{BitIter, Bitboard};
pub use book::{Book, BookError, BookMove, PLAY_MARGIN};
pub use book_build::{build as build_book, BookSettings};
pub use color::{Color, ColoredPiece, PieceKind};
pub use error::{FenError, IllegalMoveError};
pub use game::{Draughts, DrawReason, GameStatus, WinReason, NO_PROGRESS_PLIES};
pub use moves::{Move, MoveList, MAX_MOVES};
pub(crate) use notation::fits_landings;
pub use notation::{fen_error_text, long_text, MoveParseError, Notation};
pub use perft::{divide, perft, perft_hashed, perft_keeping_duplicates, perft_parallel};
pub use position::Position;
pub use rules::{
    CaptureChoice, CapturePromotion, KingRange, Rules, Variant, VariantError, VariantParseError,
};
pub use search::{bench, bench_with, Engine, BENCH_DEPTH, TB_WIN};
pub use square::{Square, SquareParseError};

/// The start position in FEN.
pub const START_FEN: &str = "W:W1-12:B21-32";
