//! One engine seen from the referee: a process (process.rs, which keeps
//! the runner safe from it) and the text protocol it speaks, behind the
//! [`Protocol`] trait (wire.rs) so that another protocol plugs in beside
//! UGI without touching the process code.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::ccp::Ccp;
use super::process::{split_command, EngineFault, EngineProcess};
use super::ugi::Ugi;
use super::wire::{Protocol, Turn};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtocolKind {
    /// UGI (and UCI spellings), as docs/PROTOCOL.md describes.
    #[default]
    Ugi,
    /// JumpStar's CCP (two-player Chinese checkers, CCERL rules).
    Ccp,
}

impl ProtocolKind {
    fn dialogue(self) -> Box<dyn Protocol> {
        match self {
            ProtocolKind::Ugi => Box::new(Ugi),
            ProtocolKind::Ccp => Box::new(Ccp),
        }
    }

    /// The protocol named `name` (`ugi` or `ccp`, any case).
    pub fn parse(name: &str) -> Result<ProtocolKind, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "ugi" | "uci" => Ok(ProtocolKind::Ugi),
            "ccp" => Ok(ProtocolKind::Ccp),
            _ => Err(format!("--protocol '{name}': expected ugi or ccp")),
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
        protocol.start(&mut process, game_options, &spec.options, interrupt)?;
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
