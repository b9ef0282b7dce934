//! `damas bench`: the fixed Spanish draughts search benchmark. The total
//! node count is the search's signature; nodes per second measure speed.

use clap::Args;
use damas::spanish::search::{bench, BENCH_DEPTH};

/// Arguments of `damas bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of each search.
    #[arg(long, default_value_t = BENCH_DEPTH)]
    depth: u32,
    /// Print the nodes of each position.
    #[arg(long)]
    verbose: bool,
}

/// Runs the benchmark and prints `nodes N`, `time S`, `nps N`.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let verbose = args.verbose;
    let result = bench(args.depth, &mut |fen, nodes| {
        if verbose {
            println!("{nodes:>12}  {fen}");
        }
    });
    println!("depth {}", args.depth);
    println!("nodes {}", result.nodes);
    println!("time {:.3} s", result.time.as_secs_f64());
    println!("nps {}", result.nps());
    Ok(())
}
