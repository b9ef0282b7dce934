//! Perft for Chinese checkers, with timing.
//!
//! ```text
//! cargo run --release -p damas --example chinese_perft -- \
//!     [--players N] [--depth D] [--threads T] [--variant international|japanese] \
//!     [--goal-lock] [--position TEXT] [--divide]
//! ```
//!
//! Defaults: 2 players, depth 5, 1 thread (the single-threaded `perft`;
//! more threads use rayon), the start position. Every depth from 1 to D is
//! timed; `--divide` prints the count under each first move at depth D
//! instead. `--position` takes a position text (see docs/NOTATION.md).

use damas::chinese::{divide, perft, perft_parallel, Checkers, Position, Rules, Variant};
use damas::Game;
use std::process::exit;
use std::str::FromStr;
use std::time::Instant;

fn usage(msg: &str) -> ! {
    eprintln!("chinese_perft: {msg}");
    eprintln!(
        "usage: chinese_perft [--players N] [--depth D] [--threads T] \
         [--variant international|japanese] [--goal-lock] [--position TEXT] [--divide]"
    );
    exit(2)
}

fn main() {
    let mut rules = Rules::default();
    let mut depth = 5u32;
    let mut threads = 1usize;
    let mut text: Option<String> = None;
    let mut div = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = |name: &str| {
            args.next()
                .unwrap_or_else(|| usage(&format!("{name} needs a value")))
        };
        match a.as_str() {
            "--players" => {
                rules.players = val("--players")
                    .parse()
                    .ok()
                    .filter(|n| (1..=6).contains(n))
                    .unwrap_or_else(|| usage("players must be 1 to 6"))
            }
            "--depth" => {
                depth = val("--depth")
                    .parse()
                    .unwrap_or_else(|_| usage("bad depth"))
            }
            "--threads" => {
                threads = val("--threads")
                    .parse()
                    .unwrap_or_else(|_| usage("bad thread count"))
            }
            "--variant" => {
                rules.variant = match val("--variant").as_str() {
                    "international" | "i" => Variant::International,
                    "japanese" | "j" => Variant::Japanese,
                    v => usage(&format!("unknown variant {v}")),
                }
            }
            "--goal-lock" => rules.goal_lock = true,
            "--position" => text = Some(val("--position")),
            "--divide" => div = true,
            "-h" | "--help" => usage("perft for Chinese checkers"),
            _ => usage(&format!("unknown argument {a}")),
        }
    }
    let pos: Position = match &text {
        Some(t) => *Checkers::from_str(t)
            .unwrap_or_else(|e| usage(&e.to_string()))
            .position(),
        None => {
            if rules.variant_fallback() {
                eprintln!(
                    "note: the Japanese variant is for 1-3 players; international rules apply"
                );
            }
            Position::start(&rules)
        }
    };
    println!(
        "players {} variant {:?} goal lock {} threads {threads}",
        pos.players(),
        pos.variant(),
        pos.goal_lock()
    );
    if div {
        let t = Instant::now();
        let parts = divide(&pos, depth);
        let game = Checkers::from_position(rules, pos);
        let mut total = 0;
        for (mv, n) in &parts {
            let text = mv.map_or_else(|| "pass".to_string(), |m| game.move_text(&m));
            println!("{text:<16} {n}");
            total += n;
        }
        println!(
            "moves {} total {total}  {:.3} s",
            parts.len(),
            t.elapsed().as_secs_f64()
        );
        return;
    }
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
