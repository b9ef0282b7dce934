//! `damas play`: a person against the engine in the terminal.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use damas::search::SearchLimits;
use damas::{AnyEngine, AnyGame, Game, Outcome, Piece, PieceKind, Player, Search};

use crate::lines::{read_line_bounded, Read};
use crate::output::{stdout_error, Failure};
use crate::perft::GameArgs;

/// Longest input line kept, in bytes (a move path is well under 100).
const MAX_INPUT: usize = 4096;

/// Most characters of a person's input repeated in a reply.
const MAX_ECHO: usize = 60;

/// Arguments of `damas play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The player(s) you control, 1-based (repeat for several); the engine
    /// plays the others.
    #[arg(long = "human", default_values_t = [1u8])]
    humans: Vec<u8>,
    /// Engine thinking time per move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Draw the board without colours.
    #[arg(long)]
    no_color: bool,
}

const PLAYER_COLOURS: [&str; 6] = [
    "\x1b[1;31m",
    "\x1b[1;34m",
    "\x1b[1;32m",
    "\x1b[1;33m",
    "\x1b[1;35m",
    "\x1b[1;36m",
];
const RESET: &str = "\x1b[0m";

/// The game's diagram with its pieces coloured by owner: each piece's
/// character ([`Game::diagram_symbol`]) in the board rows. Only the board
/// is coloured: the row numbers, square numbers and the lines under the
/// board are not.
fn colourise(game: &impl Game) -> String {
    let symbols: Vec<(char, Player)> = Player::all(game.player_count())
        .flat_map(|owner| [PieceKind::Man, PieceKind::King].map(|kind| Piece { owner, kind }))
        .filter_map(|piece| Some((game.diagram_symbol(piece)?, piece.owner)))
        .collect();
    let diagram = game.diagram();
    let mut out = String::with_capacity(diagram.len() * 2);
    for line in diagram.lines() {
        let start = board_start(line).unwrap_or(line.len());
        out.push_str(&line[..start]);
        for ch in line[start..].chars() {
            match symbols.iter().find(|(symbol, _)| *symbol == ch) {
                Some((_, owner)) => {
                    out.push_str(PLAYER_COLOURS[owner.index() % PLAYER_COLOURS.len()]);
                    out.push(ch);
                    out.push_str(RESET);
                }
                None => out.push(ch),
            }
        }
        out.push('\n');
    }
    out.pop();
    out
}

/// Where the points of a diagram line begin: after the row number that
/// starts a board row; `None` for the other lines (file letters, frame,
/// the player to move).
fn board_start(line: &str) -> Option<usize> {
    let label = line.len() - line.trim_start().len();
    let digits = line[label..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(line.len() - label);
    (digits > 0).then_some(label + digits)
}

/// A person's text as it may be shown back: control characters (terminal
/// escapes among them) written as escapes, and cut after [`MAX_ECHO`]
/// characters.
fn shown(text: &str) -> String {
    let mut out = String::new();
    for (count, ch) in text.chars().enumerate() {
        if count == MAX_ECHO {
            out.push_str("...");
            break;
        }
        if ch.is_control() {
            out.extend(ch.escape_default());
        } else {
            out.push(ch);
        }
    }
    out
}

/// Takes turns back until a person is to move again, with at least one
/// turn taken back (the engine's replies go too); `false` when there is
/// nothing to take back before a person's turn.
fn undo_to_human(game: &mut impl Game, humans: &[u8]) -> bool {
    let mut probe = game.clone();
    while probe.undo() {
        let human_to_move = probe
            .to_move()
            .is_some_and(|p| humans.contains(&(p.index() as u8 + 1)));
        if human_to_move {
            *game = probe;
            return true;
        }
    }
    false
}

/// `p2 wins`, `draw` or `p1 wins` and the places, with the reason:
/// `p2 wins (places p1=2 p2=1; the loser has no legal move)`.
fn summary(outcome: &Outcome) -> String {
    let headline = outcome
        .winner()
        .map_or_else(|| "draw".to_string(), |winner| format!("{winner} wins"));
    let places: Vec<String> = outcome
        .places
        .iter()
        .enumerate()
        .map(|(seat, place)| format!("p{}={place}", seat + 1))
        .collect();
    format!(
        "{headline} (places {}; {})",
        places.join(" "),
        outcome.reason
    )
}

/// Writes a line to stdout, turning a closed pipe into an error instead of
/// a panic.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*).map_err(|err| stdout_error(&err))
    };
}

/// Runs `damas play`.
pub fn run(args: &PlayArgs) -> Result<(), Failure> {
    let options = args.game.options()?;
    let spec = options.spec().map_err(|err| err.to_string())?;
    let mut game = AnyGame::new(&spec);
    let mut engine = AnyEngine::new(options.hash_mb);
    engine.set_options(&options.engine_options());
    let colour = !args.no_color && io::stdout().is_terminal();
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    let mut out = io::stdout().lock();
    say!(out, "{}", spec.title())?;
    say!(
        out,
        "Type a move, 'moves' for all legal moves, 'moves <square>' for one piece, 'undo' to take your last move back, 'new' for the next game, 'quit' to leave."
    )?;
    // Game n of the session is opened by seat n (mod the players), as the
    // seeds' sites rotate the first turn.
    let mut games_started = 0usize;
    let mut drawn: Option<u64> = None;
    let mut announced = false;
    loop {
        if drawn != Some(game.hash()) {
            if colour {
                say!(out, "{}", colourise(&game))?;
            } else {
                say!(out, "{}", game.diagram())?;
            }
            drawn = Some(game.hash());
        }
        if game.is_over() && !announced {
            if let Some(outcome) = game.outcome() {
                say!(out, "Game over: {}", summary(&outcome))?;
            }
            let next = (games_started + 1) % game.player_count();
            say!(
                out,
                "Type 'new' for the next game (p{} opens), 'undo' to take moves back or 'quit' to leave.",
                next + 1
            )?;
            announced = true;
        }
        let to_move = game.to_move().map(Player::index);
        let human_turn = to_move.is_none_or(|p| args.humans.contains(&(p as u8 + 1)));
        if !human_turn {
            let player = to_move.unwrap_or_default();
            let played = engine_move(&mut engine, &mut game, args.movetime)?;
            say!(out, "p{} (engine) plays {played}", player + 1)?;
            continue;
        }
        match to_move {
            Some(player) => write!(out, "p{} to move> ", player + 1),
            None => write!(out, "> "),
        }
        .and_then(|()| out.flush())
        .map_err(|e| stdout_error(&e))?;
        buffer.clear();
        let read = read_line_bounded(&mut input, &mut buffer, MAX_INPUT)
            .map_err(|err| format!("reading standard input: {err}"))?;
        let line = match read {
            Read::End => return Ok(()),
            Read::TooLong(len) => {
                say!(out, "line too long ({len} bytes; at most {MAX_INPUT})")?;
                continue;
            }
            Read::Line => String::from_utf8_lossy(&buffer).into_owned(),
        };
        let line = line.trim();
        match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            [] => {}
            ["quit"] | ["exit"] => return Ok(()),
            ["new"] => {
                games_started += 1;
                let first = Player::new(games_started % game.player_count());
                game = match first {
                    Some(first) => AnyGame::with_first_player(&spec, first),
                    None => AnyGame::new(&spec),
                };
                engine.clear();
                drawn = None;
                announced = false;
            }
            ["undo"] => {
                if undo_to_human(&mut game, &args.humans) {
                    announced = false;
                } else {
                    say!(out, "nothing to take back")?;
                }
            }
            ["moves"] => say!(out, "{}", game.legal_moves_text().join(" "))?,
            ["moves", cell] => match game.point(cell).map(|point| game.moves_from(point)) {
                Ok(moves) if moves.is_empty() => say!(out, "no legal move from {}", shown(cell))?,
                Ok(moves) => {
                    let texts: Vec<String> = moves.iter().map(|mv| game.move_text(mv)).collect();
                    say!(out, "{}", texts.join(" "))?
                }
                Err(err) => say!(out, "{}", shown(&err.to_string()))?,
            },
            _ => match game.play_text(line) {
                Ok(played) => say!(out, "p{} plays {played}", to_move.unwrap_or_default() + 1)?,
                Err(err) => say!(out, "{}", shown(&err.to_string()))?,
            },
        }
    }
}

/// The engine's move for the player to move, played; its text.
fn engine_move(
    engine: &mut AnyEngine,
    game: &mut AnyGame,
    movetime: u64,
) -> Result<String, String> {
    let limits = SearchLimits {
        movetime: Some(Duration::from_millis(movetime)),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    match engine.search(game, &limits, &stop, &mut |_| {}).best {
        Some(mv) => {
            let text = game.move_text(&mv);
            game.play(mv)
                .map_err(|err| format!("engine move {text} refused: {err}"))?;
            Ok(text)
        }
        None => {
            game.pass()
                .map_err(|err| format!("engine pass refused: {err}"))?;
            Ok("pass".to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas::EndReason;

    /// A new game set up as `damas play` does: options by name.
    fn new_game(options: &[(&str, &str)]) -> AnyGame {
        let mut settings = damas::options::Options::default();
        for (name, value) in options {
            settings.set(name, value).expect("a valid option");
        }
        AnyGame::new(&settings.spec().expect("a game"))
    }

    #[test]
    fn undo_goes_back_to_the_last_human_turn() {
        let mut game = new_game(&[]);
        let start = game.position_text();
        assert!(!undo_to_human(&mut game, &[1]), "nothing played yet");
        game.play_text("11-15").expect("legal");
        game.play_text("22-18").expect("legal");
        // p1 is to move again: both plies go, back to p1's previous turn.
        assert!(undo_to_human(&mut game, &[1]));
        assert_eq!(game.position_text(), start);
        // With people on both sides one ply goes.
        game.play_text("11-15").expect("legal");
        assert!(undo_to_human(&mut game, &[1, 2]));
        assert_eq!(game.position_text(), start);
    }

    /// `text` without its colour escapes.
    fn plain(text: &str) -> String {
        let mut out = text.replace(RESET, "");
        for colour in PLAYER_COLOURS {
            out = out.replace(colour, "");
        }
        out
    }

    #[test]
    fn only_pieces_are_coloured() {
        let draughts = new_game(&[]);
        let coloured = colourise(&draughts);
        // 12 men a side, nothing else: not the W of "White", not the FEN.
        assert_eq!(coloured.matches(RESET).count(), 24, "{coloured}");
        assert!(coloured.contains("White to move  FEN W:W1-12:B21-32"));
        assert_eq!(plain(&coloured), draughts.diagram().trim_end());
        let star = new_game(&[("Game", "chinese"), ("Players", "6")]);
        let coloured = colourise(&star);
        assert_eq!(coloured.matches(RESET).count(), 60, "{coloured}");
        assert!(coloured.starts_with("17 "), "row numbers stay plain");
        assert_eq!(plain(&coloured), star.diagram().trim_end());
        // Each player's pieces in its own colour: p1's and p6's.
        assert!(coloured.contains(&format!("{}1{RESET}", PLAYER_COLOURS[0])));
        assert!(coloured.contains(&format!("{}6{RESET}", PLAYER_COLOURS[5])));
        let diamond = new_game(&[("Game", "japanese"), ("Players", "3")]);
        let coloured = colourise(&diamond);
        assert!(coloured.contains(&format!("{}A{RESET}", PLAYER_COLOURS[0])));
    }

    #[test]
    fn echoed_text_has_no_escapes_and_is_short() {
        assert_eq!(shown("e4\x1b[2J"), "e4\\u{1b}[2J");
        assert_eq!(shown(&"x".repeat(500)).chars().count(), MAX_ECHO + 3);
    }

    #[test]
    fn the_summary_names_the_winner_the_places_and_the_reason() {
        let won = Outcome {
            places: vec![2, 1],
            reason: EndReason::NoMoves,
        };
        assert_eq!(
            summary(&won),
            "p2 wins (places p1=2 p2=1; the loser has no legal move)"
        );
        let drawn = Outcome {
            places: vec![3, 1, 1],
            reason: EndReason::Adjudicated,
        };
        assert_eq!(
            summary(&drawn),
            "draw (places p1=3 p2=1 p3=1; decided by the referee)"
        );
    }
}
