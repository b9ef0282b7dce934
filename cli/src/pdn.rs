//! `damas pdn check FILE`: replays every game of a PDN file with the rules.

use clap::{Args, Subcommand};
use damas::pdn::read_games;

use crate::output::{outln, Failure};

/// Arguments of `damas pdn`.
#[derive(Args, Debug)]
pub struct PdnArgs {
    #[command(subcommand)]
    command: PdnCommand,
}

#[derive(Subcommand, Debug)]
enum PdnCommand {
    /// Replay every game; report the first illegal move (exit status 1).
    Check {
        /// The PDN file (Spanish draughts).
        file: String,
    },
}

/// Most bytes of a PDN file read (a larger file is refused, not read
/// into memory).
const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Runs `damas pdn`.
pub fn run(args: &PdnArgs) -> Result<(), Failure> {
    let PdnCommand::Check { file } = &args.command;
    let size = std::fs::metadata(file)
        .map_err(|err| format!("reading '{file}': {err}"))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(format!("'{file}': {size} bytes, more than the {MAX_FILE_BYTES} read").into());
    }
    let bytes = std::fs::read(file).map_err(|err| format!("reading '{file}': {err}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let games = read_games(&text).map_err(|err| format!("{file}: {err}"))?;
    for (index, game) in games.iter().enumerate() {
        match game.replay() {
            Ok(replayed) => outln!(
                "game {} (line {}): {} plies, ok",
                index + 1,
                game.line(),
                replayed.moves().len()
            )?,
            Err(err) => {
                return Err(
                    format!("{file}: game {} (line {}): {err}", index + 1, game.line()).into(),
                )
            }
        }
    }
    outln!("{} games, all legal", games.len())?;
    Ok(())
}
