//! # Damas
//!
//! Rules, move generation, perft and search for the two games that Spanish
//! speakers call *damas*:
//!
//! - [`spanish`]: Spanish draughts (damas españolas) on the 32 dark squares of
//!   an 8×8 board, with `u32` bitboards.
//! - [`chinese`]: Chinese checkers (damas chinas) on the 121-point star for 2–6
//!   players, and the Japanese Diamond-game variant, with `u128` bitboards.
//!
//! The crate does no I/O: the `damas-protocol` crate and the `damas` binary
//! put a text protocol on top.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod any;
pub mod chinese;
mod game;
mod random;
pub mod search;
pub mod spanish;

pub use any::{AnyEngine, AnyGame, AnyMove, GameSpec};
pub use game::{
    EndReason, Game, GameKind, Outcome, PlayError, Player, PlayerParseError, PositionError, Search,
    MAX_PLAYERS,
};
