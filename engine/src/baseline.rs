//! The one-ply baseline players, [`Style::Random`] and [`Style::Greedy`],
//! written once for both games over the [`Game`] trait. Each game supplies
//! its plain evaluation through [`Baseline`]; [`Style::Plain`] is a real
//! search and stays with each game.
//!
//! # Seeding
//!
//! Every random choice of a baseline (the random move, a greedy tie) comes
//! from one generator per search, seeded by one rule: the seed is
//! [`EngineOptions::seed`](crate::search::EngineOptions::seed) when it is
//! set, else the clock, mixed with the position's hash and the number of
//! plies played. With a seed the choices are reproducible (the same game
//! and seed give the same move on every machine) and still vary from
//! position to position and along a game; without one, two engines started
//! together still differ, since the position is mixed in.
//!
//! # Greedy
//!
//! The greedy player takes the legal move whose resulting position is best
//! for it by the game's plain evaluation (material in Spanish draughts, a
//! win counting above any material; the summed goal distance in Chinese
//! checkers), one ply ahead. Moves that tie for the best value are drawn
//! uniformly at random among themselves by the rule above: always taking
//! the first in generation order would bias the player to one side of the
//! board and, in Chinese checkers, let it shuffle a piece back and forth
//! when no move makes progress.

use std::time::Instant;

use crate::game::Game;
use crate::random::{clock_seed, splitmix, Rng};
use crate::search::{Score, SearchInfo, SearchResult, Style};

/// What a game supplies to the baseline players.
pub(crate) trait Baseline: Game {
    /// Plies (turns) played so far in the game: mixed into the seed, so that
    /// a position met again later in a game may get another choice.
    fn plies_played(&self) -> u64;

    /// The plain evaluation of the position after the legal move `mv`, for
    /// the player who plays it (higher is better), on the internal score
    /// scale (see [`MATE`](crate::search::MATE)).
    fn plain_after(&self, mv: &Self::Move) -> i32;

    /// The score reported when the player to move has no legal move (lost
    /// in Spanish draughts; a pass in Chinese checkers).
    fn no_move_score(&self) -> Score;
}

/// The generator of a baseline's random choices in `game`: `seed` (or the
/// clock when `None`) mixed with the position's hash and `plies`.
pub(crate) fn rng_for<G: Game>(game: &G, plies: u64, seed: Option<u64>) -> Rng {
    let base = seed.unwrap_or_else(clock_seed);
    let (_, mixed) = splitmix(base ^ game.hash());
    let (_, mixed) = splitmix(mixed ^ plies);
    // 0 would ask `Rng::new` for the clock.
    Rng::new(mixed.max(1))
}

/// A uniformly random legal move of `game` (seeded as the module says);
/// `None` when there is none.
pub(crate) fn random_move<G: Baseline>(game: &G, seed: Option<u64>) -> Option<G::Move> {
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut rng = rng_for(game, game.plies_played(), seed);
    Some(moves[rng.below(moves.len())])
}

/// The legal move of `game` best for its player by the plain evaluation
/// one ply ahead, with its value; ties drawn at random (seeded as the
/// module says). `None` when there is no legal move.
pub(crate) fn greedy_move<G: Baseline>(game: &G, seed: Option<u64>) -> Option<(G::Move, i32)> {
    let mut rng = rng_for(game, game.plies_played(), seed);
    let mut best: Option<(G::Move, i32)> = None;
    let mut ties = 0usize;
    for mv in game.legal_moves() {
        let value = game.plain_after(&mv);
        match best {
            Some((_, b)) if value < b => {}
            Some((_, b)) if value == b => {
                ties += 1;
                if rng.below(ties) == 0 {
                    best = Some((mv, value));
                }
            }
            _ => {
                best = Some((mv, value));
                ties = 1;
            }
        }
    }
    best
}

/// The search of a one-ply baseline style ([`Style::Random`] or
/// [`Style::Greedy`]): the move, reported once as a depth-1 line with the
/// legal moves as nodes. `None` for the other styles, which are real
/// searches.
pub(crate) fn search<G: Baseline>(
    game: &G,
    style: Style,
    seed: Option<u64>,
    on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    start: Instant,
) -> Option<SearchResult<G::Move>> {
    let chosen = match style {
        Style::Random => random_move(game, seed).map(|mv| (mv, 0)),
        Style::Greedy => greedy_move(game, seed),
        Style::Best | Style::Plain => return None,
    };
    let Some((mv, value)) = chosen else {
        return Some(SearchResult {
            best: None,
            score: game.no_move_score(),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        });
    };
    let nodes = game.legal_moves().len() as u64;
    let score = Score::from_internal(value);
    on_info(&SearchInfo {
        depth: 1,
        seldepth: 1,
        score,
        nodes,
        time: start.elapsed(),
        hashfull: None,
        tbhits: None,
        pv: vec![mv],
    });
    Some(SearchResult {
        best: Some(mv),
        score,
        depth: 1,
        nodes,
        pv: vec![mv],
    })
}

/// Checks of the baseline players, written once over [`Baseline`]: each
/// game's search tests run them on its own positions, so that this module,
/// below the games, names none of them.
#[cfg(test)]
pub(crate) mod checks {
    use super::*;
    use crate::search::{EngineOptions, SearchLimits};
    use crate::Search;

    /// The random moves of `game` at seeds `1..=32`.
    fn random_moves<G: Baseline>(game: &G) -> Vec<G::Move> {
        (1..=32)
            .map(|s| random_move(game, Some(s)).expect("a move"))
            .collect()
    }

    /// A seeded random move is reproducible and differs across seeds.
    pub(crate) fn random_is_reproducible_and_seed_dependent<G: Baseline>(game: &G) {
        assert!(game.legal_moves().len() >= 7);
        let first = random_moves(game);
        assert_eq!(random_moves(game), first, "same seeds, same moves");
        let distinct: std::collections::HashSet<_> = first.iter().collect();
        assert!(distinct.len() >= 3, "seeds give different moves");
        assert!(first.iter().all(|mv| game.legal_moves().contains(mv)));
    }

    /// Greedy takes the one move of `game` that is best by the plain
    /// evaluation, at every seed.
    pub(crate) fn greedy_takes_the_clear_best<G: Baseline>(game: &G) {
        let moves = game.legal_moves();
        assert!(moves.len() >= 2);
        let values: Vec<i32> = moves.iter().map(|mv| game.plain_after(mv)).collect();
        let top = *values.iter().max().expect("moves");
        assert_eq!(values.iter().filter(|&&v| v == top).count(), 1, "one best");
        let best = moves[values.iter().position(|&v| v == top).expect("top")];
        for seed in [None, Some(1), Some(2), Some(99)] {
            assert_eq!(greedy_move(game, seed), Some((best, top)));
        }
    }

    /// The move of an engine of `game` in `style` with `seed`.
    fn engine_move<G: Baseline>(game: &G, style: Style, seed: u64) -> Option<G::Move> {
        let mut engine = G::Engine::new(1);
        engine.set_options(&EngineOptions {
            style,
            seed: Some(seed),
            ..EngineOptions::default()
        });
        let limits = SearchLimits {
            depth: Some(1),
            ..SearchLimits::default()
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        engine.search(game, &limits, &stop, &mut |_| {}).best
    }

    fn random_or_greedy<G: Baseline>(game: &G, style: Style, seed: u64) -> Option<G::Move> {
        match style {
            Style::Random => random_move(game, Some(seed)),
            _ => greedy_move(game, Some(seed)).map(|(mv, _)| mv),
        }
    }

    /// The game's engine plays the baseline styles' moves for the seed
    /// option.
    pub(crate) fn the_engine_follows_the_seed_option<G: Baseline>(game: &G) {
        for style in [Style::Random, Style::Greedy] {
            for seed in [1, 7, 12345] {
                assert_eq!(
                    engine_move(game, style, seed),
                    random_or_greedy(game, style, seed)
                );
            }
        }
    }

    /// The generator mixes the seed, the ply and the position: `other` is
    /// another position than `game`'s.
    pub(crate) fn seeding_mixes_the_position_and_the_ply<G: Game>(game: &G, other: &G) {
        let a = rng_for(game, 0, Some(5)).next_u64();
        assert_eq!(rng_for(game, 0, Some(5)).next_u64(), a);
        assert_ne!(rng_for(game, 1, Some(5)).next_u64(), a);
        assert_ne!(rng_for(game, 0, Some(6)).next_u64(), a);
        assert_ne!(game.hash(), other.hash());
        assert_ne!(rng_for(other, 0, Some(5)).next_u64(), a);
    }
}
