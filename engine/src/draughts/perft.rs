//! Perft: counting the leaves of the legal move tree, for testing move
//! generation and measuring its speed.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::parallel::sum_counts;
use crate::perft_table::{sum_counts_hashed, PerftTable};

use super::captures::CaptureOrders;
use super::color::Color;
use super::movegen::{count, count_with_orders, legal_moves_with_orders, visit};
use super::moves::{Move, MoveList};
use super::perft_two::perft_two;
use super::position::Position;
use super::rules::{with_rules, VariantRules};
use super::tables::{ROW_1, ROW_8};

/// Copy-make without the hash update (perft never reads the hash).
#[inline(always)]
fn child(pos: &Position, mv: &Move) -> Position {
    let mut p = *pos;
    let promo = match pos.side {
        Color::White => ROW_8,
        Color::Black => ROW_1,
    };
    let king = pos.kings & (1 << mv.from) != 0 || promo & (1 << mv.to) != 0 || mv.crowned;
    p.apply(mv.from, mv.to, mv.captured, king);
    p
}

fn perft_side<const W: bool, R: VariantRules>(pos: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return count::<W, R>(pos) as u64;
    }
    // The two-ply count reads men that capture forward only.
    if depth == 2 && !R::MEN_CAPTURE_BACKWARD {
        return perft_two::<W, R>(pos);
    }
    let mut n = 0;
    visit::<W, R, _>(pos, |c| {
        n += if W {
            perft_side::<false, R>(c, depth - 1)
        } else {
            perft_side::<true, R>(c, depth - 1)
        };
    });
    n
}

/// Perft for `depth >= 1`.
fn perft_inner(pos: &Position, depth: u32) -> u64 {
    with_rules!(pos.rules.variant(), R => match pos.side {
        Color::White => perft_side::<true, R>(pos, depth),
        Color::Black => perft_side::<false, R>(pos, depth),
    })
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
/// all available cores. The work is split on the positions three plies from
/// the root (two at depth 4) for balance. Falls back to the sequential count when
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

/// The positions `plies` plies from `pos`, where the parallel counts split
/// the work (for balance).
fn frontier(pos: &Position, plies: u32) -> Vec<Position> {
    let mut frontier = vec![*pos];
    for _ in 0..plies {
        frontier = frontier
            .iter()
            .flat_map(|p| p.legal_moves().into_iter().map(move |mv| child(p, &mv)))
            .collect();
    }
    frontier
}

/// Plies from the root where the plain parallel count splits: about 300
/// subtrees from the start, so that two threads finish together (49 at two
/// plies left one thread idle for a tenth of the count).
const SPLIT_PLIES: u32 = 3;

/// The split over a thread pool, on the [`frontier`].
fn parallel(pos: &Position, depth: u32, threads: usize, stop: &AtomicBool) -> Option<u64> {
    let plies = SPLIT_PLIES.min(depth - 2);
    sum_counts(&frontier(pos, plies), threads, |p| {
        perft_until(p, depth - plies, stop)
    })
}

/// The exact table key of a position: every piece and the side to move.
#[inline]
fn table_key(pos: &Position) -> [u64; 2] {
    let side = match pos.side {
        Color::White => 1u64,
        Color::Black => 2,
    };
    [
        u64::from(pos.white) | u64::from(pos.black) << 32,
        u64::from(pos.kings) | side << 32,
    ]
}

/// Depth below which subtrees are counted without the table: they cost
/// less than a table probe saves.
const HASH_MIN_DEPTH: u32 = 3;

fn perft_hashed_side<const W: bool, R: VariantRules>(
    pos: &Position,
    depth: u32,
    table: &mut PerftTable,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth < HASH_MIN_DEPTH {
        return Some(perft_side::<W, R>(pos, depth));
    }
    let key = table_key(pos);
    if let Some(n) = table.probe(&key, depth) {
        return Some(n);
    }
    if depth > STOP_CHECK_DEPTH && stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut n = 0u64;
    let mut gave_up = false;
    visit::<W, R, _>(pos, |c| {
        if gave_up {
            return;
        }
        let sub = if W {
            perft_hashed_side::<false, R>(c, depth - 1, table, stop)
        } else {
            perft_hashed_side::<true, R>(c, depth - 1, table, stop)
        };
        match sub {
            Some(k) => n = n.saturating_add(k),
            None => gave_up = true,
        }
    });
    if gave_up {
        return None;
    }
    table.store(key, depth, n);
    Some(n)
}

fn perft_hashed_inner(
    pos: &Position,
    depth: u32,
    table: &mut PerftTable,
    stop: &AtomicBool,
) -> Option<u64> {
    with_rules!(pos.rules.variant(), R => match (depth, pos.side) {
        (0, _) => Some(1),
        (_, Color::White) => perft_hashed_side::<true, R>(pos, depth, table, stop),
        (_, Color::Black) => perft_hashed_side::<false, R>(pos, depth, table, stop),
    })
}

/// [`perft`] with a transposition table of about `hash_mb` MiB (1 to
/// [`MAX_PERFT_HASH_MB`](crate::MAX_PERFT_HASH_MB)) on `threads` threads
/// (0: every core; each thread has its own share of the table): a
/// position reached by several move orders is counted once. The table
/// keys are whole positions, so the counts are exact, equal to
/// [`perft`]'s.
///
/// ```
/// use damas::spanish::{perft, perft_hashed, Position};
/// let start = Position::start();
/// assert_eq!(perft_hashed(&start, 8, 1, 16), perft(&start, 8));
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
    if threads == 1 || depth < 4 {
        let mut table = PerftTable::new(hash_mb);
        return perft_hashed_inner(pos, depth, &mut table, stop);
    }
    sum_counts_hashed(&frontier(pos, 2), threads, hash_mb, stop, |p, table| {
        perft_hashed_inner(p, depth - 2, table, stop)
    })
}

fn perft_keeping_side<const W: bool, R: VariantRules>(
    pos: &Position,
    depth: u32,
    table: &mut PerftTable,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth == 1 {
        return Some(count_with_orders::<W, R>(pos));
    }
    let key = table_key(pos);
    if depth >= HASH_MIN_DEPTH {
        if let Some(n) = table.probe(&key, depth) {
            return Some(n);
        }
        if depth > STOP_CHECK_DEPTH && stop.load(Ordering::Relaxed) {
            return None;
        }
    }
    let mut list = MoveList::new();
    let mut orders = CaptureOrders::new();
    legal_moves_with_orders::<W, R>(pos, &mut list, &mut orders);
    let mut n = 0u64;
    for (mv, &extra) in list.iter().zip(&orders.extra) {
        let c = child(pos, mv);
        let sub = if W {
            perft_keeping_side::<false, R>(&c, depth - 1, table, stop)?
        } else {
            perft_keeping_side::<true, R>(&c, depth - 1, table, stop)?
        };
        n = n.saturating_add(sub.saturating_mul(1 + u64::from(extra)));
    }
    if depth >= HASH_MIN_DEPTH {
        table.store(key, depth, n);
    }
    Some(n)
}

fn perft_keeping_inner(
    pos: &Position,
    depth: u32,
    table: &mut PerftTable,
    stop: &AtomicBool,
) -> Option<u64> {
    with_rules!(pos.rules.variant(), R => match (depth, pos.side) {
        (0, _) => Some(1),
        (_, Color::White) => perft_keeping_side::<true, R>(pos, depth, table, stop),
        (_, Color::Black) => perft_keeping_side::<false, R>(pos, depth, table, stop),
    })
}

/// [`perft_hashed`] counting every capture order as its own move, the way
/// programs that keep duplicate captures count (dctl's keep mode): a king
/// that can take the same pieces in two orders and end on the same square
/// makes one move in the rules ([`perft`]) but two here (two landing
/// squares between the same captures stay one). From the start the two
/// counts first differ at depth 12 (365,728,331 and 365,734,003, dctl's
/// count).
///
/// ```
/// use damas::spanish::{perft, perft_keeping_duplicates, Position};
/// // The king on 9 takes 5, 15, 28 and 13 round a ring and lands back on
/// // 9: one move, but two orders (either way round).
/// let pos: Position = "W:WK9:B5,13,15,28".parse().unwrap();
/// assert_eq!(perft(&pos, 1), 1);
/// assert_eq!(perft_keeping_duplicates(&pos, 1, 1, 1), 2);
/// ```
pub fn perft_keeping_duplicates(pos: &Position, depth: u32, threads: usize, hash_mb: usize) -> u64 {
    let stop = AtomicBool::new(false);
    if threads == 1 || depth < 4 {
        let mut table = PerftTable::new(hash_mb);
        return perft_keeping_inner(pos, depth, &mut table, &stop).unwrap_or(0);
    }
    // The frontier two plies down, each position with its number of paths.
    let mut frontier = Vec::new();
    let mut list = MoveList::new();
    let mut orders = CaptureOrders::new();
    legal_moves_with_orders_of(pos, &mut list, &mut orders);
    for (a, &ra) in list.iter().zip(&orders.extra) {
        let p1 = child(pos, a);
        let mut list1 = MoveList::new();
        let mut orders1 = CaptureOrders::new();
        legal_moves_with_orders_of(&p1, &mut list1, &mut orders1);
        for (b, &rb) in list1.iter().zip(&orders1.extra) {
            let weight = (1 + u64::from(ra)) * (1 + u64::from(rb));
            frontier.push((child(&p1, b), weight));
        }
    }
    sum_counts_hashed(&frontier, threads, hash_mb, &stop, |(p, weight), table| {
        perft_keeping_inner(p, depth - 2, table, &stop).map(|n| n.saturating_mul(*weight))
    })
    .unwrap_or(0)
}

fn legal_moves_with_orders_of(pos: &Position, list: &mut MoveList, orders: &mut CaptureOrders) {
    with_rules!(pos.rules.variant(), R => match pos.side {
        Color::White => legal_moves_with_orders::<true, R>(pos, list, orders),
        Color::Black => legal_moves_with_orders::<false, R>(pos, list, orders),
    })
}
