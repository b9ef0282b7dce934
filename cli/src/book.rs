//! `damas book`: builds the Spanish draughts opening book by self-play
//! ([`damas::spanish::build_book`]) and writes it as the text the engine
//! ships (`engine/data/spanish_book.txt`). The same arguments write the
//! same file: the games are single-threaded and depth-limited, their
//! random plies seeded.

use std::path::PathBuf;

use clap::Args;
use damas::spanish::{build_book, BookSettings};

use crate::output::{errln, outln, Failure};

/// Arguments of `damas book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    /// Where to write the book.
    #[arg(long)]
    pub out: PathBuf,
    /// Self-play games, 1 to 100,000.
    #[arg(long, default_value_t = BookSettings::default().games,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Plies of each game kept in the book, 1 to 40.
    #[arg(long, default_value_t = BookSettings::default().plies,
          value_parser = clap::value_parser!(u32).range(1..=40))]
    pub plies: u32,
    /// Random plies at the start of each game (0 to 10), for variety.
    #[arg(long, default_value_t = BookSettings::default().random_plies,
          value_parser = clap::value_parser!(u32).range(0..=10))]
    pub random_plies: u32,
    /// Depth of the search that scores each move, 2 to 30.
    #[arg(long, default_value_t = BookSettings::default().depth,
          value_parser = clap::value_parser!(u32).range(2..=30))]
    pub depth: u32,
    /// Moves scored within this many centi-men of the best are kept, 0 to
    /// 1000.
    #[arg(long, default_value_t = BookSettings::default().keep,
          value_parser = clap::value_parser!(i32).range(0..=1000))]
    pub keep: i32,
    /// Seed of the random plies and of the choices among near-equal
    /// moves, 1 to 2^63.
    #[arg(long, default_value_t = BookSettings::default().seed,
          value_parser = clap::value_parser!(u64).range(1..=i64::MAX as u64))]
    pub seed: u64,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `damas book`.
pub fn run(args: &BookArgs) -> Result<(), Failure> {
    let settings = BookSettings {
        games: args.games,
        plies: args.plies,
        random_plies: args.random_plies,
        depth: args.depth,
        keep: args.keep,
        seed: args.seed,
    };
    let quiet = args.quiet;
    let book = build_book(&settings, &mut |games, positions| {
        if !quiet && (games % 20 == 0 || games == settings.games) {
            errln!(
                "damas book: {games} of {} games, {positions} positions scored",
                settings.games
            );
        }
    });
    let header = format!(
        "Spanish draughts opening book: FEN MOVE SCORE COUNT per line (score in centi-men for the side to move, count: times the self-play chose it).\nBuilt by: damas book --games {} --plies {} --random-plies {} --depth {} --keep {} --seed {}",
        settings.games, settings.plies, settings.random_plies, settings.depth, settings.keep, settings.seed
    );
    std::fs::write(&args.out, book.text(&header))
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    outln!(
        "damas book: {} positions written to {}",
        book.len(),
        args.out.display()
    )?;
    Ok(())
}
