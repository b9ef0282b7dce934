//! Writing to the terminal without panicking: a closed standard output
//! ends a tool quietly, a broken standard error is ignored.

use std::fmt;
use std::io::{self, Write};

/// Why a subcommand stopped.
#[derive(Debug)]
pub enum Failure {
    /// An error to report on stderr (exit status 1).
    Message(String),
    /// Standard output was closed (`damas perft | head -1`): the reader
    /// has what it wanted, so the tool stops quietly with status 0.
    StdoutClosed,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Message(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Failure::Message(message.to_string())
    }
}

/// What a failed write to standard output means.
pub fn stdout_error(err: &io::Error) -> Failure {
    if err.kind() == io::ErrorKind::BrokenPipe {
        Failure::StdoutClosed
    } else {
        Failure::Message(format!("writing standard output: {err}"))
    }
}

/// Writes formatted text to standard output and flushes it.
pub fn write_stdout(args: fmt::Arguments) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_fmt(args)
        .and_then(|()| out.flush())
        .map_err(|err| stdout_error(&err))
}

/// Writes to standard error, ignoring failure (a full or closed stderr is
/// no reason to stop or to panic).
pub fn write_stderr(args: fmt::Arguments) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args);
    let _ = err.flush();
}

/// `println!` that returns a [`Failure`] instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` that never panics.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::write_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {errln, outln};
