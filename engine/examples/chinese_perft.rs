//! Perft for Chinese checkers from the start position, with timing.
//!
//! ```text
//! cargo run --release -p damas --example chinese_perft -- [players] [depth] [threads] [japanese]
//! ```
//! `threads` 1 runs the single-threaded [`perft`]; more uses rayon.

use damas::chinese::{perft, perft_parallel, Position, Rules, Variant};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let players: u8 = args.first().and_then(|s| s.parse().ok()).unwrap_or(2);
    let depth: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let japanese = args.get(3).is_some_and(|s| s.starts_with('j'));
    let rules = Rules {
        players,
        variant: if japanese {
            Variant::Japanese
        } else {
            Variant::International
        },
        ..Rules::default()
    };
    if rules.variant_fallback() {
        eprintln!("note: the Japanese variant needs 1-3 players; international rules apply");
    }
    let pos = Position::start(&rules);
    println!(
        "players {players} variant {:?} threads {threads}",
        rules.effective_variant()
    );
    for d in 1..=depth {
        let t = Instant::now();
        let n = if threads <= 1 {
            perft(&pos, d)
        } else {
            perft_parallel(&pos, d, threads)
        };
        let s = t.elapsed().as_secs_f64();
        println!(
            "perft {d}: {n:>14}  {s:9.3} s  {:>8.1} Mnps",
            n as f64 / s.max(1e-9) / 1e6
        );
    }
}
