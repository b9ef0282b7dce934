//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`: the key xor the data, and the data. A
//! reader recomputes `key = word0 ^ word1` and ignores the entry unless it
//! matches, so a torn write by another thread reads as a miss instead of a
//! wrong hit (the "lockless hashing" of Hyatt and Mann). Four entries make a
//! 64-byte bucket. Replacement is depth-preferred with aging: a new result
//! replaces the same position's entry, else the entry whose depth, minus a
//! penalty for each search since it was written, is lowest.
//!
//! The best move is stored as its index in the position's legal move list
//! (generation order is deterministic) together with its origin and
//! destination as a check, which keeps an entry in 64 bits of data.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::draughts::Move;
use crate::huge_pages::LocklessSlot;

/// Bound type of a stored score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is at most this (fail low).
    Upper = 1,
    /// The score is at least this (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Score, mate scores relative to the stored node.
    pub score: i32,
    /// Remaining depth of the search that produced it.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
    /// Index of the best move in the legal move list, if any.
    pub move_index: Option<u8>,
    /// Origin and destination bit indices of that move, as a check.
    pub move_from_to: (u8, u8),
}

impl TtEntry {
    /// The stored move, if it is in `moves` at the stored index.
    pub fn find_move(&self, moves: &[Move]) -> Option<usize> {
        let i = self.move_index? as usize;
        let mv = moves.get(i)?;
        (mv.from == self.move_from_to.0 && mv.to == self.move_from_to.1).then_some(i)
    }
}

/// Entries per bucket: four 16-byte slots, one cache line.
const BUCKET_SLOTS: usize = 4;

const AGE_MASK: u8 = 63;

/// A lock-free transposition table of a fixed size, safe to share between
/// threads and to clear through a shared reference.
///
/// The slots are a zeroed allocation (the system's zero pages): making a
/// table of any size is instant, and [`TranspositionTable::prepare`] (or
/// [`TranspositionTable::clear`]) makes it resident on every core before a
/// search would fault its pages in one by one.
pub struct TranspositionTable {
    slots: Box<[LocklessSlot]>,
    /// Index of the first slot of bucket 0: buckets start on a cache line
    /// (the allocation itself is only 16-byte aligned).
    first: usize,
    buckets: usize,
    age: AtomicU8,
    /// Whether every page has been written once.
    resident: bool,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TranspositionTable({} buckets)", self.buckets)
    }
}

fn pack(score: i32, depth: i32, bound: Bound, age: u8, mv: Option<(u8, Move)>) -> u64 {
    let (idx, from, to) = match mv {
        Some((i, m)) => (u64::from(i) + 1, u64::from(m.from), u64::from(m.to)),
        None => (0, 0, 0),
    };
    (score as i16 as u16 as u64)
        | (depth.clamp(0, 255) as u64) << 16
        | (bound as u64) << 24
        | u64::from(age & AGE_MASK) << 26
        | idx << 32
        | from << 40
        | to << 45
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 24) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let idx = ((data >> 32) & 0xFF) as u8;
    Some(TtEntry {
        score: i32::from(data as u16 as i16),
        depth: ((data >> 16) & 0xFF) as i32,
        bound,
        move_index: idx.checked_sub(1),
        move_from_to: (((data >> 40) & 31) as u8, ((data >> 45) & 31) as u8),
    })
}

fn age_of(data: u64) -> u8 {
    ((data >> 26) as u8) & AGE_MASK
}

impl TranspositionTable {
    /// A table of about `mb` MiB (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let n = (mb.max(1) << 20) / (BUCKET_SLOTS * std::mem::size_of::<LocklessSlot>());
        TranspositionTable::with_buckets(n.max(1))
    }

    /// A table with exactly `n` four-entry buckets (tests use tiny tables).
    pub fn with_buckets(n: usize) -> TranspositionTable {
        let buckets = n.max(1);
        // Three spare slots let bucket 0 start on a cache line.
        let slots: Box<[LocklessSlot]> =
            crate::huge_pages::zeroed_table(buckets * BUCKET_SLOTS + 3);
        let line = 64;
        let misalignment = slots.as_ptr() as usize % line;
        let first = ((line - misalignment) % line) / std::mem::size_of::<LocklessSlot>();
        TranspositionTable {
            slots,
            first,
            buckets,
            age: AtomicU8::new(0),
            resident: false,
        }
    }

    /// Empties the table (on a new game) in place, on every core: the
    /// slots the searches wrote are zeroed and every page stays or becomes
    /// resident. A fresh allocation instead makes the next game's first
    /// searches fault their pages in again (docs/PERFORMANCE.md, "Clearing
    /// the tables in place").
    pub fn clear(&mut self) {
        crate::huge_pages::clear(&mut self.slots);
        *self.age.get_mut() = 0;
        self.resident = true;
    }

    /// Makes every page resident, on every core, entries unchanged; nothing
    /// when they already are.
    pub fn prepare(&mut self) {
        if !self.resident {
            crate::huge_pages::fault_in(&mut self.slots);
            self.resident = true;
        }
    }

    /// Whether every page is resident ([`TranspositionTable::prepare`]).
    pub fn is_resident(&self) -> bool {
        self.resident
    }

    /// Marks the start of a new search: older entries become preferred
    /// victims.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age
            .store(a.wrapping_add(1) & AGE_MASK, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[LocklessSlot] {
        let i = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        let start = self.first + i * BUCKET_SLOTS;
        &self.slots[start..start + BUCKET_SLOTS]
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for s in self.bucket(key) {
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result for `key`; `mv` is the best move with its index in
    /// the legal move list.
    #[inline]
    pub fn store(&self, key: u64, score: i32, depth: i32, bound: Bound, mv: Option<(u8, Move)>) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            let k = s.check.load(Ordering::Relaxed) ^ data;
            if data == 0 || k == key {
                if k == key && data != 0 {
                    // Same position: keep a deeper result of this search
                    // unless the new one is exact, and keep its move if the
                    // new result has none.
                    if let Some(old) = unpack(data) {
                        if bound != Bound::Exact && old.depth > depth + 2 && age_of(data) == age {
                            return;
                        }
                        if mv.is_none() && old.move_index.is_some() {
                            let keep = data & (0x3FFFF_u64 << 32);
                            let new = pack(score, depth, bound, age, None) | keep;
                            s.data.store(new, Ordering::Relaxed);
                            s.check.store(key ^ new, Ordering::Relaxed);
                            return;
                        }
                    }
                }
                victim = i;
                break;
            }
            let d = ((data >> 16) & 0xFF) as i32;
            let stale = i32::from(age.wrapping_sub(age_of(data)) & AGE_MASK);
            let value = d - 8 * stale;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let new = pack(score, depth, bound, age, mv);
        let s = &bucket[victim];
        s.data.store(new, Ordering::Relaxed);
        s.check.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let end = (self.first + 1000).min(self.first + self.buckets * BUCKET_SLOTS);
        let sample = &self.slots[self.first..end];
        let used = sample
            .iter()
            .filter(|s| {
                let data = s.data.load(Ordering::Relaxed);
                data != 0 && age_of(data) == age
            })
            .count();
        (used * 1000 / sample.len().max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::Position;

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1);
        let pos = Position::start();
        let moves = pos.legal_moves();
        tt.store(pos.hash(), -123, 7, Bound::Lower, Some((3, moves[3])));
        let e = tt.probe(pos.hash()).unwrap();
        assert_eq!((e.score, e.depth, e.bound), (-123, 7, Bound::Lower));
        assert_eq!(e.find_move(&moves), Some(3));
        assert!(tt.probe(pos.hash() ^ 1).is_none());
        assert!(tt.hashfull() <= 1000);
        let first = tt.slots.as_ptr();
        assert!(!tt.is_resident());
        tt.prepare();
        assert!(tt.is_resident());
        assert_eq!(tt.probe(pos.hash()).map(|e| e.score), Some(-123));
        tt.new_search();
        tt.clear();
        assert!(tt.is_resident());
        assert!(tt.probe(pos.hash()).is_none());
        // Cleared in place: the same memory, usable again.
        assert_eq!(tt.slots.as_ptr(), first);
        tt.store(pos.hash(), 55, 3, Bound::Exact, Some((0, moves[0])));
        assert_eq!(tt.probe(pos.hash()).map(|e| e.score), Some(55));
    }
}
