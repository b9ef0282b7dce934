//! The protocol on stdin/stdout.
//!
//! This thread only reads lines and hands them to the session; searches run
//! on the session's own thread, so `isready` and `stop` are answered at once.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use damas_protocol::command::MAX_LINE_LEN;
use damas_protocol::{Flow, Session};

use crate::lines::{read_line_bounded, Read};

/// Runs the engine until `quit` or the end of input.
pub fn run() -> Result<(), String> {
    let stdout = Arc::new(Mutex::new(io::stdout()));
    let out_handle = Arc::clone(&stdout);
    let mut session = Session::new(Arc::new(move |line: &str| {
        // A poisoned lock only means another writer panicked mid-line; the
        // stream itself is still usable.
        let mut out = out_handle.lock().unwrap_or_else(|e| e.into_inner());
        // A closed stdout is not worth a panic: the client has gone.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }));
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let read = read_line_bounded(&mut input, &mut buffer, MAX_LINE_LEN)
            .map_err(|err| format!("reading standard input: {err}"))?;
        let flow = match read {
            Read::End => break,
            Read::TooLong(len) => {
                session.handle_overlong_line(len);
                Flow::Continue
            }
            // Invalid UTF-8 becomes U+FFFD: the command is then refused
            // like any unknown word.
            Read::Line => session.handle_line(&String::from_utf8_lossy(&buffer)),
        };
        if flow == Flow::Quit {
            break;
        }
    }
    session.shutdown();
    Ok(())
}
