//! Large tables on 2 MiB pages where the system offers them.
//!
//! The search and perft tables are probed at random addresses, so with 4 KiB
//! pages nearly every probe of a large table also misses the TLB, and under
//! a hypervisor a page walk is dear: on the 2-core KVM machine of
//! docs/PERFORMANCE.md ("Huge pages") a 64 MiB Spanish table on 4 KiB pages
//! searched about a third fewer nodes per second than a 4 MiB one (3.0 M
//! against 4.75 M). Linux's transparent huge pages, in the `madvise`
//! mode that many distributions ship, back memory with 2 MiB pages only
//! where the program asks for it, which is all this module does.

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

/// Zeroes the values of `table` for which `written` holds, in place.
///
/// Reading a page the program never wrote maps the system's zero page and
/// allocates nothing, so a table cleared this way keeps resident exactly
/// the pages its searches had written: the next game reuses them instead
/// of faulting fresh ones in.
pub(crate) fn clear_written<T: Zeroable>(table: &mut [T], mut written: impl FnMut(&mut T) -> bool) {
    for value in table.iter_mut() {
        if written(value) {
            *value = T::zeroed();
        }
    }
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

    #[test]
    fn tables_are_zeroed_and_of_the_asked_length() {
        for n in [0, 1, 1000, (HUGE_PAGE / 8) * 3 + 5] {
            let table: Box<[u64]> = zeroed_table(n);
            assert_eq!(table.len(), n);
            assert!(table.iter().all(|&x| x == 0));
        }
    }
}
