//! `damas play`: a person against the engine in the terminal.

use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use damas::search::SearchLimits;
use damas::{AnyEngine, AnyGame, Game, GameKind, Outcome, Search};

use crate::output::{stdout_error, Failure};
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
    let mut game = AnyGame::new(&options.spec());
    let mut engine = AnyEngine::new(options.hash_mb);
    engine.set_options(&options.engine_options());
    let colour = !args.no_color && io::stdout().is_terminal();
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = io::stdout().lock();
    say!(
        out,
        "Type a move, 'moves' for all legal moves, 'moves <square>' for one piece, 'undo' to take your last move back, 'quit' to leave."
    )?;
    let mut drawn: Option<u64> = None;
    loop {
        if drawn != Some(game.hash()) || game.is_over() {
            let diagram = game.diagram();
            if colour {
                say!(out, "{}", colourise(&diagram, game.kind()))?;
            } else {
                say!(out, "{diagram}")?;
            }
            drawn = Some(game.hash());
        }
        if game.is_over() {
            if let Some(outcome) = game.outcome() {
                say!(out, "Game over: {}", summary(&outcome))?;
            }
            return Ok(());
        }
        let Some(player) = game.to_move().map(|p| p.index()) else {
            return Ok(());
        };
        if args.humans.contains(&(player as u8 + 1)) {
            write!(out, "p{} to move> ", player + 1).map_err(|e| stdout_error(&e))?;
            out.flush().map_err(|e| stdout_error(&e))?;
            let Some(line) = lines.next() else {
                return Ok(());
            };
            let line = line.map_err(|e| format!("reading standard input: {e}"))?;
            let line = line.trim();
            match line.split_whitespace().collect::<Vec<_>>().as_slice() {
                [] => {}
                ["quit"] | ["exit"] => return Ok(()),
                ["undo"] => {
                    if !undo_to_human(&mut game, &args.humans) {
                        say!(out, "nothing to take back")?;
                    }
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use damas::EndReason;

    #[test]
    fn undo_goes_back_to_the_last_human_turn() {
        let mut game = AnyGame::new(&damas::GameSpec::Spanish);
        assert!(!undo_to_human(&mut game, &[1]), "nothing played yet");
        game.play_text("11-15").expect("legal");
        game.play_text("22-18").expect("legal");
        // p1 is to move again: both plies go, back to p1's previous turn.
        assert!(undo_to_human(&mut game, &[1]));
        assert_eq!(game.position_text(), damas::spanish::START_FEN);
        // With people on both sides one ply goes.
        game.play_text("11-15").expect("legal");
        assert!(undo_to_human(&mut game, &[1, 2]));
        assert_eq!(game.position_text(), damas::spanish::START_FEN);
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
