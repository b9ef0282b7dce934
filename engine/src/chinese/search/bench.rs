//! The Chinese checkers benchmark: fixed positions for several player
//! counts and both variants, searched to a fixed depth. The total node
//! count is the search's signature.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{search, SearchOptions};
use crate::chinese::{Game, Rules, Variant};
use crate::search::{BenchResult, SearchLimits, Style};

/// Default depth of `damas bench --game chinese`.
pub const BENCH_DEPTH: u32 = 6;

/// The benchmark positions: (players, variant, moves from the start).
pub const BENCH_GAMES: [(u8, Variant, &str); 8] = [
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
pub fn bench_games() -> Vec<Game> {
    BENCH_GAMES
        .iter()
        .map(|&(players, variant, moves)| {
            let mut game = Game::new(Rules {
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

/// Searches every benchmark position to `depth` and reports each position's
/// node count through `on_position`.
pub fn bench(depth: u32, on_position: &mut dyn FnMut(&str, u64)) -> BenchResult {
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let options = SearchOptions {
        style: Style::Best,
        seed: 1,
        ..SearchOptions::default()
    };
    let mut nodes = 0;
    for game in bench_games() {
        let outcome = search(&game, &limits, &options, &stop, &mut |_| {});
        on_position(&game.to_text(), outcome.nodes);
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
        let first = bench(2, &mut |_, _| {}).nodes;
        assert!(first > 0);
        assert_eq!(bench(2, &mut |_, _| {}).nodes, first);
    }
}
