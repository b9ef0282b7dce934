//! The protocol on stdin/stdout.
//!
//! This thread only reads lines and hands them to the session; searches run
//! on the session's own thread, so `isready` and `stop` are answered at once.

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};

use damas_protocol::command::MAX_LINE_LEN;
use damas_protocol::{Flow, Session};

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
        let overlong = read_line_bounded(&mut input, &mut buffer)
            .map_err(|err| format!("reading standard input: {err}"))?;
        let Some(overlong) = overlong else {
            break;
        };
        let line = String::from_utf8_lossy(&buffer);
        let flow = if overlong {
            // Hand the session a line it will refuse as too long, without
            // keeping the whole of it in memory.
            session.handle_line(&"x".repeat(MAX_LINE_LEN + 1))
        } else {
            session.handle_line(line.trim_end_matches(['\r', '\n']))
        };
        if flow == Flow::Quit {
            break;
        }
    }
    session.shutdown();
    Ok(())
}

/// Reads one line into `buffer`, keeping at most [`MAX_LINE_LEN`] bytes of
/// it. Returns `None` at the end of input, otherwise whether the line was
/// longer than the limit.
fn read_line_bounded(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> io::Result<Option<bool>> {
    let mut overlong = false;
    let mut read_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok(read_any.then_some(overlong));
        }
        read_any = true;
        let (chunk, found_newline) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..=at], true),
            None => (available, false),
        };
        let room = MAX_LINE_LEN.saturating_sub(buffer.len());
        if chunk.len() > room {
            overlong = true;
        }
        buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len();
        input.consume(used);
        if found_newline {
            return Ok(Some(overlong));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_reader_splits_lines_and_flags_overlong_ones() {
        let long = "y".repeat(MAX_LINE_LEN + 10);
        let text = format!("isready\n{long}\nquit");
        let mut input = io::Cursor::new(text.into_bytes());
        let mut buffer = Vec::new();
        assert_eq!(
            read_line_bounded(&mut input, &mut buffer).ok(),
            Some(Some(false))
        );
        assert_eq!(buffer, b"isready\n");
        buffer.clear();
        assert_eq!(
            read_line_bounded(&mut input, &mut buffer).ok(),
            Some(Some(true))
        );
        assert_eq!(buffer.len(), MAX_LINE_LEN);
        buffer.clear();
        assert_eq!(
            read_line_bounded(&mut input, &mut buffer).ok(),
            Some(Some(false))
        );
        assert_eq!(buffer, b"quit");
        buffer.clear();
        assert_eq!(read_line_bounded(&mut input, &mut buffer).ok(), Some(None));
    }
}
