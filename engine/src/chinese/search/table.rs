//! The transposition table of the Chinese checkers tree, shared by all
//! search threads without locks.
//!
//! One entry is two `AtomicU64`: the key xor the data, and the data (the
//! "lockless hashing" of Hyatt and Mann, as in the Spanish table): a torn
//! write by another thread reads as a miss, never as a wrong hit. One
//! entry per slot, always replaced: the tree's keys already mix in the
//! player to move, the searching player and the mode.

use std::sync::atomic::Ordering;

use crate::huge_pages::LocklessSlot;

/// Bound of a stored score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The exact score.
    Exact = 1,
    /// At least the score (fail high).
    Lower = 2,
    /// At most the score (fail low).
    Upper = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The best move's origin and destination cell indices ((0, 0): none).
    pub mv: (u8, u8),
    /// Score, win distances relative to the stored node.
    pub score: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i8,
    /// Bound type.
    pub bound: Bound,
}

impl Entry {
    fn pack(&self) -> u64 {
        u64::from(self.mv.0)
            | u64::from(self.mv.1) << 8
            | u64::from(self.score as u32) << 16
            | u64::from(self.depth as u8) << 48
            | (self.bound as u64) << 56
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match data >> 56 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            mv: (data as u8, (data >> 8) as u8),
            score: (data >> 16) as u32 as i32,
            depth: (data >> 48) as u8 as i8,
            bound,
        })
    }
}

/// A lock-free table of a power-of-two number of 16-byte slots.
pub(crate) struct Table {
    slots: Box<[LocklessSlot]>,
    /// Whether every page has been written once.
    resident: bool,
}

impl Table {
    /// The largest power-of-two table that fits in `mb` MiB (at least one
    /// slot), made of the system's zero pages: instant at any size, and
    /// resident once prepared (or cleared) or as the search writes it.
    pub(crate) fn new(mb: usize) -> Table {
        let n = (mb << 20) / std::mem::size_of::<LocklessSlot>();
        let n = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        Table {
            slots: crate::huge_pages::zeroed_table(n.max(1)),
            resident: false,
        }
    }

    /// Empties the table in place, on every core (see the Spanish table's
    /// `clear`): the slots written are zeroed and every page is resident.
    pub(crate) fn clear(&mut self) {
        crate::huge_pages::clear(&mut self.slots);
        self.resident = true;
    }

    /// Makes every page resident, on every core, entries unchanged; nothing
    /// when they already are.
    pub(crate) fn prepare(&mut self) {
        if !self.resident {
            crate::huge_pages::fault_in(&mut self.slots);
            self.resident = true;
        }
    }

    /// Whether every page is resident.
    pub(crate) fn is_resident(&self) -> bool {
        self.resident
    }

    /// Number of slots.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &LocklessSlot {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    /// The entry stored under `key`, if any.
    #[inline(always)]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        if slot.check.load(Ordering::Relaxed) ^ data != key {
            return None;
        }
        Entry::unpack(data)
    }

    /// Stores `entry` under `key`, replacing whatever the slot held.
    #[inline(always)]
    pub(crate) fn store(&self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        let data = entry.pack();
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the first 1000 slots in use (by this search or an
    /// earlier one: entries have no age), as the protocol's `hashfull`.
    pub(crate) fn hashfull(&self) -> u32 {
        let sample = &self.slots[..self.slots.len().min(1000)];
        let used = sample
            .iter()
            .filter(|s| s.data.load(Ordering::Relaxed) != 0)
            .count();
        (used * 1000 / sample.len().max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_other_keys_miss() {
        let table = Table::new(1);
        assert!(table.len().is_power_of_two());
        for (i, score) in [0, 1, -1, 29_999, -29_999, i32::MAX, i32::MIN]
            .into_iter()
            .enumerate()
        {
            let key = 0x1234_5678_9ABC_DEF0 ^ (i as u64) << 40;
            let entry = Entry {
                mv: (120, i as u8),
                score,
                depth: -(i as i8) + 60,
                bound: [Bound::Exact, Bound::Lower, Bound::Upper][i % 3],
            };
            table.store(key, entry);
            assert_eq!(table.probe(key), Some(entry));
            assert_eq!(table.probe(key ^ 1 << 62), None);
        }
        assert_eq!(Table::new(1).probe(0), None);
        assert!(table.hashfull() <= 1000);
    }

    #[test]
    fn clearing_empties_every_written_slot_in_place() {
        let mut table = Table::new(1);
        let entry = Entry {
            mv: (3, 4),
            score: -7,
            depth: 5,
            bound: Bound::Lower,
        };
        let keys: Vec<u64> = (1..=500u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &key in &keys {
            table.store(key, entry);
        }
        let len = table.len();
        let first = table.slots.as_ptr();
        assert!(!table.is_resident());
        table.prepare();
        assert!(table.is_resident());
        assert_eq!(table.probe(keys[1]), Some(entry), "kept by prepare");
        table.clear();
        assert!(keys.iter().all(|&key| table.probe(key).is_none()));
        assert_eq!(table.hashfull(), 0);
        // The same memory, still usable.
        assert_eq!((table.len(), table.slots.as_ptr()), (len, first));
        table.store(keys[0], entry);
        assert_eq!(table.probe(keys[0]), Some(entry));
    }

    #[test]
    fn the_table_is_a_power_of_two_within_the_size() {
        for mb in [1, 3, 4, 64] {
            let n = Table::new(mb).len();
            assert!(n.is_power_of_two());
            assert!(n * std::mem::size_of::<LocklessSlot>() <= mb << 20);
            assert!(2 * n * std::mem::size_of::<LocklessSlot>() > mb << 20);
        }
        assert_eq!(Table::new(4).len(), 1 << 18);
    }
}
