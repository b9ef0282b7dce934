//! `damas bench`: the fixed search benchmarks. The total node count is the
//! search's signature; nodes per second measure speed.

use clap::{Args, ValueEnum};
use damas::search::BenchResult;

use crate::output::{outln, Failure};

/// Which game's suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchGame {
    /// Spanish draughts (alpha-beta).
    Spanish,
    /// Chinese checkers, 2–6 players and the Japanese variant.
    Chinese,
}

/// Arguments of `damas bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game whose search is measured.
    #[arg(long, value_enum, default_value_t = BenchGame::Spanish)]
    game: BenchGame,
    /// Depth of each search, 1 to 120 (default: the suite's own).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=120))]
    depth: Option<u32>,
    /// Print the nodes of each position.
    #[arg(long)]
    verbose: bool,
}

/// Runs the benchmark and prints `depth`, `nodes N`, `time S`, `nps N`.
pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    let verbose = args.verbose;
    // The first failed write; the suite runs on (it cannot be stopped
    // midway) but prints nothing more.
    let mut failed: Option<Failure> = None;
    let mut report = |position: &str, nodes: u64| {
        if verbose && failed.is_none() {
            failed = outln!("{nodes:>12}  {position}").err();
        }
    };
    let (depth, result): (u32, BenchResult) = match args.game {
        BenchGame::Spanish => {
            use damas::spanish::{bench_with, BENCH_DEPTH};
            let depth = args.depth.unwrap_or(BENCH_DEPTH);
            (depth, bench_with(depth, &mut report))
        }
        BenchGame::Chinese => {
            use damas::chinese::{bench_with, BENCH_DEPTH};
            let depth = args.depth.unwrap_or(BENCH_DEPTH);
            (depth, bench_with(depth, &mut report))
        }
    };
    if let Some(failure) = failed {
        return Err(failure);
    }
    outln!("depth {depth}")?;
    outln!("nodes {}", result.nodes)?;
    outln!("time {:.3} s", result.time.as_secs_f64())?;
    outln!("nps {}", result.nps())?;
    Ok(())
}
