//! Building the opening book ([`Book`]) by self-play: the command
//! `damas book` and the shipped `engine/data/spanish_book.txt`.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use crate::draughts::book::{Book, BookMove, PLAY_MARGIN};
use crate::draughts::{Draughts, Engine, Position};
use crate::game::{Game, Search};
use crate::random::Rng;
use crate::search::{EngineOptions, Score, SearchLimits, Style};

/// How a book is built: `games` self-play games of `plies` plies each,
/// the first `random_plies` of them random, every position's moves scored
/// by a search of `depth` plies after them, moves within `keep` of the
/// best kept. The same settings give the same book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookSettings {
    /// Self-play games.
    pub games: u32,
    /// Plies of each game in the book.
    pub plies: u32,
    /// Random plies at the start of each game.
    pub random_plies: u32,
    /// Depth of the search scoring each move.
    pub depth: u32,
    /// Moves scored within this many centi-men of the best are kept.
    pub keep: i32,
    /// Seed of the random plies and of the choices among near-equal moves.
    pub seed: u64,
}

impl Default for BookSettings {
    fn default() -> BookSettings {
        BookSettings {
            games: 400,
            plies: 12,
            random_plies: 2,
            depth: 14,
            keep: 20,
            seed: 1,
        }
    }
}

/// Transposition table of the building searches, in MiB (fixed, so that
/// the book does not depend on the machine).
const BUILD_HASH_MB: usize = 64;

/// A score in centi-men, a proven result far above any.
fn centi_men(score: Score) -> i32 {
    match score {
        Score::Centi(c) => c,
        Score::Win(plies) => 30_000 - i32::try_from(plies).unwrap_or(0),
        Score::Loss(plies) => -30_000 + i32::try_from(plies).unwrap_or(0),
    }
}

/// Builds a book by self-play (see [`BookSettings`]); `progress` is
/// called after each game with the games done and the positions scored.
/// Single-threaded and depth-limited, so that it replays exactly.
pub fn build(settings: &BookSettings, progress: &mut dyn FnMut(u32, usize)) -> Book {
    let mut engine = Engine::new(BUILD_HASH_MB);
    engine.set_options(&EngineOptions {
        threads: 1,
        style: Style::Best,
        own_book: false,
        ..EngineOptions::default()
    });
    let limits = SearchLimits {
        depth: Some(settings.depth.saturating_sub(1).max(1)),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    // Every position met: its moves' scores and how often each was chosen.
    let mut scored: HashMap<u64, (Position, Vec<BookMove>)> = HashMap::new();
    let mut rng = Rng::new(settings.seed.max(1));
    for game_index in 0..settings.games {
        let mut game = Draughts::default();
        for ply in 0..settings.plies {
            if game.is_over() {
                break;
            }
            let position = *game.position();
            let (_, moves) = scored.entry(position.hash()).or_insert_with(|| {
                let scores = game
                    .legal_moves()
                    .into_iter()
                    .map(|mv| {
                        let mut child = game.clone();
                        // A legal move of the game: it plays.
                        let _ = child.play(mv);
                        let score = if child.is_over() {
                            mover_result(&child)
                        } else {
                            -centi_men(engine.search(&child, &limits, &stop, &mut |_| {}).score)
                        };
                        BookMove {
                            mv,
                            score,
                            count: 0,
                        }
                    })
                    .collect();
                (position, scores)
            });
            let chosen = if ply < settings.random_plies {
                rng.below(moves.len())
            } else {
                let best = moves.iter().map(|m| m.score).max().unwrap_or(0);
                let near: Vec<usize> = (0..moves.len())
                    .filter(|&i| moves[i].score >= best - PLAY_MARGIN)
                    .collect();
                near[rng.below(near.len())]
            };
            moves[chosen].count += 1;
            let mv = moves[chosen].mv;
            let _ = game.play(mv);
        }
        progress(game_index + 1, scored.len());
    }
    let mut positions = HashMap::new();
    for (hash, (position, moves)) in scored {
        let best = moves.iter().map(|m| m.score).max().unwrap_or(0);
        let kept: Vec<BookMove> = moves
            .into_iter()
            .filter(|m| m.score >= best - settings.keep)
            .collect();
        positions.insert(hash, (position, kept));
    }
    Book::from_positions(positions)
}

/// The score, in centi-men for the player who just moved, of a game that
/// ended with their move: a draw, or their win.
fn mover_result(child: &Draughts) -> i32 {
    match child.outcome() {
        Some(outcome) if !outcome.is_draw() => 30_000 - 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_repeats_exactly() {
        let settings = BookSettings {
            games: 3,
            plies: 3,
            random_plies: 1,
            depth: 3,
            keep: 30,
            seed: 5,
        };
        let a = build(&settings, &mut |_, _| {}).text("h");
        let b = build(&settings, &mut |_, _| {}).text("h");
        assert_eq!(a, b);
        let book = Book::parse(&a).expect("a built book reads");
        assert!(!book.moves(&Position::start()).is_empty());
    }
}
