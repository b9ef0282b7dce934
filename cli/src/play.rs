//! `damas play`: a person against the engine in the terminal.

use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use damas::search::SearchLimits;
use damas::{AnyEngine, AnyGame, Game, GameKind, Search};
use damas_protocol::reply;

use crate::perft::GameArgs;

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

/// Colours the piece letters of a diagram: the library draws players as
/// distinct characters, and this maps each to a colour.
fn colourise(diagram: &str, kind: GameKind) -> String {
    let mut out = String::with_capacity(diagram.len() * 2);
    for ch in diagram.chars() {
        match player_of_symbol(kind, ch) {
            Some(player) => {
                out.push_str(PLAYER_COLOURS[player % PLAYER_COLOURS.len()]);
                out.push(ch);
                out.push_str(RESET);
            }
            None => out.push(ch),
        }
    }
    out
}

/// Which player a diagram character stands for: the Spanish diagram draws
/// White as `w`/`W` and Black as `b`/`B`, the star draws players as digits
/// (and their kings as letters).
fn player_of_symbol(kind: GameKind, symbol: char) -> Option<usize> {
    match kind {
        GameKind::Spanish => match symbol {
            'w' | 'W' => Some(0),
            'b' | 'B' => Some(1),
            _ => None,
        },
        GameKind::Chinese | GameKind::Japanese => match symbol {
            '1'..='6' => Some(symbol as usize - '1' as usize),
            'A'..='F' => Some(symbol as usize - 'A' as usize),
            _ => None,
        },
    }
}

/// Writes a line to stdout, turning a closed pipe into an error instead of
/// a panic.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*).map_err(|err| format!("writing the board: {err}"))
    };
}

/// Runs `damas play`.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    let options = args.game.options()?;
    let mut game = AnyGame::new(&options.spec());
    let mut engine = AnyEngine::new(options.hash_mb);
    engine.set_options(&options.engine_options());
    let colour = !args.no_color && io::stdout().is_terminal();
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = io::stdout().lock();
    say!(
        out,
        "Type a move, 'moves' for all legal moves, 'moves <square>' for one piece, 'quit' to leave."
    )?;
    let mut drawn: Option<u64> = None;
    loop {
        if drawn != Some(game.hash()) || game.is_over() {
            let diagram = reply::display(&game);
            if colour {
                say!(out, "{}", colourise(&diagram, game.kind()))?;
            } else {
                say!(out, "{diagram}")?;
            }
            drawn = Some(game.hash());
        }
        if game.is_over() {
            say!(
                out,
                "Game over: {} (ranking {})",
                reply::result(&game),
                reply::ranking(&game)
            )?;
            return Ok(());
        }
        let Some(player) = game.to_move().map(|p| p.index()) else {
            return Ok(());
        };
        if args.humans.contains(&(player as u8 + 1)) {
            write!(out, "p{} to move> ", player + 1).map_err(|e| e.to_string())?;
            out.flush().map_err(|e| e.to_string())?;
            let Some(line) = lines.next() else {
                return Ok(());
            };
            let line = line.map_err(|e| e.to_string())?;
            let line = line.trim();
            match line.split_whitespace().collect::<Vec<_>>().as_slice() {
                [] => {}
                ["quit"] | ["exit"] => return Ok(()),
                ["moves"] => say!(out, "{}", game.legal_moves_text().join(" "))?,
                ["moves", cell] => match game.moves_from(cell) {
                    Ok(moves) if moves.is_empty() => say!(out, "no legal move from {cell}")?,
                    Ok(moves) => {
                        let texts: Vec<String> =
                            moves.iter().map(|mv| game.move_text(mv)).collect();
                        say!(out, "{}", texts.join(" "))?
                    }
                    Err(err) => say!(out, "{err}")?,
                },
                _ => match game.play_text(line) {
                    Ok(played) => say!(out, "p{} plays {played}", player + 1)?,
                    Err(err) => say!(out, "{err}")?,
                },
            }
        } else {
            let limits = SearchLimits {
                movetime: Some(Duration::from_millis(args.movetime)),
                ..SearchLimits::default()
            };
            let stop = AtomicBool::new(false);
            let played = match engine.search(&game, &limits, &stop, &mut |_| {}).best {
                Some(mv) => {
                    let text = game.move_text(&mv);
                    game.play(mv)
                        .map_err(|err| format!("engine move {text} refused: {err}"))?;
                    text
                }
                None => {
                    game.pass()
                        .map_err(|err| format!("engine pass refused: {err}"))?;
                    "pass".to_string()
                }
            };
            say!(out, "p{} (engine) plays {played}", player + 1)?;
        }
    }
}
