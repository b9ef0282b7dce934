//! # Damas
//!
//! Rules, move generation, perft and search for the two games that Spanish
//! speakers call *damas*:
//!
//! - [`draughts`]: draughts on the 32 dark squares of an 8×8 board, with
//!   `u32` bitboards, under the rules of a [`draughts::Variant`]: Spanish
//!   draughts (damas españolas). [`spanish`] names the same items.
//! - [`chinese`]: Chinese checkers (damas chinas) on the 121-point star for 2–6
//!   players, and the Japanese Diamond-game variant, with `u128` bitboards.
//!
//! Both games implement one interface, the [`Game`] trait (players, legal
//! moves, checked play and undo, move and position text, the outcome as
//! places for every player, the Zobrist hash), and one search interface,
//! [`Search`]. [`AnyGame`] and [`AnyEngine`] choose the game at run time:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use damas::chinese::Rules;
//! use damas::search::SearchLimits;
//! use damas::{AnyEngine, AnyGame, Game, GameSpec, Search};
//!
//! let mut engine = AnyEngine::new(1);
//! let limits = SearchLimits { depth: Some(2), ..SearchLimits::default() };
//! for spec in [GameSpec::default(), GameSpec::Chinese(Rules::for_players(3))] {
//!     let mut game = AnyGame::new(&spec);
//!     let result = engine.search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
//!     let best = result.best.expect("a legal move");
//!     let text = game.move_text(&best);
//!     game.play(best).unwrap();
//!     assert_eq!(game.to_move().map(|p| p.index()), Some(1), "{text}");
//! }
//! ```
//!
//! [`pdn`] reads Spanish draughts game records (PDN) and replays them.
//!
//! The crate does no I/O except reading and writing endgame-table files
//! ([`draughts::tablebase`]): the `damas-protocol` crate and the `damas` binary
//! put a text protocol on top. `docs/LIBRARY.md` in the repository walks
//! through the API.

// One audited exception: `huge_pages` asks the kernel for 2 MiB pages.
#![deny(unsafe_code)]
#![warn(missing_docs)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

mod any;
mod baseline;
mod bench;
mod bitset;
pub mod board;
pub mod ccp;
pub mod chinese;
pub mod draughts;
mod endgame;
mod game;
mod huge_pages;
pub mod options;
mod parallel;
pub mod pdn;
mod perft_table;
mod random;
mod reach;
pub mod record;
pub mod search;
pub mod spanish;

pub use any::{AnyEngine, AnyGame, AnyMove, GameSpec, RulesNote, SpecError};
pub use board::{
    Board, BoardShape, MoveAnatomy, MoveKind, Piece, PieceKind, PlayedTurn, Player,
    PlayerParseError, PlayerStatus, Point, PointInfo, TurnAction, MAX_PLAYERS,
};
pub use endgame::{EndgameTables, EndgameTablesError};
pub use game::{
    EndReason, Game, GameKind, GameKindParseError, IllegalMove, IllegalReason, Outcome, PlayError,
    PositionError, Search,
};
pub use perft_table::MAX_PERFT_HASH_MB;
pub use reach::{reach_position, same_position};
