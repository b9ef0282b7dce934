//! The Chinese checkers benchmark: fixed positions for several player
//! counts and both variants, searched to a fixed depth. The total node
//! count is the search's signature.

use crate::Search;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::Engine;
use crate::chinese::{Checkers, Rules, Variant};
use crate::search::{BenchResult, SearchLimits};
use crate::Game;

/// Depth of [`bench()`] (`damas bench --game chinese`).
pub const BENCH_DEPTH: u32 = 6;

/// Transposition table size of the benchmark, in MiB (2^18 entries).
const BENCH_HASH_MB: usize = 4;

/// The benchmark positions: (players, variant, moves from the start).
const BENCH_GAMES: [(u8, Variant, &str); 8] = [
    (2, Variant::International, ""),
    (2, Variant::International, "e4-e5 m14-m13 e3-e4"),
    (3, Variant::International, ""),
    (3, Variant::International, "e4-e5"),
    (4, Variant::International, ""),
    (6, Variant::International, ""),
    (2, Variant::Japanese, ""),
    (3, Variant::Japanese, ""),
];

/// The games of [`BENCH_GAMES`], built (a move that does not apply leaves
/// the game where it stands, so the suite is always complete).
fn bench_games() -> Vec<Checkers> {
    BENCH_GAMES
        .iter()
        .map(|&(players, variant, moves)| {
            let mut game = Checkers::new(Rules {
                players,
                variant,
                ..Rules::default()
            });
            for mv in moves.split_whitespace() {
                if game.play_text(mv).is_err() {
                    break;
                }
            }
            game
        })
        .collect()
}

/// The benchmark of `damas bench --game chinese`: every benchmark position
/// searched to [`BENCH_DEPTH`], each from a cleared 4 MiB engine with the
/// default options.
///
/// `BenchResult::nodes` is the search's signature (383341 today).
pub fn bench() -> BenchResult {
    bench_with(BENCH_DEPTH, &mut |_, _| {})
}

/// [`bench()`] to `depth` instead of [`BENCH_DEPTH`]; `on_position` sees
/// each position's text with its node count (`damas bench --game chinese
/// --depth N --verbose`).
pub fn bench_with(depth: u32, on_position: &mut dyn FnMut(&str, u64)) -> BenchResult {
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let mut engine = Engine::new(BENCH_HASH_MB);
    let mut nodes = 0;
    for game in bench_games() {
        engine.clear();
        let outcome = engine.search(&game, &limits, &stop, &mut |_| {});
        on_position(&game.to_string(), outcome.nodes);
        nodes += outcome.nodes;
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
    fn every_bench_game_is_built_with_its_moves() {
        let games = bench_games();
        assert_eq!(games.len(), BENCH_GAMES.len());
        for (game, (_, _, moves)) in games.iter().zip(BENCH_GAMES) {
            assert_eq!(game.ply() as usize, moves.split_whitespace().count());
        }
    }

    #[test]
    fn the_signature_is_reproducible() {
        let first = bench_with(2, &mut |_, _| {}).nodes;
        assert!(first > 0);
        assert_eq!(bench_with(2, &mut |_, _| {}).nodes, first);
    }
}
