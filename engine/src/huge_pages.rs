//! Large tables on 2 MiB pages where the system offers them.
//!
//! The search and perft tables are probed at random addresses, so with 4 KiB
//! pages nearly every probe of a large table also misses the TLB, and under
//! a hypervisor a page walk is dear: on the 2-core KVM machine of
//! docs/PERFORMANCE.md ("Huge pages") a 64 MiB Spanish table on 4 KiB pages
//! searched about a third fewer nodes per second than a 4 MiB one (3.0 M
//! against 4.75 M). Linux's transparent huge pages, in the `madvise`
//! mode that many distributions ship, back memory with 2 MiB pages only
//! where the program asks for it, which this module does.
//!
//! It also makes the two searches' transposition tables resident before a
//! search needs them ([`fault_in`], [`clear`]): a fresh table is the
//! system's zero pages, and each first write to a page faults it in (with
//! huge pages, 2 MiB zeroed by the kernel per fault, and compaction when
//! memory is fragmented). Left to the search, a 1–4 GiB table made
//! `go movetime 100` take 220–470 ms; faulted in on every core when the
//! protocol says `isready`, the search pays nothing (docs/PERFORMANCE.md,
//! "Hash and the first search").

use std::sync::atomic::{AtomicU64, Ordering};

use bytemuck::Zeroable;

/// Smallest table worth advising: one huge page.
const HUGE_PAGE: usize = 2 << 20;

/// A zeroed boxed slice of `n` values whose pages the system is asked to
/// back with huge pages (Linux; elsewhere a plain zeroed allocation).
///
/// The memory stays the system's zero pages until written, as with
/// [`bytemuck::zeroed_slice_box`]: a table of any size is made at once.
pub(crate) fn zeroed_table<T: Zeroable>(n: usize) -> Box<[T]> {
    let table: Box<[T]> = bytemuck::zeroed_slice_box(n);
    advise_huge_pages(&table);
    table
}

/// One entry of a lock-free transposition table (both searches): the key
/// xor the data, and the data (the "lockless hashing" of Hyatt and Mann).
/// All zeros is the empty entry.
#[derive(Zeroable)]
pub(crate) struct LocklessSlot {
    /// The key xor the data.
    pub(crate) check: AtomicU64,
    /// The data; 0 is no entry.
    pub(crate) data: AtomicU64,
}

impl LocklessSlot {
    /// Whether the slot holds anything.
    fn is_written(&mut self) -> bool {
        *self.check.get_mut() != 0 || *self.data.get_mut() != 0
    }

    /// Writes the slot's page without changing the slot, so the page is
    /// faulted in: the value read is swapped back in. (An idempotent
    /// read-modify-write such as `fetch_or(0)` does not do: compilers
    /// lower it to a load, which maps the shared zero page and writes
    /// nothing.)
    fn touch(&self) {
        let value = self.data.load(Ordering::Relaxed);
        self.data.swap(value, Ordering::Relaxed);
    }
}

/// The page size the touches step by: the smallest page, so each page of
/// any size is written at least once.
const PAGE: usize = 4096;

/// Tables smaller than this are handled on the calling thread: starting
/// threads would cost more than it saves.
const PARALLEL_MIN_BYTES: usize = 8 << 20;

/// Runs `work` on `table` split in one chunk per core (on the calling
/// thread for a small table).
fn on_every_core(table: &mut [LocklessSlot], work: impl Fn(&mut [LocklessSlot]) + Sync) {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    if cores == 1 || std::mem::size_of_val(table) < PARALLEL_MIN_BYTES {
        return work(table);
    }
    let chunk = table.len().div_ceil(cores);
    std::thread::scope(|scope| {
        for part in table.chunks_mut(chunk) {
            scope.spawn(|| work(part));
        }
    });
}

/// Writes every page of `part` once, its values unchanged.
fn touch_pages(part: &[LocklessSlot]) {
    let per_page = (PAGE / std::mem::size_of::<LocklessSlot>()).max(1);
    for slot in part.iter().step_by(per_page) {
        slot.touch();
    }
    // The steps start at the part's first slot, which need not start a
    // page: the last page may hold only the tail.
    if let Some(last) = part.last() {
        last.touch();
    }
}

/// Makes every page of `table` resident (its values unchanged), on every
/// core.
pub(crate) fn fault_in(table: &mut [LocklessSlot]) {
    on_every_core(table, |part| touch_pages(part));
}

/// Empties `table` in place and leaves every page resident, on every core.
///
/// Only the slots written are zeroed, so a table of which the searches
/// wrote a little costs a read of the rest; the pages are kept, so the
/// next game's searches fault none in.
pub(crate) fn clear(table: &mut [LocklessSlot]) {
    on_every_core(table, |part| {
        touch_pages(part);
        for slot in part.iter_mut() {
            if slot.is_written() {
                *slot = LocklessSlot::zeroed();
            }
        }
    });
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages<T>(table: &[T]) {
    const PAGE: usize = 4096;
    let bytes = std::mem::size_of_val(table);
    if bytes < HUGE_PAGE {
        return;
    }
    let start = table.as_ptr() as usize;
    let first = start.next_multiple_of(PAGE);
    let end = (start + bytes) / PAGE * PAGE;
    if end > first {
        // SAFETY: [first, end) lies inside `table`'s allocation, which is
        // borrowed for the call. MADV_HUGEPAGE changes how the kernel backs
        // the pages, never what they hold, so no memory Rust can see
        // changes; a failure (no THP support) leaves ordinary pages.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_table: &[T]) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots(n: usize) -> Box<[LocklessSlot]> {
        zeroed_table(n)
    }

    #[test]
    fn faulting_in_keeps_the_values_and_clearing_empties_them() {
        // Large enough to be split between threads, with an odd tail.
        let n = PARALLEL_MIN_BYTES / 16 * 2 + 7;
        let mut table = slots(n);
        for i in [0, 1, 255, 256, n / 2, n - 1] {
            table[i].data.store(i as u64 + 1, Ordering::Relaxed);
            table[i].check.store(i as u64 ^ 5, Ordering::Relaxed);
        }
        fault_in(&mut table);
        assert_eq!(*table[n / 2].data.get_mut(), n as u64 / 2 + 1);
        assert_eq!(*table[n - 1].check.get_mut(), (n as u64 - 1) ^ 5);
        let first = table.as_ptr();
        clear(&mut table);
        assert!(table.iter_mut().all(|s| !s.is_written()));
        assert_eq!(table.as_ptr(), first, "cleared in place");
        let mut small = slots(3);
        small[2].data.store(9, Ordering::Relaxed);
        fault_in(&mut small);
        assert_eq!(*small[2].data.get_mut(), 9);
        clear(&mut small);
        assert!(!small[2].is_written());
    }

    #[cfg(target_os = "linux")]
    #[test]
    #[allow(unsafe_code)]
    fn faulting_in_makes_every_page_resident() {
        // A mapping of its own: the allocator may hand a test memory that
        // another test already made resident.
        let len = PARALLEL_MIN_BYTES * 2;
        // SAFETY: a fresh private anonymous mapping, checked for failure;
        // zeroed memory is a valid slice of slots (all atomics zero), used
        // only while mapped and unmapped once, below.
        unsafe {
            let map = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            assert_ne!(map, libc::MAP_FAILED);
            let table = std::slice::from_raw_parts_mut(map.cast::<LocklessSlot>(), len / 16);
            let before = resident_pages(map as usize, len);
            fault_in(table);
            let after = resident_pages(map as usize, len);
            libc::munmap(map, len);
            assert_eq!(before.0, 0, "a fresh mapping is not resident: {before:?}");
            assert_eq!(after.0, after.1, "every page resident: {after:?}");
        }
    }

    /// (resident, all) of the whole pages in `[start, start + len)`.
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    fn resident_pages(start: usize, len: usize) -> (usize, usize) {
        let first = start.next_multiple_of(PAGE);
        let end = (start + len) / PAGE * PAGE;
        let pages = (end - first) / PAGE;
        let mut flags = vec![0u8; pages];
        // SAFETY: [first, end) lies inside a live allocation of the caller
        // and `flags` has one byte per page of it, as mincore(2) writes.
        let status =
            unsafe { libc::mincore(first as *mut libc::c_void, end - first, flags.as_mut_ptr()) };
        assert_eq!(status, 0, "mincore");
        (flags.iter().filter(|f| **f & 1 == 1).count(), pages)
    }

    #[test]
    fn tables_are_zeroed_and_of_the_asked_length() {
        for n in [0, 1, 1000, (HUGE_PAGE / 8) * 3 + 5] {
            let table: Box<[u64]> = zeroed_table(n);
            assert_eq!(table.len(), n);
            assert!(table.iter().all(|&x| x == 0));
        }
    }
}
