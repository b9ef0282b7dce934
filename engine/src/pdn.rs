//! Reading Spanish draughts game records in PDN (Portable Draughts
//! Notation, the PDN 3.0 style).
//!
//! [`read_games`] splits a file into games: the tag pairs (`[FEN "..."]`,
//! `[GameType "24"]`, `[Result "1-0"]`, ...), the moves and the result
//! token. Move numbers (`1.`, `1...`, `12.11-15`), comments (`{...}` and
//! `; ...` to the end of the line), variations (`(...)`, nested), NAGs
//! (`$3`), move suffixes (`!`, `?`) and `%` escape lines are skipped; moves
//! and games may be broken across lines anywhere between words.
//! [`PdnGame::replay`] then plays the moves with the rules and names the
//! first one that is not legal.
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

use thiserror::Error;

use crate::game::{Game, PlayError};
use crate::spanish::{self, Draughts, FenError, Square};

/// One game of a PDN file: its tags, its moves as written (numbers,
/// comments and variations removed) and its result token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
    move_lines: Vec<usize>,
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

    /// The moves of the main line, as written.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The result token that ended the move text (`1-0`, `0-1`,
    /// `1/2-1/2`, `2-0`, `1-1`, `0-2` or `*`), if there was one.
    pub fn result(&self) -> Option<&str> {
        self.result.as_deref()
    }

    /// The line (1-based) where the game starts in the file.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Plays the game with the rules from its `FEN` tag (or the start
    /// position) and returns it. A `GameType` other than Spanish draughts
    /// (`24`, alone or with its board fields) is refused.
    ///
    /// A move is read in the library's notation (`11-15`, `15x24`, the long
    /// form `15x24x19x27` with the captured squares); failing that, a
    /// capture written as its landing squares (`9x18x27`, each hop's
    /// square in turn) is accepted when exactly one legal capture fits,
    /// and failing that the move with `-` and `x` swapped (`13-22` for the
    /// capture `13x22`).
    pub fn replay(&self) -> Result<Draughts, ReplayError> {
        if let Some(kind) = self.tag("GameType") {
            let number = kind.split(',').next().unwrap_or("").trim();
            if number != "24" {
                return Err(ReplayError::GameType(kind.to_string()));
            }
        }
        let mut game = match self.tag("FEN") {
            Some(fen) => fen.parse::<Draughts>().map_err(ReplayError::Fen)?,
            None => Draughts::default(),
        };
        for (ply, (text, &line)) in self.moves.iter().zip(&self.move_lines).enumerate() {
            play_written(&mut game, text).map_err(|error| ReplayError::Move {
                ply: ply + 1,
                line,
                text: text.clone(),
                error,
            })?;
        }
        Ok(game)
    }
}

/// A PDN text that cannot be split into games.
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
    /// A tag that is not `[Name "value"]`.
    #[error("line {line}: malformed tag: {text}")]
    BadTag {
        /// Where it starts.
        line: usize,
        /// What was read of it.
        text: String,
    },
}

/// Why a game did not replay.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The `GameType` tag names another game.
    #[error("GameType \"{0}\" is not Spanish draughts (24)")]
    GameType(String),
    /// The `FEN` tag is not a valid position.
    #[error("FEN tag: {0}")]
    Fen(FenError),
    /// A move that is not legal (or not a move) where it is played.
    #[error("ply {ply} (line {line}): '{text}': {error}")]
    Move {
        /// 1-based ply from the game's start position.
        ply: usize,
        /// Line of the move in the file.
        line: usize,
        /// The move as written.
        text: String,
        /// What the rules say.
        error: PlayError,
    },
}

/// Splits a PDN text into its games. Text between games that is not a
/// game (blank lines, comments) is skipped; a game ends at its result
/// token or where the next game's tags begin.
pub fn read_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut games = Vec::new();
    let mut current: Option<PdnGame> = None;
    let mut scanner = Scanner::new(text);
    while let Some((token, line)) = scanner.next_token()? {
        match token {
            Token::Tag(name, value) => {
                let in_moves = current.as_ref().is_some_and(|game| !game.moves.is_empty());
                if in_moves {
                    games.extend(current.take());
                }
                let game = current.get_or_insert_with(|| PdnGame {
                    line,
                    ..PdnGame::default()
                });
                game.tags.push((name, value));
            }
            Token::Move(text) => {
                let game = current.get_or_insert_with(|| PdnGame {
                    line,
                    ..PdnGame::default()
                });
                game.moves.push(text);
                game.move_lines.push(line);
            }
            Token::Result(result) => {
                let mut game = current.take().unwrap_or(PdnGame {
                    line,
                    ..PdnGame::default()
                });
                game.result = Some(result);
                games.push(game);
            }
        }
    }
    games.extend(current);
    Ok(games)
}

/// Plays one move as written: the library's notation, or a capture given
/// by its landing squares; failing both, the same with the other
/// separator (a capture written `13-22`, a quiet move `9x13`), as some
/// programs write them.
fn play_written(game: &mut Draughts, text: &str) -> Result<(), PlayError> {
    let read = |text: &str| {
        game.parse_move(text)
            .or_else(|error| by_landings(game, text).ok_or(error))
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

/// The one legal capture whose hops land on the squares of `text`
/// (`from x l1 x l2 ... x to`), if exactly one fits.
fn by_landings(game: &Draughts, text: &str) -> Option<spanish::Move> {
    let squares: Vec<Square> = text
        .split('x')
        .map(|part| part.trim().parse::<u8>().ok().and_then(Square::new))
        .collect::<Option<_>>()?;
    if squares.len() < 3 {
        return None;
    }
    let mut fitting = game
        .legal_moves()
        .into_iter()
        .filter(|mv| fits_landings(*mv, &squares));
    let first = fitting.next()?;
    fitting.next().is_none().then_some(first)
}

/// Whether `mv` hops along `landings`: each hop runs along one diagonal
/// over exactly one of the captured pieces, and every captured piece is
/// jumped once.
fn fits_landings(mv: spanish::Move, landings: &[Square]) -> bool {
    let captured = mv.captured();
    if landings.first() != Some(&mv.from())
        || landings.last() != Some(&mv.to())
        || captured.count() as usize != landings.len() - 1
    {
        return false;
    }
    let mut jumped = spanish::Bitboard::EMPTY;
    for hop in landings.windows(2) {
        let between = squares_between(hop[0], hop[1]);
        let Some(between) = between else {
            return false;
        };
        let taken: Vec<Square> = between
            .into_iter()
            .filter(|sq| captured.contains(*sq))
            .collect();
        let [piece] = taken[..] else {
            return false;
        };
        if jumped.contains(piece) {
            return false;
        }
        jumped.insert(piece);
    }
    jumped == captured
}

/// The squares strictly between two squares of one diagonal, or `None`
/// if they share no diagonal.
fn squares_between(a: Square, b: Square) -> Option<Vec<Square>> {
    let (df, dr) = (
        i16::from(b.file()) - i16::from(a.file()),
        i16::from(b.rank()) - i16::from(a.rank()),
    );
    if df == 0 || df.abs() != dr.abs() {
        return None;
    }
    let steps = df.abs();
    let (sf, sr) = (df.signum(), dr.signum());
    (1..steps)
        .map(|k| {
            let file = u8::try_from(i16::from(a.file()) + sf * k).ok()?;
            let rank = u8::try_from(i16::from(a.rank()) + sr * k).ok()?;
            Square::from_coords(file, rank)
        })
        .collect()
}

enum Token {
    Tag(String, String),
    Move(String),
    Result(String),
}

/// Result tokens of draughts PDN: chess-style and the 2-point forms.
const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "½-½", "2-0", "0-2", "1-1", "*"];

/// Characters that end a word of the move text.
fn is_delimiter(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, '{' | '}' | '(' | ')' | '[' | ']' | ';' | '$')
}

struct Scanner<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    line_start: bool,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            text,
            at: 0,
            line: 1,
            line_start: true,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let ch = self.peek()?;
        self.at += ch.len_utf8();
        self.line_start = ch == '\n';
        if ch == '\n' {
            self.line += 1;
        }
        Some(ch)
    }

    fn skip_line(&mut self) {
        while let Some(ch) = self.bump() {
            if ch == '\n' {
                break;
            }
        }
    }

    /// Skips a `{...}` comment whose `{` was just read.
    fn skip_comment(&mut self, line: usize) -> Result<(), PdnError> {
        while let Some(ch) = self.bump() {
            if ch == '}' {
                return Ok(());
            }
        }
        Err(PdnError::OpenComment(line))
    }

    /// Skips a variation whose `(` was just read, nested ones included.
    fn skip_variation(&mut self, line: usize) -> Result<(), PdnError> {
        let mut depth = 1usize;
        while let Some(ch) = self.bump() {
            match ch {
                '{' => self.skip_comment(self.line)?,
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
        Err(PdnError::OpenVariation(line))
    }

    /// Reads a `[Name "value"]` tag whose `[` was just read.
    fn tag(&mut self, line: usize) -> Result<Token, PdnError> {
        let start = self.at;
        let bad = |scanner: &Self| PdnError::BadTag {
            line,
            text: scanner.text[start..scanner.at]
                .chars()
                .take(60)
                .collect::<String>(),
        };
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
        let name_start = self.at;
        while self
            .peek()
            .is_some_and(|ch| ch.is_alphanumeric() || ch == '_')
        {
            self.bump();
        }
        let name = self.text[name_start..self.at].to_string();
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
        if name.is_empty() || self.bump() != Some('"') {
            return Err(bad(self));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err(bad(self)),
                Some('\\') => match self.bump() {
                    Some(ch @ ('"' | '\\')) => value.push(ch),
                    _ => return Err(bad(self)),
                },
                Some('"') => break,
                Some(ch) => value.push(ch),
            }
        }
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
        if self.bump() != Some(']') {
            return Err(bad(self));
        }
        Ok(Token::Tag(name, value))
    }

    /// The next tag, move or result, with its line.
    fn next_token(&mut self) -> Result<Option<(Token, usize)>, PdnError> {
        loop {
            let at_line_start = self.line_start;
            let Some(ch) = self.peek() else {
                return Ok(None);
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
            self.bump();
            match ch {
                '{' => self.skip_comment(line)?,
                ';' => self.skip_line(),
                '(' => self.skip_variation(line)?,
                ')' => return Err(PdnError::StrayParenthesis(line)),
                '}' | ']' => {}
                '[' => return self.tag(line).map(|tag| Some((tag, line))),
                '$' => {
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                    }
                }
                _ => {
                    let start = self.at - ch.len_utf8();
                    while self.peek().is_some_and(|c| !is_delimiter(c)) {
                        self.bump();
                    }
                    if let Some(token) = word_token(&self.text[start..self.at]) {
                        return Ok(Some((token, line)));
                    }
                }
            }
        }
    }
}

/// A word of the move text as a move or a result; `None` for a bare move
/// number or annotation.
fn word_token(word: &str) -> Option<Token> {
    if RESULTS.contains(&word) {
        return Some(Token::Result(word.to_string()));
    }
    // A move number, alone (`12.`, `12...`) or glued to its move
    // (`12.11-15`).
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &word[digits..];
    let word = if rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        word
    };
    let word = word.trim_end_matches(['!', '?']);
    if word.is_empty() {
        return None;
    }
    Some(Token::Move(word.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_comments_variations_and_nags_are_skipped() {
        let text = "[Event \"x\"]\n[White \"a \\\"b\\\"\"]\n\n\
                    1.11-14 22-19! 2. 10-13 {take (back)} ; rest of line 9-13\n\
                    ( 2... 10-14 (3. 23-19) {x} ) $1 2... 19x10?! 3.5x14 1/2-1/2";
        let games = read_games(text).expect("reads");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tag("white"), Some("a \"b\""));
        assert_eq!(
            games[0].moves(),
            ["11-14", "22-19", "10-13", "19x10", "5x14"]
        );
        assert_eq!(games[0].result(), Some("1/2-1/2"));
        assert_eq!(games[0].move_lines, vec![4, 4, 4, 5, 5]);
        assert!(games[0].replay().is_ok());
    }

    #[test]
    fn broken_input_is_an_error_with_its_line() {
        assert_eq!(read_games("1. 11-15 {open"), Err(PdnError::OpenComment(1)));
        assert_eq!(
            read_games("\n1. 11-15 (2. 9-13"),
            Err(PdnError::OpenVariation(2))
        );
        assert_eq!(read_games("1. 11-15 )"), Err(PdnError::StrayParenthesis(1)));
        assert!(matches!(
            read_games("[Event x]"),
            Err(PdnError::BadTag { line: 1, .. })
        ));
    }

    #[test]
    fn the_first_illegal_move_is_named_with_ply_and_line() {
        let games = read_games("1. 11-15 22-18\n2. 1-5 23-19 1-0").expect("reads");
        let err = games[0].replay().expect_err("5 is occupied");
        assert!(
            matches!(&err, ReplayError::Move { ply: 3, line: 2, text, .. } if text == "1-5"),
            "{err}"
        );
        assert!(
            err.to_string().starts_with("ply 3 (line 2): '1-5': "),
            "{err}"
        );
    }

    #[test]
    fn landing_squares_of_a_long_capture_are_read() {
        // The man on 6 jumps 10 to land on 13, then 18 to land on 22.
        let fen = "W:W6:B10,18";
        let game: Draughts = fen.parse().expect("valid");
        let [capture] = game.legal_moves()[..] else {
            panic!("one capture expected");
        };
        let square = |n| Square::new(n).expect("square");
        assert_eq!(capture.captured().count(), 2);
        assert!(fits_landings(capture, &[square(6), square(13), square(22)]));
        assert!(!fits_landings(
            capture,
            &[square(6), square(15), square(22)]
        ));
        for text in [
            "6x13x22",
            "6x22",
            "6x22x10x18",
            "6x22x18x10",
            "6-22",
            "6-13-22",
        ] {
            let pdn = format!("[FEN \"{fen}\"]\n1. {text} *");
            let games = read_games(&pdn).expect("reads");
            let replayed = games[0]
                .replay()
                .unwrap_or_else(|err| panic!("{text}: {err}"));
            assert_eq!(replayed.moves(), [capture], "{text}");
        }
        let games = read_games(&format!("[FEN \"{fen}\"] 6x14x22 *")).expect("reads");
        let err = games[0].replay().expect_err("14 is not a landing square");
        // The error is the one for the text as written.
        assert!(err.to_string().contains("'6x14x22'"), "{err}");
        let quiet = read_games("1. 9x13 22-18 *").expect("reads");
        assert!(quiet[0].replay().is_ok(), "a quiet move written with x");
    }

    #[test]
    fn other_game_types_and_bad_fens_are_refused() {
        let games = read_games("[GameType \"20\"]\n1. 32-28 *\n[FEN \"W:W33\"] *").expect("reads");
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].replay().map(|_| ()),
            Err(ReplayError::GameType("20".into()))
        );
        assert!(matches!(games[1].replay(), Err(ReplayError::Fen(_))));
        let typed = read_games("[GameType \"24,W,8,8,N1,1\"] 1. 11-15 *").expect("reads");
        assert!(typed[0].replay().is_ok());
    }

    #[test]
    fn games_split_at_results_and_at_tags() {
        let games = read_games("[Round \"1\"] 1. 11-15 [Round \"2\"] 1. 9-13 2-0 1. 10-14 0-2")
            .expect("reads");
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].moves(), ["11-15"]);
        assert_eq!(games[0].result(), None);
        assert_eq!(games[1].tag("Round"), Some("2"));
        assert_eq!(games[1].result(), Some("2-0"));
        assert!(games[2].tags().is_empty());
        assert_eq!(games[2].moves(), ["10-14"]);
        assert_eq!(games[2].line(), 1);
    }
}
