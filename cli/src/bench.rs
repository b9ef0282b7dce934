//! `damas bench`: the fixed search benchmarks. The total node count is the
//! search's signature; nodes per second measure speed.

use clap::Args;
use damas::options::Options;
use damas::GameKind;

use crate::output::{outln, Failure};
use crate::perft::game_parser;

/// Arguments of `damas bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game whose search is measured (`chinese` and `japanese` run
    /// the star's suite, which has positions of both variants).
    #[arg(long, value_parser = game_parser(), default_value_t = Options::default().game)]
    game: GameKind,
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
    let depth = args.depth.unwrap_or(args.game.bench_depth());
    let result = args.game.bench_with(depth, &mut report);
    if let Some(failure) = failed {
        return Err(failure);
    }
    outln!("depth {depth}")?;
    outln!("nodes {}", result.nodes)?;
    outln!("time {:.3} s", result.time.as_secs_f64())?;
    outln!("nps {}", result.nps())?;
    Ok(())
}
