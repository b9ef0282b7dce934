//! Chinese checkers (damas chinas) and the Japanese Diamond game.
//!
//! The star's 121 points are bits of a `u128` ([`Mask`]); a [`Position`]
//! holds the pieces of 1–6 players and generates moves with set-wise jump
//! chains; a [`Checkers`] adds the rules of finishing, ranking, resignation and
//! the limits, the move notation and the position text. [`Engine`] is the
//! search, kept across searches; [`solve_solitaire`] plans the one-player
//! transfer; [`bench()`] is the search's fixed benchmark.
//!
//! ```
//! use damas::chinese::{Checkers, Rules};
//! use damas::{Game, Player};
//! let mut game = Checkers::new(Rules::default());
//! assert_eq!(game.legal_moves().len(), 14);
//! game.play_text("e4-e5").unwrap();
//! assert_eq!(game.to_move(), Player::new(1));
//! ```

mod diagram;
mod error;
mod game;
mod geometry;
mod interface;
mod movegen;
mod moves;
mod notation;
mod perft;
mod perft_two;
mod position;
mod ranking;
mod record;
mod rules;
mod search;
mod text;
mod zobrist;

pub mod ccp;

/// Why a game ended: the game-neutral [`crate::EndReason`].
pub use crate::EndReason;
pub use error::{CheckersError, IllegalMoveError, TextError};
pub use game::Checkers;
pub use geometry::{Cell, CellParseError, Dir, Mask, MaskIter, Triangle, CELLS};
pub use moves::{Move, MoveList, MAX_MOVES};
pub use notation::{format_path, parse_path};
pub use perft::{divide, perft, perft_hashed, perft_parallel};
pub use position::Position;
pub use record::{PlayerState, Turn};
pub use rules::{seats, Rules, Variant};
pub use search::{bench, bench_with, solve_solitaire, Engine, SolitairePlan, BENCH_DEPTH};
pub use text::MAX_TEXT_NUMBER;
