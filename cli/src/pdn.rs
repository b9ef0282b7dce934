//! `damas pdn check FILE`: replays every game of a PDN file with the rules,
//! reading it as a stream (memory bounded by a constant plus one game).

use std::io::{BufWriter, Read, Write};

use clap::{Args, Subcommand};
use damas::pdn::PdnReader;

use crate::output::{errln, stdout_error, Failure};

/// Arguments of `damas pdn`.
#[derive(Args, Debug)]
pub struct PdnArgs {
    #[command(subcommand)]
    command: PdnCommand,
}

#[derive(Subcommand, Debug)]
enum PdnCommand {
    /// Replay every game; report each bad one (the first 20, then how many
    /// more) and exit with status 1 if any is bad.
    Check {
        /// The PDN file (Spanish draughts); `-` for standard input.
        file: String,
    },
}

/// Bad games reported one by one; the rest are counted.
const SHOWN_BAD_GAMES: u64 = 20;

/// Runs `damas pdn`.
pub fn run(args: &PdnArgs) -> Result<(), Failure> {
    let PdnCommand::Check { file } = &args.command;
    let name = printable(file);
    let input: Box<dyn Read> = if file == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(file).map_err(|err| format!("reading '{name}': {err}"))?)
    };
    // One line per game: buffered, since a file may hold millions.
    let mut out = BufWriter::new(std::io::stdout().lock());
    let (mut games, mut bad) = (0u64, 0u64);
    for read in PdnReader::new(input) {
        games += 1;
        let (line, why) = match read {
            Ok(game) => match game.replay() {
                Ok(replayed) => {
                    writeln!(
                        out,
                        "game {games} (line {}): {} plies, ok",
                        game.line(),
                        replayed.moves().len()
                    )
                    .map_err(|err| stdout_error(&err))?;
                    continue;
                }
                Err(err) => (game.line(), err.to_string()),
            },
            Err(err) => (err.line, err.error.to_string()),
        };
        bad += 1;
        if bad <= SHOWN_BAD_GAMES {
            out.flush().map_err(|err| stdout_error(&err))?;
            errln!("{name}: game {games} (line {line}): {}", printable(&why));
        }
    }
    if bad > SHOWN_BAD_GAMES {
        errln!("{name}: {} more bad games not shown", bad - SHOWN_BAD_GAMES);
    }
    let summary = if bad == 0 {
        format!("{games} games, all legal")
    } else {
        format!("{games} games: {} legal, {bad} bad", games - bad)
    };
    writeln!(out, "{summary}")
        .and_then(|()| out.flush())
        .map_err(|err| stdout_error(&err))?;
    if bad == 0 {
        return Ok(());
    }
    Err(format!("{name}: {bad} of {games} games bad").into())
}

/// `text` with its control characters escaped, so that a message stays
/// one line of printable text whatever the file held.
fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch.is_control() {
            out.extend(ch.escape_default());
        } else {
            out.push(ch);
        }
    }
    out
}
