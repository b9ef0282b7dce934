//! Parsing one protocol line into a typed [`Command`].
//!
//! The parser is total: any string yields either a command, nothing (blank
//! line) or a [`CommandError`] that says what is wrong. It never panics, so
//! a fuzz target can drive it with arbitrary bytes.

use std::time::Duration;

use damas::options::read_whole_number;
use thiserror::Error;

/// Longest line the session accepts; longer lines are refused whole so a
/// runaway client cannot make the engine allocate without bound.
pub const MAX_LINE_LEN: usize = 1 << 20;

/// Most moves accepted after `position ... moves`.
pub const MAX_POSITION_MOVES: usize = 100_000;

/// One parsed protocol command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi` or `uci`: identify and list the options.
    Hello {
        /// True when the client spoke `uci` (reply `uciok`).
        uci: bool,
    },
    /// `isready`.
    IsReady,
    /// `setoption name <Name> value <Value>`.
    SetOption {
        /// Option name as typed (matched case-insensitively).
        name: String,
        /// Value text; empty for buttons.
        value: String,
    },
    /// `uginewgame` or `ucinewgame`.
    NewGame,
    /// `ccp`: speak JumpStar's CCP from now on (CCERL rules).
    Ccp,
    /// CCP's `position cells <COMPACT121> player <0|1> ply <N> [moves ...]`.
    PositionCells {
        /// The 121 characters `.`, `0`, `1`.
        cells: String,
        /// The player to move, 0 or 1.
        player: u32,
        /// Plies played before this position.
        ply: u32,
        /// Moves to play from there.
        moves: Vec<String>,
    },
    /// `position startpos|fen <text> [moves ...]`.
    Position {
        /// The position text after `fen`, or `None` for `startpos`.
        fen: Option<String>,
        /// Moves to play from there.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit` (accepted and ignored: the engine never ponders).
    PonderHit,
    /// `quit`.
    Quit,
    /// `query <what>`.
    Query(Query),
    /// `d`: show the board.
    Display,
    /// `perft <depth>`.
    Perft(u32),
    /// `divide <depth>`.
    Divide(u32),
    /// `help`.
    Help,
    /// `debug on|off` (accepted, no effect).
    Debug,
}

/// The things `query` can ask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// `query gameover`.
    GameOver,
    /// `query p1turn`.
    P1Turn,
    /// `query result`.
    Result,
    /// `query turn`: which player is to move (`p3`).
    Turn,
    /// `query ranking`: places in order.
    Ranking,
    /// `query moves [cell]`: every legal move, or those of one piece.
    Moves(Option<String>),
}

/// The limits and clocks of a `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `depth N`.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `movetime MS`.
    pub movetime: Option<Duration>,
    /// `infinite`.
    pub infinite: bool,
    /// Remaining time per player, index 0 = `p1time` (= `wtime`).
    pub time: [Option<Duration>; 6],
    /// Increment per player, index 0 = `p1inc` (= `winc`).
    pub inc: [Option<Duration>; 6],
    /// `movestogo N`.
    pub movestogo: Option<u32>,
}

/// Why a line is not a valid command.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is no command this engine knows.
    #[error("unknown command '{0}' (type 'help' for the list)")]
    Unknown(String),
    /// A command is missing a required part.
    #[error("'{command}' needs {what}")]
    Missing {
        /// The command word.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// A word is not allowed where it stands.
    #[error("unexpected '{word}' in '{command}'")]
    Unexpected {
        /// The command word.
        command: &'static str,
        /// The word that does not fit.
        word: String,
    },
    /// A number could not be read.
    #[error("'{word}' is not a valid number for '{field}'")]
    BadNumber {
        /// The field being read.
        field: String,
        /// The text found.
        word: String,
    },
    /// A number is outside what the field accepts.
    #[error("'{field}' {word} is out of range ({range})")]
    OutOfRange {
        /// The field being read.
        field: String,
        /// The number found.
        word: String,
        /// What the field accepts.
        range: String,
    },
    /// The line is longer than [`MAX_LINE_LEN`].
    #[error("line too long ({0} bytes; at most {MAX_LINE_LEN})")]
    TooLong(usize),
    /// Too many moves after `position ... moves`.
    #[error("too many moves in 'position' ({0}; at most {MAX_POSITION_MOVES})")]
    TooManyMoves(usize),
}

/// Parses one line. Returns `Ok(None)` for a blank line.
///
/// # Errors
///
/// [`CommandError::TooLong`] for a line over [`MAX_LINE_LEN`] bytes;
/// [`CommandError::Unknown`] for a first word that is no command;
/// [`CommandError::Missing`], [`CommandError::Unexpected`],
/// [`CommandError::BadNumber`] and [`CommandError::OutOfRange`] for a
/// command's arguments; [`CommandError::TooManyMoves`] for a `position`
/// line with more moves than [`MAX_POSITION_MOVES`].
///
/// ```
/// use damas_protocol::command::{parse, CommandError};
///
/// assert!(parse("isready").unwrap().is_some());
/// assert_eq!(parse("   ").unwrap(), None);
/// assert!(matches!(parse("fly away"), Err(CommandError::Unknown(_))));
/// ```
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    if line.len() > MAX_LINE_LEN {
        return Err(CommandError::TooLong(line.len()));
    }
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    // Every command refuses words it does not take (one rule for all; a
    // typo is reported rather than half obeyed).
    let bare = |command: Command| match rest.first() {
        None => Ok(command),
        Some(extra) => Err(CommandError::Unexpected {
            command: command_word(first),
            word: truncate(extra),
        }),
    };
    let command = match first {
        "ugi" => bare(Command::Hello { uci: false })?,
        "uci" => bare(Command::Hello { uci: true })?,
        "ccp" => bare(Command::Ccp)?,
        "isready" => bare(Command::IsReady)?,
        "setoption" => parse_setoption(&rest)?,
        "uginewgame" | "ucinewgame" => bare(Command::NewGame)?,
        "position" => parse_position(&rest)?,
        "go" => Command::Go(parse_go(&rest)?),
        "stop" => bare(Command::Stop)?,
        "ponderhit" => bare(Command::PonderHit)?,
        "quit" => bare(Command::Quit)?,
        "query" => Command::Query(parse_query(&rest)?),
        "d" => bare(Command::Display)?,
        "perft" => Command::Perft(parse_depth("perft", &rest)?),
        "divide" => Command::Divide(parse_depth("divide", &rest)?),
        "help" => bare(Command::Help)?,
        "debug" => match rest.as_slice() {
            [] | ["on" | "off"] => Command::Debug,
            ["on" | "off", extra, ..] => return Err(unexpected("debug", extra)),
            [word, ..] => return Err(unexpected("debug", word)),
        },
        other => return Err(CommandError::Unknown(truncate(other))),
    };
    Ok(Some(command))
}

/// The static name of a command word the parser knows.
fn command_word(word: &str) -> &'static str {
    const WORDS: &[&str] = &[
        "ugi",
        "uci",
        "isready",
        "uginewgame",
        "ucinewgame",
        "stop",
        "ponderhit",
        "quit",
        "d",
        "help",
    ];
    WORDS
        .iter()
        .find(|w| **w == word)
        .copied()
        .unwrap_or("command")
}

/// Shortens a word for an error message so that a huge token does not
/// become a huge reply.
fn truncate(word: &str) -> String {
    const KEEP: usize = 40;
    match word.char_indices().nth(KEEP) {
        Some((cut, _)) => format!("{}...", &word[..cut]),
        None => word.to_string(),
    }
}

/// The error for a word that does not fit where it stands.
fn unexpected(command: &'static str, word: &str) -> CommandError {
    CommandError::Unexpected {
        command,
        word: truncate(word),
    }
}

/// The error for a missing part of a command.
fn missing(command: &'static str, what: &'static str) -> CommandError {
    CommandError::Missing { command, what }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    const CMD: &str = "setoption";
    match rest.first() {
        Some(&"name") => {}
        Some(word) => return Err(unexpected(CMD, word)),
        None => return Err(missing(CMD, "'name <Name> [value <Value>]'")),
    }
    let value_at = rest.iter().position(|w| *w == "value");
    let name_words = &rest[1..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(missing(CMD, "an option name"));
    }
    let value = value_at.map_or_else(String::new, |at| rest[at + 1..].join(" "));
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    const CMD: &str = "position";
    let moves_at = rest.iter().position(|w| *w == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves: Vec<String> = moves_at.map_or_else(Vec::new, |at| {
        rest[at + 1..].iter().map(|m| (*m).to_string()).collect()
    });
    if moves.len() > MAX_POSITION_MOVES {
        return Err(CommandError::TooManyMoves(moves.len()));
    }
    let fen = match head.first() {
        Some(&"cells") => return parse_cells(head, moves),
        Some(&"startpos") => {
            if let Some(extra) = head.get(1) {
                return Err(unexpected(CMD, extra));
            }
            None
        }
        Some(&"fen") => {
            if head.len() < 2 {
                return Err(missing(CMD, "a position text after 'fen'"));
            }
            Some(head[1..].join(" "))
        }
        Some(word) => return Err(unexpected(CMD, word)),
        None => return Err(missing(CMD, "'startpos' or 'fen <text>'")),
    };
    Ok(Command::Position { fen, moves })
}

/// Largest `go depth`: more than any search goes (they stop at their own
/// maximum, 120 plies in Spanish draughts and 60 in Chinese checkers).
pub const MAX_GO_DEPTH: u32 = 1000;

/// Largest time in a `go` field, in milliseconds (about 11.6 days).
pub const MAX_GO_MILLIS: u64 = 1_000_000_000;

/// `cells <COMPACT121> player <0|1> [ply <N>]` (CCP); the cells are
/// checked when the position is built.
fn parse_cells(head: &[&str], moves: Vec<String>) -> Result<Command, CommandError> {
    const CMD: &str = "position";
    let Some(cells) = head.get(1) else {
        return Err(missing(CMD, "121 cells after 'cells'"));
    };
    let mut player = None;
    let mut ply = 0;
    let mut i = 2;
    while i < head.len() {
        match head[i] {
            "player" => player = Some(parse_bounded("player", head.get(i + 1), 0, 1)?),
            "ply" => ply = parse_bounded("ply", head.get(i + 1), 0, 1_000_000)?,
            word => return Err(unexpected(CMD, word)),
        }
        i += 2;
    }
    let player = player.ok_or_else(|| missing(CMD, "'player <0|1>' after the cells"))?;
    Ok(Command::PositionCells {
        cells: (*cells).to_string(),
        player,
        ply,
        moves,
    })
}

/// Reads a millisecond count, at most [`MAX_GO_MILLIS`], written as the
/// options' numbers are ([`read_whole_number`]). Negative clocks (a client
/// that overstepped) count as zero rather than as an error, so the engine
/// still moves at once.
fn parse_millis(field: &str, word: Option<&&str>) -> Result<Duration, CommandError> {
    let word = word.copied().unwrap_or("");
    let overstepped = word
        .strip_prefix('-')
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
    if overstepped {
        return Ok(Duration::ZERO);
    }
    let millis = read_whole_number(word).ok_or_else(|| CommandError::BadNumber {
        field: field.to_string(),
        word: truncate(word),
    })?;
    if millis > MAX_GO_MILLIS {
        return Err(CommandError::OutOfRange {
            field: field.to_string(),
            word: truncate(word),
            range: format!("at most {MAX_GO_MILLIS} ms"),
        });
    }
    Ok(Duration::from_millis(millis))
}

/// Reads a whole number of `field` as the options read theirs
/// ([`read_whole_number`]: digits only, no sign, no leading zero).
fn parse_number<T: TryFrom<u64>>(field: &str, word: Option<&&str>) -> Result<T, CommandError> {
    let text = word.copied().unwrap_or("");
    read_whole_number(text)
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| CommandError::BadNumber {
            field: field.to_string(),
            word: truncate(text),
        })
}

/// A number of `field` in `min..=max`.
fn parse_bounded<T>(field: &str, word: Option<&&str>, min: T, max: T) -> Result<T, CommandError>
where
    T: TryFrom<u64> + PartialOrd + std::fmt::Display + Copy,
{
    let value: T = parse_number(field, word)?;
    if value < min || value > max {
        return Err(CommandError::OutOfRange {
            field: field.to_string(),
            word: value.to_string(),
            range: format!("from {min} to {max}"),
        });
    }
    Ok(value)
}

fn parse_go(rest: &[&str]) -> Result<GoParams, CommandError> {
    let mut params = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let word = rest[i];
        let value = rest.get(i + 1);
        let mut takes_value = true;
        match word {
            "depth" => params.depth = Some(parse_bounded(word, value, 1, MAX_GO_DEPTH)?),
            "nodes" => params.nodes = Some(parse_bounded(word, value, 1, u64::MAX)?),
            "movetime" => params.movetime = Some(parse_millis(word, value)?),
            "movestogo" => params.movestogo = Some(parse_bounded(word, value, 1, u32::MAX)?),
            "wtime" => params.time[0] = Some(parse_millis(word, value)?),
            "btime" => params.time[1] = Some(parse_millis(word, value)?),
            "winc" => params.inc[0] = Some(parse_millis(word, value)?),
            "binc" => params.inc[1] = Some(parse_millis(word, value)?),
            "infinite" => {
                params.infinite = true;
                takes_value = false;
            }
            "ponder" => takes_value = false,
            _ => match player_clock_field(word) {
                Some((player, false)) => params.time[player] = Some(parse_millis(word, value)?),
                Some((player, true)) => params.inc[player] = Some(parse_millis(word, value)?),
                None => {
                    return Err(CommandError::Unexpected {
                        command: "go",
                        word: truncate(word),
                    })
                }
            },
        }
        i += if takes_value { 2 } else { 1 };
    }
    Ok(params)
}

/// `p3time` → (2, false), `p1inc` → (0, true).
fn player_clock_field(word: &str) -> Option<(usize, bool)> {
    let rest = word.strip_prefix('p')?;
    let mut chars = rest.chars();
    let digit = chars.next()?.to_digit(10)? as usize;
    if !(1..=6).contains(&digit) {
        return None;
    }
    match chars.as_str() {
        "time" => Some((digit - 1, false)),
        "inc" => Some((digit - 1, true)),
        _ => None,
    }
}

fn parse_query(rest: &[&str]) -> Result<Query, CommandError> {
    const CMD: &str = "query";
    let query = match rest.first() {
        Some(&"gameover") => Query::GameOver,
        Some(&"p1turn") => Query::P1Turn,
        Some(&"result") => Query::Result,
        Some(&"turn") => Query::Turn,
        Some(&"ranking") => Query::Ranking,
        Some(&"moves") => {
            if let Some(extra) = rest.get(2) {
                return Err(unexpected(CMD, extra));
            }
            return Ok(Query::Moves(rest.get(1).map(|c| (*c).to_string())));
        }
        Some(word) => return Err(unexpected(CMD, word)),
        None => {
            return Err(missing(
                CMD,
                "gameover, p1turn, result, turn, ranking or moves",
            ))
        }
    };
    if let Some(extra) = rest.get(1) {
        return Err(unexpected(CMD, extra));
    }
    Ok(query)
}

fn parse_depth(command: &'static str, rest: &[&str]) -> Result<u32, CommandError> {
    match rest {
        [] => Err(missing(command, "a depth")),
        [depth] => parse_number("depth", Some(depth)),
        [_, extra, ..] => Err(CommandError::Unexpected {
            command,
            word: truncate(extra),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).expect("parses").expect("not blank")
    }

    #[test]
    fn handshake_words() {
        assert_eq!(ok("ugi"), Command::Hello { uci: false });
        assert_eq!(ok("  uci  "), Command::Hello { uci: true });
        assert_eq!(ok("ucinewgame"), Command::NewGame);
        assert_eq!(parse("   "), Ok(None));
    }

    #[test]
    fn setoption_with_spaces_in_name_and_value() {
        assert_eq!(
            ok("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: "30".into()
            }
        );
        assert!(parse("setoption value 3").is_err());
        assert!(parse("setoption name").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            ok("position startpos moves 11-15 22-18"),
            Command::Position {
                fen: None,
                moves: vec!["11-15".into(), "22-18".into()]
            }
        );
        assert_eq!(
            ok("position fen B:W18,K3:BK30,22"),
            Command::Position {
                fen: Some("B:W18,K3:BK30,22".into()),
                moves: vec![]
            }
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos 11-15").is_err());
    }

    #[test]
    fn go_clocks_for_many_players() {
        let Command::Go(go) = ok("go p1time 1000 p3time 2000 p3inc 10 winc 5 movestogo 20") else {
            panic!("not a go");
        };
        assert_eq!(go.time[0], Some(Duration::from_millis(1000)));
        assert_eq!(go.time[2], Some(Duration::from_millis(2000)));
        assert_eq!(go.inc[2], Some(Duration::from_millis(10)));
        assert_eq!(go.inc[0], Some(Duration::from_millis(5)));
        assert_eq!(go.movestogo, Some(20));
    }

    #[test]
    fn go_negative_clock_is_zero_and_garbage_is_an_error() {
        let Command::Go(go) = ok("go wtime -50 btime 100") else {
            panic!("not a go");
        };
        assert_eq!(go.time[0], Some(Duration::ZERO));
        assert!(parse("go depth x").is_err());
        assert!(parse("go depth").is_err());
        assert!(parse("go p7time 5").is_err());
        assert!(parse("go depth 99999999999999999999").is_err());
        for sloppy in ["+5", "05", "5.0", "0x5", "-5"] {
            assert!(parse(&format!("go depth {sloppy}")).is_err(), "{sloppy}");
            assert!(parse(&format!("perft {sloppy}")).is_err(), "{sloppy}");
        }
        assert!(parse("go movetime +100").is_err());
        assert!(parse("go wtime 0100").is_err());
        let Command::Go(go) = ok("go wtime -99999999999999999999999 movetime 0") else {
            panic!("not a go");
        };
        assert_eq!(go.time[0], Some(Duration::ZERO));
        assert_eq!(go.movetime, Some(Duration::ZERO));
        assert!(matches!(
            ok("go infinite"),
            Command::Go(GoParams { infinite: true, .. })
        ));
    }

    #[test]
    fn queries() {
        assert_eq!(ok("query gameover"), Command::Query(Query::GameOver));
        assert_eq!(
            ok("query moves e5"),
            Command::Query(Query::Moves(Some("e5".into())))
        );
        assert!(parse("query").is_err());
        assert!(parse("query gameover now").is_err());
    }

    #[test]
    fn unknown_and_overlong() {
        assert!(matches!(parse("xyzzy"), Err(CommandError::Unknown(_))));
        let long = "a".repeat(MAX_LINE_LEN + 1);
        assert!(matches!(parse(&long), Err(CommandError::TooLong(_))));
        let err = parse(&"z".repeat(1000)).unwrap_err().to_string();
        assert!(err.len() < 100, "{err}");
    }
}
