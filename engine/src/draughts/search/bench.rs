//! The benchmark: a fixed set of positions searched to a fixed depth on one
//! thread, each from a cleared engine. The total node count is the search's
//! signature: it changes exactly when the search's behaviour changes.

use crate::Search;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::Engine;
use crate::draughts::{Draughts, Position};
use crate::search::{BenchResult, SearchLimits};

/// Depth of [`bench()`] (`damas bench`).
pub const BENCH_DEPTH: u32 = 16;

/// Transposition table size of the benchmark, in MiB.
const BENCH_HASH_MB: usize = 16;

/// The benchmark positions: the start, openings, middle games and endings
/// (taken from fixed-seed self-play and hand-made endings).
const BENCH_FENS: [&str; 12] = [
    "W:W1-12:B21-32",
    "B:W1-10,12,15:B21-32",
    "W:W1-9,11,12,14:B18,21-24,26-32",
    "W:W1-4,6-8,10,11,13,14,16:B17,19,21-24,26,27,29-32",
    "B:W1,2,4-6,8,11,13,14,16:B17,19,20,22,24,26,27,29-31",
    "W:W2,3,5,6,9,12,13,14,15:B17,19,20,22,23,26,28,30",
    "B:W1,3,5,9,10,14,15,16:B18,20,21,23,25,27,29",
    "W:W1,2,7,10,13:B19,22,25,29,31",
    "W:WK3,6,9,14:B20,23,27,28",
    "B:WK10,K26:B13,21",
    "W:WK1,K2,K3:BK19",
    "B:W5,9,K30:BK14,24,27",
];

/// The benchmark of `damas bench`: every benchmark position searched to
/// [`BENCH_DEPTH`] on one thread, each from a cleared 16 MiB engine.
///
/// `BenchResult::nodes` is the search's signature (1844636 today).
pub fn bench() -> BenchResult {
    bench_with(BENCH_DEPTH, &mut |_, _| {})
}

/// [`bench()`] to `depth` instead of [`BENCH_DEPTH`]; `on_position` sees
/// each position's FEN with its node count (`damas bench --depth N
/// --verbose`).
pub fn bench_with(depth: u32, on_position: &mut dyn FnMut(&str, u64)) -> BenchResult {
    let start = Instant::now();
    let mut nodes = 0;
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let mut engine = Engine::new(BENCH_HASH_MB);
    for fen in BENCH_FENS {
        let pos = Position::from_fen(fen).unwrap_or_else(|_| unreachable!("bench FENs are valid"));
        engine.clear();
        let r = engine.search(&Draughts::new(pos), &limits, &stop, &mut |_| {});
        on_position(fen, r.nodes);
        nodes += r.nodes;
    }
    BenchResult {
        nodes,
        time: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_reproducible() {
        let first = bench_with(5, &mut |_, _| {}).nodes;
        assert!(first > 0);
        assert_eq!(bench_with(5, &mut |_, _| {}).nodes, first);
    }
}
