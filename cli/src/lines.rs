//! Reading lines from a stream that may hold anything: bounded length,
//! `\n` or `\r\n` endings, bytes kept as bytes (callers decode them
//! lossily), so that no input can make a reader allocate without bound or
//! fail on invalid UTF-8.

use std::io::{self, BufRead};

/// What [`read_line_bounded`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// The end of input.
    End,
    /// A line, in the buffer without its line ending.
    Line,
    /// A line longer than the limit (without its line
    /// ending), of this length; the buffer holds only its start.
    TooLong(usize),
}

/// Reads one line into `buffer`, keeping at most `max` bytes of
/// it plus its line ending (`\n` or `\r\n`), which is then removed.
pub fn read_line_bounded(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    max: usize,
) -> io::Result<Read> {
    let keep = max.saturating_add(2);
    let mut total = 0usize;
    // The last two bytes read, for the line ending (the buffer may hold
    // only the start of a long line).
    let mut tail = [0u8; 2];
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        let at_end = available.is_empty();
        if at_end && total == 0 {
            return Ok(Read::End);
        }
        let (chunk, found_newline) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..=at], true),
            None => (available, false),
        };
        let room = keep.saturating_sub(buffer.len());
        buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
        for &byte in chunk.iter().rev().take(2).rev() {
            tail = [tail[1], byte];
        }
        total = total.saturating_add(chunk.len());
        let used = chunk.len();
        input.consume(used);
        if found_newline || at_end {
            let ending = match tail {
                [b'\r', b'\n'] if total >= 2 => 2,
                [_, b'\n'] => 1,
                _ => 0,
            };
            let len = total - ending;
            if len > max {
                return Ok(Read::TooLong(len));
            }
            buffer.truncate(len);
            return Ok(Read::Line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A limit like the protocol's, small enough for a quick test.
    const MAX: usize = 1 << 16;

    #[test]
    fn bounded_reader_splits_lines_and_flags_overlong_ones() {
        let exact = "x".repeat(MAX);
        let long = "y".repeat(MAX + 10);
        let text = format!("isready\r\n{exact}\n{long}\nquit");
        let mut input = io::Cursor::new(text.into_bytes());
        let mut buffer = Vec::new();
        let mut next = |buffer: &mut Vec<u8>| {
            buffer.clear();
            read_line_bounded(&mut input, buffer, MAX).ok()
        };
        assert_eq!(next(&mut buffer), Some(Read::Line));
        assert_eq!(buffer, b"isready");
        assert_eq!(next(&mut buffer), Some(Read::Line), "exactly the limit");
        assert_eq!(buffer.len(), MAX);
        assert_eq!(next(&mut buffer), Some(Read::TooLong(MAX + 10)));
        assert!(buffer.len() <= MAX + 2);
        assert_eq!(next(&mut buffer), Some(Read::Line));
        assert_eq!(buffer, b"quit");
        assert_eq!(next(&mut buffer), Some(Read::End));
    }
}
