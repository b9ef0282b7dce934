//! Perft: counting the leaves of the legal move tree, for testing move
//! generation and measuring its speed.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::parallel::sum_counts;

use super::color::Color;
use super::movegen::{count, visit};
use super::moves::Move;
use super::position::Position;
use super::tables::{ROW_1, ROW_8};

/// Copy-make without the hash update (perft never reads the hash).
#[inline(always)]
fn child(pos: &Position, mv: &Move) -> Position {
    let mut p = *pos;
    let promo = match pos.side {
        Color::White => ROW_8,
        Color::Black => ROW_1,
    };
    let king = pos.kings & (1 << mv.from) != 0 || promo & (1 << mv.to) != 0;
    p.apply(mv.from, mv.to, mv.captured, king);
    p
}

fn perft_side<const W: bool>(pos: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return count::<W>(pos) as u64;
    }
    let mut n = 0;
    visit::<W, _>(pos, |c| {
        n += if W {
            perft_side::<false>(c, depth - 1)
        } else {
            perft_side::<true>(c, depth - 1)
        };
    });
    n
}

/// Perft for `depth >= 1`.
fn perft_inner(pos: &Position, depth: u32) -> u64 {
    match pos.side {
        Color::White => perft_side::<true>(pos, depth),
        Color::Black => perft_side::<false>(pos, depth),
    }
}

/// Number of move sequences of length `depth` from `pos` (each move being a
/// unique (from, to, captured set)). The last ply is counted without making
/// the moves.
///
/// ```
/// use damas::spanish::{perft, Position};
/// assert_eq!(perft(&Position::start(), 3), 302);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_inner(pos, depth)
}

/// Perft split by root move: each legal move with the perft of the
/// position after it at `depth - 1`. Empty at depth 0.
///
/// ```
/// use damas::spanish::{divide, Position};
/// let d = divide(&Position::start(), 2);
/// assert_eq!(d.len(), 7);
/// assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 49);
/// ```
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|mv| (*mv, perft(&child(pos, mv), depth - 1)))
        .collect()
}

/// Depth at or below which the interruptible perft counts without looking
/// at its stop flag: a subtree of 6 plies is some 10^5 leaves
/// from ordinary positions (milliseconds), and the plain count keeps its
/// speed.
const STOP_CHECK_DEPTH: u32 = 6;

/// [`perft`] that gives up (`None`) soon after `stop` is raised.
fn perft_until(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= STOP_CHECK_DEPTH {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    pos.legal_moves()
        .iter()
        .map(|mv| perft_until(&child(pos, mv), depth - 1, stop))
        .sum()
}

/// [`divide`] that gives up (`None`) soon after `stop` is raised.
pub(crate) fn divide_until(
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    pos.legal_moves()
        .iter()
        .map(|mv| Some((*mv, perft_until(&child(pos, mv), depth - 1, stop)?)))
        .collect()
}

/// [`perft_parallel`] that gives up (`None`) soon after `stop` is raised.
pub(crate) fn perft_parallel_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<u64> {
    if threads == 1 || depth < 4 {
        return perft_until(pos, depth, stop);
    }
    parallel(pos, depth, threads, stop)
}

/// Perft on `threads` threads of a local rayon pool; `threads == 0` means
/// all available cores. The work is split on the positions two plies from
/// the root for balance. Falls back to the sequential count when
/// `threads == 1`, for shallow depths, or if the pool cannot be built.
///
/// ```
/// use damas::spanish::{perft_parallel, Position};
/// assert_eq!(perft_parallel(&Position::start(), 5, 2), 7361);
/// ```
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads == 1 || depth < 4 {
        return perft(pos, depth);
    }
    // Never raised: the count always completes.
    parallel(pos, depth, threads, &AtomicBool::new(false)).unwrap_or(0)
}

/// The split over a thread pool, on the positions two plies from the
/// root for balance.
fn parallel(pos: &Position, depth: u32, threads: usize, stop: &AtomicBool) -> Option<u64> {
    let mut frontier = Vec::new();
    for a in &pos.legal_moves() {
        let p1 = child(pos, a);
        for b in &p1.legal_moves() {
            frontier.push(child(&p1, b));
        }
    }
    sum_counts(&frontier, threads, |p| perft_until(p, depth - 2, stop))
}
