//! What the referee and the protocol dialogues (ugi.rs, ccp.rs) share: the
//! [`Protocol`] trait each dialogue implements, the [`Turn`] it is asked to
//! answer and the [`TimeControl`] that limits it. This module imports none
//! of them.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use damas::AnyGame;

use super::process::{EngineFault, EngineProcess};

/// How each move is limited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock per player: base time and increment.
    Clock {
        /// Starting time.
        base: Duration,
        /// Added after each move.
        inc: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed depth per move.
    Depth(u32),
    /// A fixed node budget per move.
    Nodes(u64),
}

/// One turn as the referee asks for it: the game so far and the limits.
pub struct Turn<'a> {
    /// The position text the game started from (`None`: the start).
    pub start: Option<&'a str>,
    /// Every turn since, in the game's notation (`resign` and `pass`
    /// included).
    pub moves: &'a [String],
    /// The referee's game at this turn (for protocols that send a
    /// position rather than a move list).
    pub game: &'a AnyGame,
    /// How the move is limited.
    pub control: TimeControl,
    /// Every player's clock (zero without a clock).
    pub clocks: &'a [Duration],
    /// The seat to move.
    pub seat: usize,
}

/// The dialogue of one text protocol over an [`EngineProcess`].
pub trait Protocol: Send {
    /// From a fresh process to an engine ready for the first move:
    /// handshake, then the options (the game's, then the engine's own),
    /// then a new game. A refused option is [`EngineFault::Refused`] with
    /// the engine's line.
    fn start(
        &mut self,
        engine: &mut EngineProcess,
        game_options: &[(String, String)],
        own_options: &[(String, String)],
        interrupt: &AtomicBool,
    ) -> Result<(), EngineFault>;

    /// The engine's move for `turn`, as it wrote it, by `deadline`.
    fn best_move(
        &mut self,
        engine: &mut EngineProcess,
        turn: &Turn<'_>,
        deadline: Instant,
        interrupt: &AtomicBool,
    ) -> Result<String, EngineFault>;

    /// The line that asks the engine to exit.
    fn quit_line(&self) -> &'static str;
}
