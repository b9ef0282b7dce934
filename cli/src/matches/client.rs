//! One engine seen from the referee: a process (process.rs, which keeps
//! the runner safe from it) and the text protocol it speaks, behind the
//! [`Protocol`] trait so that another protocol plugs in beside UGI
//! without touching the process code.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use damas::AnyGame;

use super::process::{split_command, EngineFault, EngineProcess};
use super::ugi::Ugi;

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

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtocolKind {
    /// UGI (and UCI spellings), as docs/PROTOCOL.md describes.
    #[default]
    Ugi,
}

impl ProtocolKind {
    fn dialogue(self) -> Box<dyn Protocol> {
        match self {
            ProtocolKind::Ugi => Box::new(Ugi),
        }
    }
}

/// What starts an engine: a command line and the options to set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name.
    pub name: String,
    /// Command line, split as a shell would (no shell runs).
    pub command: String,
    /// `Name=Value` options sent after the game options.
    pub options: Vec<(String, String)>,
    /// The protocol it speaks.
    pub protocol: ProtocolKind,
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
    #[expect(
        dead_code,
        reason = "UGI sends the move list; a position protocol reads this"
    )]
    pub game: &'a AnyGame,
    /// How the move is limited.
    pub control: TimeControl,
    /// Every player's clock (zero without a clock).
    pub clocks: &'a [Duration],
    /// The seat to move.
    #[expect(
        dead_code,
        reason = "UGI names no seat; a two-colour protocol reads this"
    )]
    pub seat: usize,
}

/// The dialogue of one text protocol over an [`EngineProcess`].
pub trait Protocol: Send {
    /// From a fresh process to an engine ready for the first move:
    /// handshake, then the options (game options first), then a new game.
    /// A refused option is [`EngineFault::Refused`] with the engine's line.
    fn start(
        &mut self,
        engine: &mut EngineProcess,
        options: &[(String, String)],
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

/// A running engine: its process and its protocol.
pub struct EngineClient {
    process: EngineProcess,
    protocol: Box<dyn Protocol>,
}

impl EngineClient {
    /// Starts the engine and makes it ready: `game_options` first, then
    /// the engine's own.
    pub fn start(
        spec: &EngineSpec,
        game_options: &[(String, String)],
        interrupt: &AtomicBool,
    ) -> Result<Self, EngineFault> {
        let words = split_command(&spec.command).map_err(EngineFault::Crashed)?;
        let mut process = EngineProcess::spawn(&words)?;
        let mut protocol = spec.protocol.dialogue();
        let options: Vec<(String, String)> =
            game_options.iter().chain(&spec.options).cloned().collect();
        protocol.start(&mut process, &options, interrupt)?;
        Ok(EngineClient { process, protocol })
    }

    /// The engine's move for `turn` and the time it took.
    pub fn best_move(
        &mut self,
        turn: &Turn<'_>,
        limit: Duration,
        interrupt: &AtomicBool,
    ) -> Result<(String, Duration), EngineFault> {
        let start = Instant::now();
        let mv = self
            .protocol
            .best_move(&mut self.process, turn, start + limit, interrupt)?;
        Ok((mv, start.elapsed()))
    }
}

impl Drop for EngineClient {
    fn drop(&mut self) {
        self.process.close(Some(self.protocol.quit_line()));
    }
}
