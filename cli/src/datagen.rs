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

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;
use damas::search::SearchLimits;
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
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// One finished game: its quiet positions and White's score.
struct Labelled {
    positions: Vec<Position>,
    white_score: &'static str,
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
    let mut engine = Engine::new(args.hash);
    let (mut written, mut dropped) = (0u64, 0usize);
    for index in 0..args.games {
        let mut rng = Rng::with_seed(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64);
        match play_game(&mut engine, args, &mut rng) {
            Some(game) => {
                for pos in &game.positions {
                    writeln!(out, "{} {}", pos.to_fen(), game.white_score).map_err(write_error)?;
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
            "datagen: {} games ({dropped} dropped), {written} positions in {}",
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
            positions.push(pos);
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
