//! The PDN tokenizer over any byte stream: tags, move words and results,
//! with comments, variations, NAGs and `%` lines skipped. It keeps at most
//! a few dozen bytes of any word and a bounded tag, so its memory does not
//! depend on the input; invalid UTF-8 is kept as bytes, to be shown
//! escaped.

use std::io::Read;

use super::PdnError;

/// Bytes of the read buffer.
const BUFFER: usize = 64 * 1024;
/// Bytes of a word kept (the rest is counted, not stored): more than any
/// move text or result needs.
pub(super) const WORD_KEPT: usize = 64;
/// Longest tag name.
pub(super) const MAX_TAG_NAME: usize = 64;
/// Longest tag value, in bytes.
pub(super) const MAX_TAG_VALUE: usize = 1024;
/// Characters of a word or tag shown in an error before `…`.
pub(super) const SHOWN_CHARS: usize = 40;

/// One decoded character of the input, or one byte that is not UTF-8.
#[derive(Clone, Copy)]
struct Unit {
    ch: Option<char>,
    len: usize,
}

/// A word of the move text: its first [`WORD_KEPT`] bytes and its length.
pub(super) struct Word {
    pub(super) kept: Vec<u8>,
    pub(super) len: u64,
}

impl Word {
    /// The word as a move text when it can be one: ASCII without controls
    /// and at most [`SHOWN_CHARS`] long (no move text is longer).
    pub(super) fn as_move_text(&self) -> Option<&str> {
        let fits = self.len <= SHOWN_CHARS as u64 && self.kept.iter().all(|b| b.is_ascii_graphic());
        fits.then(|| std::str::from_utf8(&self.kept).ok()).flatten()
    }

    /// The word as shown in an error: cut and escaped.
    pub(super) fn shown(&self) -> String {
        shown(&self.kept, self.len > self.kept.len() as u64)
    }
}

/// `bytes` as shown in an error message: at most 40
/// characters, then `…` (also when `cut` says more followed); control
/// characters, `\` and bytes that are not UTF-8 escaped (`\0`, `\n`,
/// `\u{1b}`, `\xff`), so that a message is one printable line.
pub fn shown(bytes: &[u8], cut: bool) -> String {
    let mut out = String::new();
    let mut chars = 0;
    for chunk in bytes.utf8_chunks() {
        for ch in chunk.valid().chars() {
            if chars == SHOWN_CHARS {
                out.push('…');
                return out;
            }
            chars += 1;
            match ch {
                '\0' => out.push_str("\\0"),
                '\\' => out.push_str("\\\\"),
                ch if ch.is_control() => out.extend(ch.escape_default()),
                ch => out.push(ch),
            }
        }
        for byte in chunk.invalid() {
            if chars == SHOWN_CHARS {
                out.push('…');
                return out;
            }
            chars += 1;
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    if cut {
        out.push('…');
    }
    out
}

/// What the tokenizer reads.
pub(super) enum Token {
    Tag(String, String),
    Move(Word),
    Result(&'static str),
}

/// Result tokens of draughts PDN 3.0: chess-style, the 2-point forms and
/// `0-0` (both lose, or no result).
const RESULTS: [&str; 9] = [
    "1-0", "0-1", "1/2-1/2", "½-½", "2-0", "0-2", "1-1", "0-0", "*",
];

/// A tokenizer over a byte stream.
pub(super) struct Scanner<R> {
    reader: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    eof: bool,
    /// Bytes consumed so far.
    offset: u64,
    /// Where the last token returned began.
    token_offset: u64,
    /// The scanner reads nothing at or past this offset (the bound on a
    /// game that does not end).
    stop_at: u64,
    /// The bound was reached.
    stopped: bool,
    io_error: Option<String>,
    /// The bytes of the tag being read (its first [`WORD_KEPT`]), to show
    /// a malformed one.
    recording: Option<Vec<u8>>,
    line: usize,
    line_start: bool,
}

impl<R: Read> Scanner<R> {
    pub(super) fn new(reader: R) -> Self {
        let mut scanner = Scanner {
            reader,
            buf: vec![0; BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
            eof: false,
            offset: 0,
            token_offset: 0,
            stop_at: u64::MAX,
            stopped: false,
            io_error: None,
            recording: None,
            line: 1,
            line_start: true,
        };
        // A UTF-8 byte-order mark is no part of the text.
        if scanner.fill(3) >= 3
            && scanner.buf[scanner.start..scanner.start + 3] == [0xef, 0xbb, 0xbf]
        {
            scanner.consume(3);
        }
        scanner
    }

    /// Bytes consumed so far.
    pub(super) fn offset(&self) -> u64 {
        self.offset
    }

    /// Where the last token returned began.
    pub(super) fn token_offset(&self) -> u64 {
        self.token_offset
    }

    /// Reads nothing at or past `offset` from now on: the scanner then
    /// answers [`PdnError::NoEnd`].
    pub(super) fn stop_at(&mut self, offset: u64) {
        self.stop_at = offset;
    }

    /// Makes at least `want` bytes available unless the input ends first;
    /// returns how many are.
    fn fill(&mut self, want: usize) -> usize {
        while self.end - self.start < want && !self.eof {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            }
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.io_error = Some(e.to_string());
                    self.eof = true;
                }
            }
        }
        self.end - self.start
    }

    fn consume(&mut self, n: usize) {
        self.start += n;
        self.offset += n as u64;
    }

    fn peek_unit(&mut self) -> Option<Unit> {
        if self.offset >= self.stop_at {
            self.stopped = true;
            return None;
        }
        let available = self.fill(1);
        if available == 0 {
            return None;
        }
        let first = self.buf[self.start];
        let len = match first {
            0x00..=0x7f => {
                return Some(Unit {
                    ch: Some(char::from(first)),
                    len: 1,
                })
            }
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => 0,
        };
        let invalid = Unit { ch: None, len: 1 };
        if len == 0 || self.fill(len) < len {
            return Some(invalid);
        }
        match std::str::from_utf8(&self.buf[self.start..self.start + len]) {
            Ok(text) => Some(Unit {
                ch: text.chars().next(),
                len,
            }),
            Err(_) => Some(invalid),
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.peek_unit().map(|unit| unit.ch.unwrap_or('\u{fffd}'))
    }

    /// Consumes one unit; returns its character (U+FFFD for a byte that
    /// is not UTF-8) and appends its bytes to `keep` while it has room.
    fn bump_keeping(&mut self, keep: Option<(&mut Vec<u8>, usize)>) -> Option<char> {
        let unit = self.peek_unit()?;
        let bytes = &self.buf[self.start..self.start + unit.len];
        if let Some((kept, room)) = keep {
            if kept.len() + unit.len <= room {
                kept.extend_from_slice(bytes);
            }
        }
        if let Some(recording) = &mut self.recording {
            if recording.len() + unit.len <= WORD_KEPT {
                recording.extend_from_slice(bytes);
            }
        }
        self.consume(unit.len);
        let ch = unit.ch.unwrap_or('\u{fffd}');
        self.line_start = ch == '\n';
        if ch == '\n' {
            self.line += 1;
        }
        Some(ch)
    }

    fn bump(&mut self) -> Option<char> {
        self.bump_keeping(None)
    }

    fn skip_line(&mut self) {
        while let Some(ch) = self.bump() {
            if ch == '\n' {
                break;
            }
        }
    }

    /// What ended the input early: the bound, a read error, or `eof`.
    fn ended(&self, eof: PdnError) -> PdnError {
        if self.stopped {
            PdnError::NoEnd
        } else if let Some(error) = &self.io_error {
            PdnError::Read(error.clone())
        } else {
            eof
        }
    }

    /// Skips a `{...}` comment whose `{` was just read.
    fn skip_comment(&mut self, line: usize) -> Result<(), PdnError> {
        while let Some(ch) = self.bump() {
            if ch == '}' {
                return Ok(());
            }
        }
        Err(self.ended(PdnError::OpenComment(line)))
    }

    /// Skips a variation whose `(` was just read, nested ones included.
    fn skip_variation(&mut self, line: usize) -> Result<(), PdnError> {
        let mut depth = 1usize;
        while let Some(ch) = self.bump() {
            match ch {
                '{' => {
                    let at = self.line;
                    self.skip_comment(at)?
                }
                ';' => self.skip_line(),
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Err(self.ended(PdnError::OpenVariation(line)))
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    /// Reads a `[Name "value"]` tag whose `[` was just read. A malformed
    /// tag is skipped to its `]` or the end of its line.
    fn tag(&mut self, line: usize) -> Result<Token, PdnError> {
        self.recording = Some(Vec::new());
        let parsed = self.tag_parts();
        let why = match parsed {
            Ok(tag) => {
                self.recording = None;
                return Ok(tag);
            }
            Err(why) => why,
        };
        while let Some(ch) = self.peek() {
            if ch == '\n' {
                break;
            }
            self.bump();
            if ch == ']' {
                break;
            }
        }
        let read = self.recording.take().unwrap_or_default();
        if self.stopped {
            return Err(PdnError::NoEnd);
        }
        if let Some(error) = &self.io_error {
            return Err(PdnError::Read(error.clone()));
        }
        Err(PdnError::BadTag {
            line,
            text: shown(&read, read.len() >= WORD_KEPT),
            why,
        })
    }

    /// The name and value of a tag; on failure, why.
    fn tag_parts(&mut self) -> Result<Token, &'static str> {
        self.skip_spaces();
        let mut name = String::new();
        while let Some(ch) = self.peek().filter(|&ch| ch.is_alphanumeric() || ch == '_') {
            if name.len() >= MAX_TAG_NAME {
                return Err("name too long");
            }
            name.push(ch);
            self.bump();
        }
        self.skip_spaces();
        if name.is_empty() {
            return Err("no tag name");
        }
        if self.bump() != Some('"') {
            return Err("the name is not followed by a quoted value");
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err("the value is not closed"),
                Some('\\') => match self.bump() {
                    Some(ch @ ('"' | '\\')) => value.push(ch),
                    _ => return Err("'\\' escapes only '\"' and '\\'"),
                },
                Some('"') => break,
                Some(ch) => value.push(ch),
            }
            if value.len() > MAX_TAG_VALUE {
                return Err("value too long");
            }
        }
        self.skip_spaces();
        if self.bump() != Some(']') {
            return Err("no ']' after the value");
        }
        Ok(Token::Tag(name, value))
    }

    /// The next tag, move or result, with its line; `None` at the end of
    /// the input.
    pub(super) fn next_token(&mut self) -> Result<Option<(Token, usize)>, PdnError> {
        loop {
            let at_line_start = self.line_start;
            self.token_offset = self.offset;
            let Some(ch) = self.peek() else {
                if self.stopped {
                    return Err(PdnError::NoEnd);
                }
                return match &self.io_error {
                    Some(error) => Err(PdnError::Read(error.clone())),
                    None => Ok(None),
                };
            };
            let line = self.line;
            if ch.is_whitespace() {
                self.bump();
                continue;
            }
            if ch == '%' && at_line_start {
                self.skip_line();
                continue;
            }
            if !is_delimiter(ch) {
                let word = self.word();
                if self.stopped {
                    return Err(PdnError::NoEnd);
                }
                if let Some(token) = word_token(word) {
                    return Ok(Some((token, line)));
                }
                continue;
            }
            self.bump();
            match ch {
                '{' => self.skip_comment(line)?,
                ';' => self.skip_line(),
                '(' => self.skip_variation(line)?,
                ')' => return Err(PdnError::StrayParenthesis(line)),
                '[' => return self.tag(line).map(|tag| Some((tag, line))),
                '$' => {
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                    }
                }
                _ => {}
            }
        }
    }

    /// Reads a word (up to the next delimiter), keeping its first bytes.
    fn word(&mut self) -> Word {
        let mut kept = Vec::with_capacity(16);
        let start = self.offset;
        while self.peek().is_some_and(|c| !is_delimiter(c)) {
            self.bump_keeping(Some((&mut kept, WORD_KEPT)));
        }
        Word {
            kept,
            len: self.offset - start,
        }
    }
}

/// Characters that end a word of the move text.
fn is_delimiter(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, '{' | '}' | '(' | ')' | '[' | ']' | ';' | '$')
}

/// A word of the move text as a move or a result; `None` for a bare move
/// number or annotation.
fn word_token(mut word: Word) -> Option<Token> {
    if let Some(result) = RESULTS.iter().find(|result| {
        result.as_bytes() == word.kept.as_slice() && word.len == word.kept.len() as u64
    }) {
        return Some(Token::Result(result));
    }
    // A move number, alone (`12.`, `12...`) or glued to its move
    // (`12.11-15`).
    let digits = word.kept.iter().take_while(|b| b.is_ascii_digit()).count();
    if word.kept.get(digits) == Some(&b'.') {
        let dots = word.kept[digits..]
            .iter()
            .take_while(|&&b| b == b'.')
            .count();
        word.kept.drain(..digits + dots);
        word.len -= (digits + dots) as u64;
    }
    if word.len == word.kept.len() as u64 {
        while matches!(word.kept.last(), Some(b'!' | b'?')) {
            word.kept.pop();
            word.len -= 1;
        }
    }
    (word.len > 0).then_some(Token::Move(word))
}
