//! The session: the thin front that reads lines, keeps the dialect the
//! client speaks and hands each command to that dialect's adapter, which
//! drives the engine host ([`crate::host`]).
//!
//! A session starts in UGI ([`crate::ugi`]); `ccp` switches it to CCP
//! ([`crate::ccp`]) and `ugi` or `uci` back. [`Session::handle_line`] never
//! waits for a search; every reply goes through the output callback, from
//! whichever thread produced it.

use damas::options::Options;
use damas::AnyGame;

use crate::command::{self, Command, CommandError};
use crate::host::Host;
use crate::{ccp, reply, ugi};

pub use crate::dialect::{Flow, Output};

/// The protocol the client speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UGI (and UCI spellings): the default.
    Ugi,
    /// JumpStar's CCP, after `ccp`: cells as CCP ids, CCERL rules.
    Ccp,
}

/// One engine session.
pub struct Session {
    host: Host,
    /// False until the first line: a byte-order mark may start it.
    started: bool,
    dialect: Dialect,
    out: Output,
}

impl Session {
    /// A session in the default state (Spanish draughts, start position)
    /// that sends its replies to `out`.
    pub fn new(out: Output) -> Session {
        Session {
            host: Host::new(ugi::sink(&out)),
            started: false,
            dialect: Dialect::Ugi,
            out,
        }
    }

    /// The current game.
    pub fn game(&self) -> &AnyGame {
        self.host.game()
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        self.host.settings()
    }

    /// The protocol the client speaks.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// True while a search thread is running.
    pub fn is_searching(&self) -> bool {
        self.host.is_searching()
    }

    fn send(&self, line: impl AsRef<str>) {
        (self.out)(line.as_ref());
    }

    /// Handles one input line. A UTF-8 byte-order mark before the first
    /// command is ignored.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.host.reap_finished();
        let line = if self.started {
            line
        } else {
            self.started = true;
            line.strip_prefix('\u{feff}').unwrap_or(line)
        };
        match command::parse(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.handle(command),
            // A `go` the parser refuses still ends in `bestmove`: the client
            // waits for one.
            Err(err) if line.split_whitespace().next() == Some("go") => {
                self.host.refuse_go(err);
                Flow::Continue
            }
            Err(err) => {
                self.send(reply::error(err));
                Flow::Continue
            }
        }
    }

    /// Answers a line the reader refused to keep because it has `len`
    /// bytes, more than [`command::MAX_LINE_LEN`]: the one error line.
    pub fn handle_overlong_line(&mut self, len: usize) {
        self.started = true;
        self.send(reply::error(CommandError::TooLong(len)));
    }

    /// Ends the session: stops and joins any search.
    pub fn shutdown(&mut self) {
        self.host.stop();
    }

    /// Speaks `dialect` from now on (a search already running finishes in
    /// the dialect it started in).
    fn switch(&mut self, dialect: Dialect) {
        if dialect != self.dialect {
            self.dialect = dialect;
            self.host.set_events(match dialect {
                Dialect::Ugi => ugi::sink(&self.out),
                Dialect::Ccp => ccp::sink(&self.out),
            });
        }
    }

    fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::Hello { uci } => {
                self.switch(Dialect::Ugi);
                for line in ugi::hello(&self.host, uci) {
                    self.send(line);
                }
                Flow::Continue
            }
            Command::Ccp => {
                if !self.host.refuse_if_busy() {
                    self.switch(Dialect::Ccp);
                    for line in ccp::hello(&mut self.host) {
                        self.send(line);
                    }
                }
                Flow::Continue
            }
            command => match self.dialect {
                Dialect::Ugi => ugi::handle(&mut self.host, command, &self.out),
                Dialect::Ccp => ccp::handle(&mut self.host, command, &self.out),
            },
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.host.stop();
    }
}
