//! Spanish draughts perft with timing.
//!
//! ```text
//! cargo run --release -p damas --example spanish_perft -- <depth> [--fen FEN] [--threads N] [--divide]
//! ```

use std::time::Instant;

use damas::spanish::{divide, perft, perft_parallel, Position};

fn main() {
    let mut depth: u32 = 8;
    let mut fen: Option<String> = None;
    let mut threads = 1usize;
    let mut show_divide = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--fen" => fen = args.next(),
            "--threads" => threads = args.next().and_then(|t| t.parse().ok()).unwrap_or(1),
            "--divide" => show_divide = true,
            other => match other.parse() {
                Ok(d) => depth = d,
                Err(_) => {
                    eprintln!("usage: spanish_perft <depth> [--fen FEN] [--threads N] [--divide]");
                    std::process::exit(2);
                }
            },
        }
    }
    let pos = match fen {
        Some(f) => match Position::from_fen(&f) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad FEN: {e}");
                std::process::exit(2);
            }
        },
        None => Position::start(),
    };
    let t = Instant::now();
    let nodes = if show_divide {
        let mut total = 0;
        for (mv, n) in divide(&pos, depth) {
            println!("{} {n}", pos.move_text(&mv));
            total += n;
        }
        total
    } else if threads > 1 {
        perft_parallel(&pos, depth, threads)
    } else {
        perft(&pos, depth)
    };
    let secs = t.elapsed().as_secs_f64();
    println!(
        "perft {depth} = {nodes}  time {secs:.3} s  {:.1} Mnps  (threads {threads})",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
}
