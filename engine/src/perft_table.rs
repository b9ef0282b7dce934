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
use std::sync::Mutex;

use bytemuck::Zeroable;

use crate::parallel::sum_counts;

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
            entries: crate::huge_pages::zeroed_table(buckets * WAYS),
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

/// The sum of `count` over `frontier` as [`sum_counts`] counts it, each
/// pool thread with its own table of `mb / threads` MiB (a thread locks only
/// its own, so an entry is never read half-written); `None` when a count
/// gave up.
pub(crate) fn sum_counts_hashed<P: Sync>(
    frontier: &[P],
    threads: usize,
    mb: usize,
    stop: &AtomicBool,
    count: impl Fn(&P, &mut PerftTable) -> Option<u64> + Sync,
) -> Option<u64> {
    let n = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let tables: Vec<Mutex<PerftTable>> = (0..n)
        .map(|_| Mutex::new(PerftTable::new((mb / n).max(1))))
        .collect();
    sum_counts(frontier, threads, |p| {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut table = tables[pool_thread_index() % n]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        count(p, &mut table)
    })
}

/// The index of the calling thread in its rayon pool (0 outside one).
fn pool_thread_index() -> usize {
    #[cfg(feature = "rayon")]
    return rayon::current_thread_index().unwrap_or(0);
    #[cfg(not(feature = "rayon"))]
    0
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
