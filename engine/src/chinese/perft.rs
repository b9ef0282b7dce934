//! Perft: counting move sequences to check the move generator.
//!
//! Perft works on a bare [`Position`]: plain move generation with the turn
//! going round every seat in order. Finishing and the game's limits are
//! ignored (nobody finishes or is skipped), and a player without a legal move
//! passes, which counts as one move. The published reference numbers (from
//! the start position) are reproduced this way: 2 players 14, 196, 4760,
//! 115600, 3188520, 87946884; 3 players 14, 196, 2744.

use super::moves::Move;
use super::position::Position;
#[cfg(feature = "rayon")]
use rayon::prelude::*;

/// Number of leaf nodes `depth` plies below `pos` (distinct `(from, to)`
/// moves per position; bulk counting at the last ply).
///
/// Perft works on a bare [`Position`]: plain move generation with the turn
/// going round every seat in order. Finishing and the game's limits are
/// ignored (nobody finishes or is skipped), and a player without a legal
/// move passes, which counts as one move. The published numbers from the
/// start are reproduced this way: 2 players 14, 196, 4760, 115600, 3188520,
/// 87946884; 3 players 14, 196, 2744.
///
/// ```
/// use damas::chinese::{perft, Position, Rules};
/// let pos = Position::start(&Rules::default());
/// assert_eq!(perft(&pos, 3), 4760);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves().max(1),
        _ => {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                let mut child = *pos;
                child.pass_unchecked();
                return perft(&child, depth - 1);
            }
            let mut n = 0;
            for mv in &moves {
                let mut child = *pos;
                child.play_unchecked(mv);
                n += perft(&child, depth - 1);
            }
            n
        }
    }
}

/// Perft split by first move: `(Some(move), count)` per legal move, in move
/// order, or a single `(None, count)` row for the pass when the side to move
/// has no legal move; the counts sum to [`perft`]. Empty at depth 0.
///
/// ```
/// use damas::chinese::{divide, perft, Position, Rules};
/// let pos = Position::start(&Rules::default());
/// let rows = divide(&pos, 2);
/// assert_eq!(rows.len(), 14);
/// assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), perft(&pos, 2));
/// ```
pub fn divide(pos: &Position, depth: u32) -> Vec<(Option<Move>, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        let mut child = *pos;
        child.pass_unchecked();
        return vec![(None, perft(&child, depth - 1))];
    }
    moves
        .iter()
        .map(|mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            (Some(*mv), perft(&child, depth - 1))
        })
        .collect()
}

/// [`perft`] on `threads` threads of a local rayon pool; `threads == 0`
/// means all available cores. The work is split over the moves of the first
/// two plies. Falls back to the sequential count when `threads == 1`, for
/// shallow depths, or if the pool cannot be built.
///
/// ```
/// use damas::chinese::{perft_parallel, Position, Rules};
/// let pos = Position::start(&Rules::default());
/// assert_eq!(perft_parallel(&pos, 3, 2), 4760);
/// ```
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads == 1 || depth <= 2 {
        return perft(pos, depth);
    }
    parallel(pos, depth, threads)
}

/// The split over a rayon pool.
#[cfg(feature = "rayon")]
fn parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(p) => p,
        Err(_) => return perft(pos, depth),
    };
    // Split at ply 2 so that there are enough tasks for every thread.
    let mut roots = Vec::new();
    let first = pos.legal_moves();
    if first.is_empty() {
        let mut c = *pos;
        c.pass_unchecked();
        roots.push(c);
    }
    for mv in &first {
        let mut c = *pos;
        c.play_unchecked(mv);
        roots.push(c);
    }
    pool.install(|| {
        roots
            .par_iter()
            .map(|c| {
                let ms = c.legal_moves();
                if ms.is_empty() {
                    let mut g = *c;
                    g.pass_unchecked();
                    return perft(&g, depth - 2);
                }
                ms.par_iter()
                    .map(|mv| {
                        let mut g = *c;
                        g.play_unchecked(mv);
                        perft(&g, depth - 2)
                    })
                    .sum::<u64>()
            })
            .sum()
    })
}

/// Without the `rayon` feature the parallel perft counts on one thread.
#[cfg(not(feature = "rayon"))]
fn parallel(pos: &Position, depth: u32, _threads: usize) -> u64 {
    perft(pos, depth)
}
