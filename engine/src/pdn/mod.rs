//! Reading Spanish draughts game records in PDN (Portable Draughts
//! Notation, the PDN 3.0 style).
//!
//! [`PdnReader`] reads games one at a time from any byte stream, in memory
//! bounded by a constant plus one game whatever the input (see
//! [`MAX_GAME_BYTES`]); [`read_games`] reads a whole text. A game is its
//! tag pairs (`[FEN "..."]`, `[GameType "24"]`, `[Result "1-0"]`, ...),
//! its moves and its result token. Move numbers (`1.`, `1...`,
//! `12.11-15`), comments (`{...}` and `; ...` to the end of the line),
//! variations (`(...)`, nested), NAGs (`$3`), move suffixes (`!`, `?`),
//! `%` escape lines and a UTF-8 byte-order mark are skipped; moves and
//! games may be broken across lines anywhere between words. A malformed
//! game (a bad tag, a stray `)`, too long) fails alone: the reader goes on
//! with the next. [`PdnGame::replay`] then plays the moves with the rules
//! and names the first one that is not legal.
//!
//! ```
//! use damas::pdn::read_games;
//! use damas::Game;
//!
//! let text = "[Event \"club\"]\n[Result \"1-0\"]\n\n\
//!             1. 11-14 {a classic} 22-19 2. 10-13 (2. 9-13 $2) 19x10 1-0\n\n\
//!             [FEN \"B:W18,K3:BK30,22\"]\n1... 22x13 *\n";
//! let games = read_games(text).unwrap();
//! assert_eq!(games.len(), 2);
//! assert_eq!(games[0].tag("Result"), Some("1-0"));
//! assert_eq!(games[0].moves(), ["11-14", "22-19", "10-13", "19x10"]);
//! assert_eq!(games[0].result(), Some("1-0"));
//! let game = games[1].replay().unwrap();
//! assert_eq!(game.position_text(), "W:WK3:B13,K30");
//! ```

mod capture;
mod scan;

use std::io::Read;

use thiserror::Error;

use crate::game::{Game, PlayError};
use crate::spanish::{Draughts, FenError, Notation, Position, Rules, Variant};
use scan::{Scanner, Token};

pub use scan::shown;

/// Most bytes of text one game may take, from the end of the game before
/// it (or the start of the input) to its result or the next game's tags:
/// a longer game is refused as too long and skipped to its end.
pub const MAX_GAME_BYTES: u64 = 16 << 20;

/// When a game too long has not ended this many bytes after its start,
/// the input is not PDN (`/dev/zero`, a binary file): reading stops.
pub const MAX_SKIP_BYTES: u64 = 4 * MAX_GAME_BYTES;

/// Most moves of one game: no game of Spanish draughts is longer under the
/// 80-ply rule (at most 23 captures and 168 man moves reset its count, and
/// at most 79 king moves may follow each), so a longer one is refused.
pub const MAX_GAME_MOVES: usize = 20_000;

/// Longest `FEN` tag read: a position of 24 kings takes about 100 bytes.
const MAX_FEN_BYTES: usize = 160;

/// Most tag pairs of one game.
pub const MAX_GAME_TAGS: usize = 100;

/// One game of a PDN file: its tags, its moves as written (numbers,
/// comments and variations removed) and its result token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
    move_lines: Vec<usize>,
    /// The ply (0-based) of the first word that cannot be a move (not
    /// ASCII, a control character, too long); it is kept shown, escaped.
    first_non_move: Option<usize>,
    result: Option<String>,
    line: usize,
}

impl PdnGame {
    /// The tag pairs in file order.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of a tag (names compare case-insensitively; the first
    /// one wins if a tag is repeated).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The moves of the main line, as written (a word that cannot be a
    /// move, as [`shown`]).
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The result token that ended the move text (`1-0`, `0-1`,
    /// `1/2-1/2`, `2-0`, `1-1`, `0-2`, `0-0` or `*`), if there was one.
    pub fn result(&self) -> Option<&str> {
        self.result.as_deref()
    }

    /// The line (1-based) where the game starts in the file.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Plays the game with the rules of its `GameType` tag (Spanish
    /// draughts without one; [`game_type`]: `24`, `28`, `26`, `25`, alone or with
    /// its board fields) from its `FEN` tag (or the start position), both
    /// in that variant's notation, and returns it. Any other `GameType`,
    /// or a variant not playable yet, is refused.
    ///
    /// A move is read in the library's notation (`11-15`, `15x24`, the long
    /// form `15x24x19x27` with the captured squares); failing that, a
    /// capture written as its landing squares (`9x18x27`, each hop's
    /// square in turn) is accepted when exactly one legal capture fits,
    /// and failing that the move with `-` and `x` swapped (`13-22` for the
    /// capture `13x22`).
    ///
    /// # Errors
    ///
    /// [`ReplayError::GameType`] when the `GameType` tag names another game;
    /// [`ReplayError::FenTooLong`] or [`ReplayError::Fen`] for a `FEN` tag that
    /// is no position; [`ReplayError::Move`] for the first move that is not
    /// legal where it is played, with its ply, line and the rules' reason.
    pub fn replay(&self) -> Result<Draughts, ReplayError> {
        let rules = match self.tag("GameType") {
            None => Rules::default(),
            Some(kind) => kind
                .split(',')
                .next()
                .and_then(|number| number.trim().parse::<u32>().ok())
                .and_then(variant_of_game_type)
                .and_then(|variant| Rules::new(variant).ok())
                .ok_or_else(|| ReplayError::GameType(shown(kind.as_bytes(), false)))?,
        };
        let start = Position::start().with_rules(rules);
        let mut game = match self.tag("FEN") {
            Some(fen) if fen.len() > MAX_FEN_BYTES => {
                return Err(ReplayError::FenTooLong(fen.len()))
            }
            Some(fen) => {
                let notation = Notation::of(rules.variant());
                let start = Position::from_fen_in(fen, notation).map_err(ReplayError::Fen)?;
                Draughts::new(start.with_rules(rules))
            }
            None => Draughts::new(start),
        };
        for (ply, (text, &line)) in self.moves.iter().zip(&self.move_lines).enumerate() {
            let played = if self.first_non_move == Some(ply) {
                Err(PlayError::Notation("not a move".into()))
            } else {
                play_written(&mut game, text)
            };
            played.map_err(|error| ReplayError::Move {
                ply: ply + 1,
                line,
                text: text.clone(),
                error,
            })?;
        }
        Ok(game)
    }
}

/// Why a game (or the rest of the input) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PdnError {
    /// A `{` comment that never ends.
    #[error("line {0}: comment not closed")]
    OpenComment(usize),
    /// A `(` variation that never ends.
    #[error("line {0}: variation not closed")]
    OpenVariation(usize),
    /// A `)` with no variation open.
    #[error("line {0}: ')' closes no variation")]
    StrayParenthesis(usize),
    /// A tag that is not `[Name "value"]` (a name of letters, digits and
    /// `_`; `\` escapes only `"` and `\` in the value).
    #[error("line {line}: malformed tag '{text}': {why}")]
    BadTag {
        /// Where it starts.
        line: usize,
        /// What was read of it, as [`shown`].
        text: String,
        /// What is wrong.
        why: &'static str,
    },
    /// The game takes more than [`MAX_GAME_BYTES`] of text.
    #[error("longer than {} MiB of text, skipped", MAX_GAME_BYTES >> 20)]
    TooLong,
    /// The game has more than [`MAX_GAME_MOVES`] moves.
    #[error("more than {MAX_GAME_MOVES} moves, skipped")]
    TooManyMoves,
    /// The game has more than [`MAX_GAME_TAGS`] tags.
    #[error("more than {MAX_GAME_TAGS} tags, skipped")]
    TooManyTags,
    /// No game ended within [`MAX_SKIP_BYTES`]: the input is not PDN and
    /// the rest of it is not read.
    #[error("no end of game within {} MiB of text; the rest is not read", MAX_SKIP_BYTES >> 20)]
    NoEnd,
    /// The input could not be read; the rest of it is not read.
    #[error("read error: {0}")]
    Read(String),
}

impl PdnError {
    /// Whether reading stops after this error (the input ended or cannot
    /// be trusted to hold games); after any other, the next game is read.
    pub fn ends_input(&self) -> bool {
        matches!(
            self,
            PdnError::OpenComment(_)
                | PdnError::OpenVariation(_)
                | PdnError::NoEnd
                | PdnError::Read(_)
        )
    }
}

/// A game that could not be read, with the line where it starts.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{error}")]
pub struct UnreadGame {
    /// The line (1-based) where the game starts.
    pub line: usize,
    /// What is wrong (the first fault of the game).
    pub error: PdnError,
}

/// The PDN `GameType` number of a draughts variant, as the FMJD's PDN
/// standard numbers them: 24 Spanish, 28 Portuguese (the Spanish board and
/// numbering: `28,W,8,8,N1,1`), 26 Brazilian and 25 Russian draughts
/// (algebraic squares, a1 at White's lower left: `A0`).
///
/// ```
/// use damas::pdn::{game_type, variant_of_game_type};
/// use damas::spanish::Variant;
/// assert_eq!(game_type(Variant::Brazilian), 26);
/// assert_eq!(variant_of_game_type(28), Some(Variant::Portuguese));
/// assert_eq!(variant_of_game_type(20), None); // 10x10 draughts
/// ```
pub fn game_type(variant: Variant) -> u32 {
    match variant {
        Variant::Spanish => 24,
        Variant::Russian => 25,
        Variant::Brazilian => 26,
        Variant::Portuguese => 28,
    }
}

/// The draughts variant of a PDN `GameType` number, if it is one of
/// [`Variant::ALL`] ([`game_type`]).
pub fn variant_of_game_type(number: u32) -> Option<Variant> {
    Variant::ALL.into_iter().find(|&v| game_type(v) == number)
}

/// Why a game did not replay.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The `GameType` tag names no draughts variant the library plays
    /// ([`game_type`]).
    #[error("GameType \"{0}\" is no draughts variant played here (24 Spanish, 28 Portuguese, 26 Brazilian, 25 Russian)")]
    GameType(String),
    /// The `FEN` tag is not a valid position.
    #[error("FEN tag: {0}")]
    Fen(FenError),
    /// The `FEN` tag is longer than any position's (its length in bytes).
    #[error("FEN tag: {0} bytes, longer than any position's")]
    FenTooLong(usize),
    /// A move that is not legal (or not a move) where it is played.
    #[error("ply {ply} (line {line}): '{text}': {}", reason(text, error))]
    Move {
        /// 1-based ply from the game's start position.
        ply: usize,
        /// Line of the move in the file.
        line: usize,
        /// The move as written (cut and escaped if it cannot be a move).
        text: String,
        /// What the rules say.
        error: PlayError,
    },
}

/// What the rules say of the move `text`, without repeating it: the rules'
/// messages quote the move (`illegal move '1-5'`), which the error has
/// already named.
fn reason(text: &str, error: &PlayError) -> String {
    let message = error.to_string();
    let quoted = format!("'{text}'");
    let said = [
        format!(" in move {quoted}"),
        format!(" {quoted}"),
        quoted.clone(),
    ];
    for form in &said {
        if let Some(at) = message.find(form.as_str()) {
            let rest = &message[at + form.len()..];
            let rest = rest.strip_prefix(": ").unwrap_or(rest);
            let head = message[..at].trim_end();
            return match (head.is_empty(), rest.is_empty()) {
                (true, _) => rest.to_string(),
                (false, true) => head.to_string(),
                (false, false) => format!("{head}: {rest}"),
            };
        }
    }
    message
}

/// Reads PDN games one at a time from a byte stream (a file, a pipe, a
/// device), keeping only the game being read: its memory is bounded by a
/// constant plus one game (tags, and moves of at most a few dozen bytes
/// each), whatever the input. Each item is a game or why it could not be
/// read; after an error that [ends the input](PdnError::ends_input) the
/// iteration ends.
///
/// ```
/// use damas::pdn::{PdnError, PdnReader};
/// let text = "\u{feff}[Event \"a\"] 1. 11-15 0-0\n[Bad-name \"x\"] 1. 9-13 *\n1. 10-14 *";
/// let games: Vec<_> = PdnReader::new(text.as_bytes()).collect();
/// assert_eq!(games.len(), 3);
/// assert_eq!(games[0].as_ref().unwrap().result(), Some("0-0"));
/// assert!(matches!(&games[1], Err(e) if matches!(e.error, PdnError::BadTag { line: 2, .. })));
/// assert_eq!(games[2].as_ref().unwrap().moves(), ["10-14"]);
/// ```
pub struct PdnReader<R> {
    scanner: Scanner<R>,
    /// A tag read that begins the next game.
    pending: Option<(Token, usize)>,
    done: bool,
}

impl<R: Read> PdnReader<R> {
    /// A reader of the games in `input` (read through its own buffer).
    pub fn new(input: R) -> Self {
        PdnReader {
            scanner: Scanner::new(input),
            pending: None,
            done: false,
        }
    }
}

impl<R: Read> Iterator for PdnReader<R> {
    type Item = Result<PdnGame, UnreadGame>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let origin = match &self.pending {
            Some(_) => self.scanner.token_offset(),
            None => self.scanner.offset(),
        };
        self.scanner.stop_at(origin.saturating_add(MAX_SKIP_BYTES));
        let mut game: Option<PdnGame> = None;
        let mut fault: Option<PdnError> = None;
        let mut moves_seen = 0usize;
        loop {
            let next = match self.pending.take() {
                Some(token) => Ok(Some(token)),
                None => self.scanner.next_token(),
            };
            let (token, line) = match next {
                Ok(Some(read)) => read,
                Ok(None) => {
                    self.done = true;
                    return finish(game, fault);
                }
                Err(error) => {
                    let line = game
                        .as_ref()
                        .map_or_else(|| error_line(&error).unwrap_or(1), |game| game.line);
                    if error.ends_input() {
                        self.done = true;
                        return Some(Err(UnreadGame { line, error }));
                    }
                    game.get_or_insert_with(|| PdnGame {
                        line,
                        ..PdnGame::default()
                    });
                    fault.get_or_insert(error);
                    continue;
                }
            };
            if self.scanner.offset() - origin > MAX_GAME_BYTES {
                fault.get_or_insert(PdnError::TooLong);
            }
            if matches!(token, Token::Tag(..)) && moves_seen > 0 {
                self.pending = Some((token, line));
                return finish(game, fault);
            }
            let current = game.get_or_insert_with(|| PdnGame {
                line,
                ..PdnGame::default()
            });
            match token {
                Token::Tag(name, value) => {
                    if current.tags.len() == MAX_GAME_TAGS {
                        fault.get_or_insert(PdnError::TooManyTags);
                    }
                    if fault.is_none() {
                        current.tags.push((name, value));
                    }
                }
                Token::Move(word) => {
                    moves_seen += 1;
                    if current.moves.len() == MAX_GAME_MOVES {
                        fault.get_or_insert(PdnError::TooManyMoves);
                    }
                    if fault.is_none() {
                        let text = match word.as_move_text() {
                            Some(text) => text.to_string(),
                            None => {
                                current.first_non_move.get_or_insert(current.moves.len());
                                word.shown()
                            }
                        };
                        current.moves.push(text);
                        current.move_lines.push(line);
                    }
                }
                Token::Result(result) => {
                    current.result = Some(result.to_string());
                    return finish(game, fault);
                }
            }
        }
    }
}

/// The game read, or its first fault.
fn finish(game: Option<PdnGame>, fault: Option<PdnError>) -> Option<Result<PdnGame, UnreadGame>> {
    let game = game?;
    Some(match fault {
        Some(error) => Err(UnreadGame {
            line: game.line,
            error,
        }),
        None => Ok(game),
    })
}

/// The line an error names, if any.
fn error_line(error: &PdnError) -> Option<usize> {
    match error {
        PdnError::OpenComment(line)
        | PdnError::OpenVariation(line)
        | PdnError::StrayParenthesis(line)
        | PdnError::BadTag { line, .. } => Some(*line),
        _ => None,
    }
}

/// Splits a PDN text into its games. Text between games that is not a
/// game (blank lines, comments) is skipped; a game ends at its result
/// token or where the next game's tags begin. The first game that cannot
/// be read is the error (see [`PdnReader`] to read past it).
///
/// # Errors
///
/// The [`PdnError`] of the first game that cannot be read: a comment or
/// variation that never ends, a malformed tag, a game over the size, move
/// or tag limits, or input with no game end in reach.
pub fn read_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    PdnReader::new(text.as_bytes())
        .map(|game| game.map_err(|e| e.error))
        .collect()
}

/// Plays one move as written: the library's notation, or a capture given
/// by its landing squares; failing both, the same with the other
/// separator (a capture written `13-22`, a quiet move `9x13`), as some
/// programs write them.
fn play_written(game: &mut Draughts, text: &str) -> Result<(), PlayError> {
    let read = |text: &str| {
        game.parse_move(text)
            .or_else(|error| capture::by_landings(game, text).ok_or(error))
    };
    let mv = match read(text) {
        Ok(mv) => mv,
        Err(error) => {
            let swapped: String = text
                .chars()
                .map(|c| match c {
                    '-' => 'x',
                    'x' | 'X' => '-',
                    other => other,
                })
                .collect();
            read(&swapped).map_err(|_| error)?
        }
    };
    game.play(mv)
}

#[cfg(test)]
mod tests;
