//! `damas datagen`: self-play games of Spanish draughts at a fixed node
//! count, writing their quiet positions labelled with the game's result —
//! the training set of `damas tune` (docs/SEARCH.md, *Tuning*).
//!
//! Each game starts from `--opening-plies` random legal plies (as the match
//! runner's `random:PLIES` openings) drawn from a generator seeded by
//! `--seed` and the game's number, and is then played by the engine at
//! `--nodes` per move from a cleared table. The node limit makes the
//! search exact and single-threaded, so a run is reproducible: the same
//! arguments write the same file.
//!
//! Output: one position per line, `FEN RESULT`, where RESULT is White's
//! score in the game (`1`, `0.5` or `0`). Only positions where neither
//! side has a capture ([`Position::is_quiet`]) are written, from the first
//! position after the opening to the end of the game.
//!
//! With `--tablebase DIR` a position the endgame tables cover is labelled
//! with its value in the tables instead (at the game's no-progress count
//! then, as the search reads them): a position a player misplayed still
//! teaches what it is worth. The games themselves are the same with or
//! without tables.

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;
use damas::search::SearchLimits;
use damas::spanish::tablebase::{GameValue, Tablebase};
use damas::spanish::{Color, Draughts, Engine, GameStatus, Position};
use damas::{Game, Search};
use fastrand::Rng;

use crate::output::{errln, Failure};

/// Longest game played; a longer one (never seen: the 80-ply rule ends
/// shuffles first) is dropped rather than labelled.
const MAX_GAME_PLIES: usize = 1000;

/// Arguments of `damas datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// Games to play, 1 to 1,000,000.
    #[arg(long, default_value_t = 1000,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub games: usize,
    /// Nodes searched per move, 1 to 100,000,000.
    #[arg(long, default_value_t = 5000,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub nodes: u64,
    /// Random legal plies before the engine plays, 0 to 40.
    #[arg(long, default_value_t = 8,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=40))]
    pub opening_plies: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Transposition table of the engine, 1 to 1024 MiB.
    #[arg(long, default_value_t = 16,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub hash: usize,
    /// The file to write; it must not exist yet.
    #[arg(long)]
    pub out: PathBuf,
    /// Endgame tables (`damas tablebase generate`): label the positions
    /// they cover with their value in the tables.
    #[arg(long)]
    pub tablebase: Option<PathBuf>,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// One finished game: its quiet positions, each with the game's
/// no-progress count there, and White's score.
struct Labelled {
    positions: Vec<(Position, u32)>,
    white_score: &'static str,
}

/// White's score from `tables` for `pos` at the no-progress count
/// `counter`, when they cover it.
fn table_label(tables: &Tablebase, pos: &Position, counter: u32) -> Option<&'static str> {
    let value = tables.probe(pos)?.value_at(counter);
    let white_wins = match value {
        GameValue::Draw => return Some("0.5"),
        GameValue::Win => pos.to_move() == Color::White,
        GameValue::Loss => pos.to_move() == Color::Black,
    };
    Some(if white_wins { "1" } else { "0" })
}

/// Plays the games and writes the positions.
pub fn run(args: &DatagenArgs) -> Result<(), Failure> {
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&args.out)
        .map_err(|err| format!("--out {}: {err}", args.out.display()))?;
    let mut out = BufWriter::new(file);
    let write_error = |err: std::io::Error| format!("writing {}: {err}", args.out.display());
    let tables = match &args.tablebase {
        Some(dir) => Some(
            Tablebase::open(dir).map_err(|err| format!("--tablebase {}: {err}", dir.display()))?,
        ),
        None => None,
    };
    let mut engine = Engine::new(args.hash);
    let (mut written, mut dropped, mut from_tables) = (0u64, 0usize, 0u64);
    for index in 0..args.games {
        let mut rng = Rng::with_seed(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64);
        match play_game(&mut engine, args, &mut rng) {
            Some(game) => {
                for (pos, counter) in &game.positions {
                    let label = tables.as_ref().and_then(|t| table_label(t, pos, *counter));
                    from_tables += u64::from(label.is_some());
                    let label = label.unwrap_or(game.white_score);
                    writeln!(out, "{} {label}", pos.to_fen()).map_err(write_error)?;
                }
                written += game.positions.len() as u64;
            }
            None => dropped += 1,
        }
        if !args.quiet && (index + 1) % 100 == 0 {
            errln!("datagen: {} games, {written} positions", index + 1);
        }
    }
    out.flush().map_err(write_error)?;
    if !args.quiet {
        errln!(
            "datagen: {} games ({dropped} dropped), {written} positions ({from_tables} labelled by the tables) in {}",
            args.games,
            args.out.display()
        );
    }
    Ok(())
}

/// One self-play game, or `None` when the random opening ended it or the
/// game outgrew [`MAX_GAME_PLIES`].
fn play_game(engine: &mut Engine, args: &DatagenArgs, rng: &mut Rng) -> Option<Labelled> {
    let mut game = Draughts::default();
    for _ in 0..args.opening_plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.is_over() {
            return None;
        }
        let pick = moves[rng.usize(..moves.len())];
        game.play(pick).ok()?;
    }
    engine.clear();
    let limits = SearchLimits {
        nodes: Some(args.nodes),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    let mut positions = Vec::new();
    while game.status() == GameStatus::Ongoing {
        if game.moves().len() > MAX_GAME_PLIES {
            return None;
        }
        let pos = *game.position();
        if pos.is_quiet() {
            positions.push((pos, game.plies_without_progress()));
        }
        let best = engine.search(&game, &limits, &stop, &mut |_| {}).best?;
        game.play(best).ok()?;
    }
    let white_score = match game.status() {
        GameStatus::Win {
            winner: Color::White,
            ..
        } => "1",
        GameStatus::Win { .. } => "0",
        _ => "0.5",
    };
    Some(Labelled {
        positions,
        white_score,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_label_from_white_s_side() {
        let dir = std::env::temp_dir().join(format!("damas-datagen-tb-{}", std::process::id()));
        damas::spanish::tablebase::generate(&dir, 2, 1, &|_| {}).expect("generated");
        let tables = Tablebase::open(&dir).expect("opened");
        let label = |fen: &str, counter| {
            let pos = Position::from_fen(fen).expect("valid");
            table_label(&tables, &pos, counter)
        };
        // Two kings: a draw.
        assert_eq!(label("W:WK5:BK27", 0), Some("0.5"));
        // A king against a man on its own back row wins, whichever side
        // is to move: White's score 1 both times.
        assert_eq!(label("W:WK1:B32", 0), Some("1"));
        assert_eq!(label("B:WK1:B32", 0), Some("1"));
        assert_eq!(label("B:W1:BK32", 0), Some("0"));
        // Too late for the 80-ply rule: a draw.
        assert_eq!(label("W:WK1:B32", 80), Some("0.5"));
        // Beyond the tables: no label.
        assert_eq!(label("W:W1-12:B21-32", 0), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
