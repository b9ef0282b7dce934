//! Perft: counting move sequences to check the move generator.
//!
//! Perft works on a bare [`Position`]: plain move generation with the turn
//! going round every seat in order. Finishing and the game's limits are
//! ignored (nobody finishes or is skipped), and a player without a legal move
//! passes, which counts as one move. The published reference numbers (from
//! the start position) are reproduced this way: 2 players 14, 196, 4760,
//! 115600, 3188520, 87946884; 3 players 14, 196, 2744.

use super::movegen::Move;
use super::position::Position;
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
        1 => pos.count_moves().max(1),
        _ => {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                let mut child = *pos;
                child.pass();
                return perft(&child, depth - 1);
            }
            let mut n = 0;
            for mv in &moves {
                let mut child = *pos;
                child.play(mv);
                n += perft(&child, depth - 1);
            }
            n
        }
    }
}

/// Perft split by first move: `(move, count)` per legal move, in move
/// order. A forced pass shows as an empty list.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|mv| {
            let mut child = *pos;
            child.play(mv);
            (*mv, perft(&child, depth - 1))
        })
        .collect()
}

/// [`perft`] on `threads` threads (rayon; 0 means rayon's default), splitting
/// the work over the moves of the first two plies.
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth <= 2 {
        return perft(pos, depth);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("rayon thread pool");
    // Split at ply 2 so that there are enough tasks for every thread.
    let mut roots = Vec::new();
    let first = pos.legal_moves();
    if first.is_empty() {
        let mut c = *pos;
        c.pass();
        roots.push(c);
    }
    for mv in &first {
        let mut c = *pos;
        c.play(mv);
        roots.push(c);
    }
    pool.install(|| {
        roots
            .par_iter()
            .map(|c| {
                let ms = c.legal_moves();
                if ms.is_empty() {
                    let mut g = *c;
                    g.pass();
                    return perft(&g, depth - 2);
                }
                ms.par_iter()
                    .map(|mv| {
                        let mut g = *c;
                        g.play(mv);
                        perft(&g, depth - 2)
                    })
                    .sum::<u64>()
            })
            .sum()
    })
}
