//! The memory a slice's generation takes, the plan that keeps it under a
//! cap (the whole slice in memory, or parts of it), and the cap a run
//! takes when given none: below the memory the machine has available.
//!
//! The figures are upper bounds of what the generator allocates, counted
//! from the sizes of the slice, its advancement levels and the slices it
//! reads; docs/TABLEBASES.md compares them with measured peaks.

use std::collections::BTreeMap;

use super::index::{Indexer, Material};
use super::solve::WORK_BYTES;

/// What the process holds besides the tables: the program, the thread
/// pool, the allocator's slack and the file buffers.
pub(crate) const BASE: u64 = 24 << 20;

/// Positions a streamed file is read or written by at a time.
pub(crate) const CHUNK: u64 = 1 << 18;

/// Bytes of the buffers of a streamed write of a slice of `n` positions,
/// [`CHUNK`] at a time: the entries (2 bytes each), the bytes read (2
/// each), the entries as the coder takes them (2 each) and those written.
pub(crate) fn chunk_bytes(n: u64) -> u64 {
    8 * n.min(CHUNK)
}

/// Bytes of the buffers of a streamed read of a slice of `n` positions:
/// the entries (2 bytes each) and the bytes read (at most 2 each).
pub(crate) fn scan_bytes(n: u64) -> u64 {
    4 * n.min(CHUNK)
}

/// How a slice is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// The whole slice in memory (values and distances), a level of
    /// configurations at a time.
    Whole,
    /// A level at a time with only its values and those of the level
    /// above in memory, at most `chunk` configurations solved at once;
    /// the solved configurations go to a scratch file.
    Parts {
        /// Configurations solved at once.
        chunk: u64,
    },
}

/// The sizes a slice's memory depends on.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    pub(crate) material: Material,
    /// Positions of one configuration.
    pub(crate) sub_len: u64,
    /// The valid configurations of each advancement level.
    pub(crate) levels: BTreeMap<u32, Vec<u64>>,
    /// Bytes of the values of the slices its moves reach, and of the
    /// largest file read to get them.
    pub(crate) deps: u64,
    pub(crate) deps_transient: u64,
    /// The most the reader of a version 3 dependency's capture positions
    /// holds. Its decoded blocks are many small allocations, which the
    /// allocator keeps once freed (measured), so it counts for the whole
    /// slice rather than only while that dependency is read.
    pub(crate) deps_resolver: u64,
    /// Threads solving configurations at once.
    pub(crate) threads: u64,
    /// Whether the file is written in format version 2.
    pub(crate) packed: bool,
}

impl Shape {
    /// The shape of `material`, whose slices reached take `deps` bytes.
    pub(crate) fn new(
        material: Material,
        deps: (u64, u64, u64),
        threads: u64,
        packed: bool,
    ) -> Shape {
        let ix = Indexer::new(material);
        let mut levels: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
        for config in 0..material.men_configs() {
            let men = ix.men(config);
            if men.is_valid() {
                levels.entry(men.advancement()).or_default().push(config);
            }
        }
        Shape {
            material,
            sub_len: ix.sub_len(),
            levels,
            deps: deps.0,
            deps_transient: deps.1,
            deps_resolver: deps.2,
            threads: threads.max(1),
            packed,
        }
    }

    /// Configurations in the largest level.
    fn widest(&self) -> u64 {
        self.levels
            .values()
            .map(|c| c.len() as u64)
            .max()
            .unwrap_or(1)
    }

    /// Bytes of a batch of configurations: their answers (2 bytes a
    /// position, kept until the batch is stored) and the working arrays of
    /// those solved at the same time (which count their own answers).
    fn batch(&self, configs: u64) -> u64 {
        let at_once = configs.min(self.threads);
        configs * self.sub_len * 2 + at_once * self.sub_len * (WORK_BYTES - 2)
    }

    /// What the slices read take while the slice is solved, or while the
    /// largest of them is being read.
    fn around(&self, solving: u64) -> u64 {
        BASE + self.deps + self.deps_resolver + solving.max(self.deps_transient)
    }

    /// Peak bytes of the whole slice in memory.
    pub(crate) fn whole(&self) -> u64 {
        let n = self.material.positions();
        let slice = n.div_ceil(4) + n;
        let solving = slice + self.batch(self.widest());
        // Version 2: the compressed blocks are held until written (at most
        // 2 bits a position, measured below 1 on average).
        let writing = slice + if self.packed { n.div_ceil(4) } else { 0 } + chunk_bytes(n);
        self.around(solving.max(writing))
    }

    /// Peak bytes of the parts plan solving `chunk` configurations at once
    /// (more than [`Shape::whole`] for a slice of very few positions).
    pub(crate) fn parts(&self, chunk: u64) -> u64 {
        let levels: Vec<u64> = self.levels.values().map(|c| c.len() as u64).collect();
        // Two levels' values and the list of their configurations.
        let configs = levels
            .windows(2)
            .map(|w| w[0] + w[1])
            .chain(levels.iter().copied())
            .max()
            .unwrap_or(0);
        let window = (configs * self.sub_len).div_ceil(4) + 8 * configs;
        // A configuration's answer as it goes to the scratch file.
        let storing = 2 * self.sub_len;
        let solving = window + self.batch(chunk.min(self.widest())) + storing;
        self.around(solving.max(chunk_bytes(self.material.positions())))
    }

    /// The plan under `cap` bytes and its peak, or the least the slice
    /// needs when no plan fits.
    pub(crate) fn plan(&self, cap: u64) -> Result<(Plan, u64), u64> {
        let whole = self.whole();
        if whole <= cap {
            return Ok((Plan::Whole, whole));
        }
        let least = self.parts(1).min(whole);
        if least > cap {
            return Err(least);
        }
        // The largest batch that fits: the peak grows with it.
        let (mut lo, mut hi) = (1, self.widest());
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if self.parts(mid) <= cap {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Ok((Plan::Parts { chunk: lo }, self.parts(lo)))
    }
}

/// The cap of a run given none: the memory available now (`MemAvailable`
/// of /proc/meminfo), less an eighth of it and at least 256 MiB for the
/// rest of the machine, and below the process's address-space limit (a
/// quarter of it, and at least 512 MiB, left for what is reserved but not
/// used: thread stacks, allocator arenas). Without /proc, no cap.
pub(crate) fn default_cap() -> u64 {
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| mem_available(&text));
    let limit = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|text| address_space_limit(&text));
    let below = |bytes: u64, part: u64, least: u64| bytes.saturating_sub((bytes / part).max(least));
    let from_available = available.map_or(u64::MAX, |a| below(a, 8, 256 << 20));
    let from_limit = limit.map_or(u64::MAX, |l| below(l, 4, 512 << 20));
    from_available.min(from_limit)
}

/// `MemAvailable` of /proc/meminfo, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The soft "Max address space" of /proc/self/limits, in bytes, `None`
/// when unlimited.
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_s_memory_is_read() {
        let meminfo =
            "MemTotal:       24591112 kB\nMemFree:        1000 kB\nMemAvailable:   23000000 kB\n";
        assert_eq!(mem_available(meminfo), Some(23_000_000 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \nMax stack size            8388608              unlimited            bytes     \nMax address space         8589934592           8589934592           bytes     \n";
        assert_eq!(address_space_limit(limits), Some(8 << 30));
        let unlimited = limits.replace("8589934592           8589934592", "unlimited unlimited");
        assert_eq!(address_space_limit(&unlimited), None);
    }

    #[test]
    fn a_tighter_cap_takes_smaller_parts_and_too_tight_a_cap_is_refused() {
        let m: Material = "2k1m-1k1m".parse().unwrap();
        let shape = Shape::new(m, (1 << 20, 1 << 20, 1 << 20), 2, true);
        let whole = shape.whole();
        assert_eq!(shape.plan(whole), Ok((Plan::Whole, whole)));
        let least = shape.parts(1);
        assert!(least < whole);
        let tiny = Shape::new("1k0m-1k0m".parse().unwrap(), (0, 0, 0), 2, true);
        assert_eq!(tiny.plan(0), Err(tiny.whole().min(tiny.parts(1))));
        assert_eq!(shape.plan(least - 1), Err(least));
        assert!(matches!(shape.plan(least), Ok((Plan::Parts { .. }, peak)) if peak == least));
        let Ok((Plan::Parts { chunk }, peak)) = shape.plan(whole - 1) else {
            panic!("no parts under {}", whole - 1)
        };
        assert!(chunk > 1 && peak < whole);
        assert!(chunk == shape.widest() || shape.parts(chunk + 1) > whole - 1);
    }
}
