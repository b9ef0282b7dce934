//! The transposition table of both games' hashed perft: subtree counts by
//! (position key, depth), so that a position reached by several move orders
//! is counted once.
//!
//! A key is two words chosen by the game: Spanish draughts stores the whole
//! position (men, kings, side to move: exact, no collision possible);
//! Chinese checkers stores its Zobrist hash with the occupancy folded into
//! a second word. A parallel count gives every thread its own table (the
//! memory split evenly), so an entry is never read half-written.

use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(feature = "rayon")]
use std::sync::Mutex;

use bytemuck::Zeroable;

#[cfg(feature = "rayon")]
use rayon::prelude::*;

/// Largest table the hashed perft accepts, in MiB (the search's `Hash`
/// bound).
pub const MAX_PERFT_HASH_MB: usize = 65_536;

/// One stored count; depth 0 marks an empty entry (depths below 2 are
/// never stored).
#[derive(Clone, Copy, Zeroable)]
#[repr(C)]
struct Entry {
    key: [u64; 2],
    count: u64,
    depth: u64,
}

/// Two entries per bucket: the first keeps the deeper count (deeper
/// subtrees cost more to redo), the second always takes the newest.
const WAYS: usize = 2;

/// A fixed-size table of subtree counts.
pub(crate) struct PerftTable {
    entries: Box<[Entry]>,
    mask: usize,
}

impl PerftTable {
    /// A table of about `mb` MiB (rounded down to a power of two of
    /// buckets, at least one bucket).
    pub(crate) fn new(mb: usize) -> PerftTable {
        let bytes = mb.clamp(1, MAX_PERFT_HASH_MB) << 20;
        let fit = (bytes / (WAYS * std::mem::size_of::<Entry>())).max(1);
        // The largest power of two that fits.
        let buckets = 1usize << (usize::BITS - 1 - fit.leading_zeros());
        PerftTable {
            entries: bytemuck::zeroed_slice_box(buckets * WAYS),
            mask: buckets - 1,
        }
    }

    fn bucket(&self, key: &[u64; 2]) -> usize {
        (mix(key[0] ^ key[1].rotate_left(29)) as usize & self.mask) * WAYS
    }

    /// The stored count of `key` at `depth`.
    #[inline]
    pub(crate) fn probe(&self, key: &[u64; 2], depth: u32) -> Option<u64> {
        let b = self.bucket(key);
        self.entries[b..b + WAYS]
            .iter()
            .find(|e| e.depth == u64::from(depth) && e.key == *key)
            .map(|e| e.count)
    }

    /// Stores the count of `key` at `depth`.
    #[inline]
    pub(crate) fn store(&mut self, key: [u64; 2], depth: u32, count: u64) {
        let b = self.bucket(&key);
        let entry = Entry {
            key,
            count,
            depth: u64::from(depth),
        };
        let slot = if self.entries[b].depth <= entry.depth {
            b
        } else {
            b + 1
        };
        self.entries[slot] = entry;
    }
}

/// A 64-bit finaliser (splitmix64's), spreading keys over the buckets.
#[inline]
pub(crate) fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The sum of `count` over `frontier`, each thread of a local pool of
/// `threads` (0: every core) with its own table of `mb / threads` MiB;
/// `None` when a count gave up. Without the `rayon` feature, or if the pool
/// cannot be built, one table on the calling thread.
pub(crate) fn sum_counts_hashed<P: Sync>(
    frontier: &[P],
    threads: usize,
    mb: usize,
    stop: &AtomicBool,
    count: impl Fn(&P, &mut PerftTable) -> Option<u64> + Sync,
) -> Option<u64> {
    #[cfg(feature = "rayon")]
    if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        let n = pool.current_num_threads().max(1);
        let tables: Vec<Mutex<PerftTable>> = (0..n)
            .map(|_| Mutex::new(PerftTable::new((mb / n).max(1))))
            .collect();
        return pool.install(|| {
            frontier
                .par_iter()
                .map(|p| {
                    if stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    // Each pool thread locks only its own table.
                    let i = rayon::current_thread_index().unwrap_or(0) % n;
                    let mut table = tables[i].lock().unwrap_or_else(|e| e.into_inner());
                    count(p, &mut table)
                })
                .try_fold(|| 0u64, |a, b| b.map(|b| a.saturating_add(b)))
                .try_reduce(|| 0, |a, b| Some(a.saturating_add(b)))
        });
    }
    let _ = threads;
    let mut table = PerftTable::new(mb);
    frontier.iter().try_fold(0u64, |sum, p| {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        count(p, &mut table).map(|n| sum.saturating_add(n))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_fit_their_size() {
        let table = PerftTable::new(1);
        assert_eq!(table.entries.len() * std::mem::size_of::<Entry>(), 1 << 20);
        let table = PerftTable::new(3);
        assert_eq!(table.entries.len() * std::mem::size_of::<Entry>(), 2 << 20);
    }

    #[test]
    fn counts_come_back_by_key_and_depth() {
        let mut table = PerftTable::new(1);
        table.store([1, 2], 5, 77);
        assert_eq!(table.probe(&[1, 2], 5), Some(77));
        assert_eq!(table.probe(&[1, 2], 4), None);
        assert_eq!(table.probe(&[2, 1], 5), None);
    }

    #[test]
    fn a_full_bucket_keeps_the_deeper_count() {
        // One bucket: every key shares it.
        let mut table = PerftTable {
            entries: bytemuck::zeroed_slice_box(WAYS),
            mask: 0,
        };
        table.store([1, 0], 9, 1000);
        table.store([2, 0], 3, 10);
        table.store([3, 0], 4, 20);
        assert_eq!(table.probe(&[1, 0], 9), Some(1000));
        assert_eq!(table.probe(&[2, 0], 3), None);
        assert_eq!(table.probe(&[3, 0], 4), Some(20));
    }
}
