//! Perft: counting move sequences to check the move generator.
//!
//! Perft works on a bare [`Position`]: plain move generation with the turn
//! going round every seat in order. Finishing and the game's limits are
//! ignored (nobody finishes or is skipped), and a player without a legal move
//! passes, which counts as one move. The published reference numbers (from
//! the start position) are reproduced this way: 2 players 14, 196, 4760,
//! 115600, 3188520, 87946884; 3 players 14, 196, 2744.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::parallel::sum_counts;
use crate::perft_table::{sum_counts_hashed, PerftTable};

use super::moves::Move;
use super::perft_two::perft_two;
use super::position::Position;
use super::rules::Variant;

/// Depth at or below which the interruptible perft counts without looking
/// at its stop flag: four plies are about 10^5 leaves from the start (a few
/// milliseconds), and the plain count keeps its speed.
const STOP_CHECK_DEPTH: u32 = 4;

/// The positions after each move of the player to move, or after the pass
/// when there is none (perft counts a forced pass as a move).
fn children(pos: &Position) -> Vec<(Option<Move>, Position)> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        let mut child = *pos;
        child.pass_unchecked();
        return vec![(None, child)];
    }
    moves
        .iter()
        .map(|mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            (Some(*mv), child)
        })
        .collect()
}

/// [`perft`] that gives up (`None`) soon after `stop` is raised.
fn perft_until(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= STOP_CHECK_DEPTH {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    children(pos)
        .iter()
        .map(|(_, child)| perft_until(child, depth - 1, stop))
        .sum()
}

/// [`divide`] that gives up (`None`) soon after `stop` is raised.
pub(crate) fn divide_until(
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(Option<Move>, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    children(pos)
        .iter()
        .map(|(mv, child)| Some((*mv, perft_until(child, depth - 1, stop)?)))
        .collect()
}

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
        2 if pos.cfg().variant == Variant::International && !pos.cfg().goal_lock => {
            match perft_two(pos) {
                Some(n) => n,
                None => {
                    let mut child = *pos;
                    child.pass_unchecked();
                    child.count_legal_moves().max(1)
                }
            }
        }
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
    children(pos)
        .iter()
        .map(|(mv, child)| (*mv, perft(child, depth - 1)))
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
    // Never raised: the count always completes.
    parallel(pos, depth, threads, &AtomicBool::new(false)).unwrap_or(0)
}

/// [`perft_parallel`] that gives up (`None`) soon after `stop` is raised.
pub(crate) fn perft_parallel_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<u64> {
    if threads == 1 || depth <= 2 {
        return perft_until(pos, depth, stop);
    }
    parallel(pos, depth, threads, stop)
}

/// The positions two plies deep, where the parallel counts split the work.
fn frontier(pos: &Position) -> Vec<Position> {
    children(pos)
        .iter()
        .flat_map(|(_, child)| {
            children(child)
                .into_iter()
                .map(|(_, grandchild)| grandchild)
        })
        .collect()
}

/// The split over a thread pool, on the [`frontier`].
fn parallel(pos: &Position, depth: u32, threads: usize, stop: &AtomicBool) -> Option<u64> {
    sum_counts(&frontier(pos), threads, |p| perft_until(p, depth - 2, stop))
}

/// The table key of a position: its Zobrist hash (pieces, kings, player to
/// move) and its occupancy folded into a second word, so that a false
/// match needs two 64-bit coincidences at once.
#[inline]
fn table_key(pos: &Position) -> [u64; 2] {
    let occ = pos.occ.0;
    [pos.hash, (occ as u64) ^ ((occ >> 64) as u64).rotate_left(7)]
}

/// Depth below which subtrees are counted without the table.
const HASH_MIN_DEPTH: u32 = 3;

fn perft_hashed_inner(
    pos: &Position,
    depth: u32,
    table: &mut PerftTable,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth < HASH_MIN_DEPTH {
        return Some(perft(pos, depth));
    }
    let key = table_key(pos);
    if let Some(n) = table.probe(&key, depth) {
        return Some(n);
    }
    if depth > STOP_CHECK_DEPTH && stop.load(Ordering::Relaxed) {
        return None;
    }
    let moves = pos.legal_moves();
    let n = if moves.is_empty() {
        let mut child = *pos;
        child.pass_unchecked();
        perft_hashed_inner(&child, depth - 1, table, stop)?
    } else {
        let mut n = 0u64;
        for mv in &moves {
            let mut child = *pos;
            child.play_unchecked(mv);
            n = n.saturating_add(perft_hashed_inner(&child, depth - 1, table, stop)?);
        }
        n
    };
    table.store(key, depth, n);
    Some(n)
}

/// [`perft`] with a transposition table of about `hash_mb` MiB (1 to
/// [`MAX_PERFT_HASH_MB`](crate::MAX_PERFT_HASH_MB)) on `threads` threads
/// (0: every core; each thread has its own share of the table): a
/// position reached by several move orders is counted once. The key is the
/// Zobrist hash with the folded occupancy (128 bits), so a wrong count
/// would need two 64-bit coincidences; cross-check deep counts with two
/// table sizes.
///
/// ```
/// use damas::chinese::{perft, perft_hashed, Position, Rules};
/// let pos = Position::start(&Rules::default());
/// assert_eq!(perft_hashed(&pos, 4, 1, 16), perft(&pos, 4));
/// ```
pub fn perft_hashed(pos: &Position, depth: u32, threads: usize, hash_mb: usize) -> u64 {
    // Never raised: the count always completes.
    perft_hashed_until(pos, depth, threads, hash_mb, &AtomicBool::new(false)).unwrap_or(0)
}

/// [`perft_hashed`] that gives up (`None`) soon after `stop` is raised.
pub(crate) fn perft_hashed_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    hash_mb: usize,
    stop: &AtomicBool,
) -> Option<u64> {
    if threads == 1 || depth <= 2 {
        let mut table = PerftTable::new(hash_mb);
        return perft_hashed_inner(pos, depth, &mut table, stop);
    }
    sum_counts_hashed(&frontier(pos), threads, hash_mb, stop, |p, table| {
        perft_hashed_inner(p, depth - 2, table, stop)
    })
}
