//! The slices one slice's moves reach, values only, read from their files
//! and kept between the slices of a run while they are still reached.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::file::{self, Slice};
use super::index::{Indexer, Material};
use super::memory::scan_bytes;
use super::solve::Finished;
use super::stream;
use super::{TablebaseError, Value};
use crate::spanish::{Position, Variant};

/// Every slice a move from a position of `material` can lead to, other
/// than `material` itself: a promotion (a man fewer, a king more for the
/// mover), or a capture of one or more of the opponent's pieces (not all:
/// a side without pieces has lost, with nothing to read), by a man that
/// may promote at its end. Some of these may be unreachable (the maximum
/// capture rule, the squares); they are counted all the same.
pub(crate) fn reached(material: Material) -> BTreeSet<Material> {
    let mut out = BTreeSet::new();
    let m = material;
    let sides = [
        (
            (m.white_kings, m.white_men),
            (m.black_kings, m.black_men),
            true,
        ),
        (
            (m.black_kings, m.black_men),
            (m.white_kings, m.white_men),
            false,
        ),
    ];
    for ((mk, mm), (ok, om), white) in sides {
        let of = |mover: (u8, u8), other: (u8, u8)| {
            if white {
                Material::new(mover.0, mover.1, other.0, other.1)
            } else {
                Material::new(other.0, other.1, mover.0, mover.1)
            }
        };
        let movers: Vec<(u8, u8)> = if mm > 0 {
            vec![(mk, mm), (mk + 1, mm - 1)]
        } else {
            vec![(mk, mm)]
        };
        if mm > 0 {
            out.insert(of((mk + 1, mm - 1), (ok, om)));
        }
        for kings in 0..=ok {
            for men in 0..=om {
                let taken = kings + men;
                if taken == 0 || taken == ok + om {
                    continue;
                }
                for &mover in &movers {
                    out.insert(of(mover, (ok - kings, om - men)));
                }
            }
        }
    }
    out.remove(&material);
    out
}

/// The most the reader that works out the capture positions of
/// `material`'s version 3 file can hold: every slice with fewer pieces
/// that its captures lead to, directly or through the capture positions
/// of those, with a file under `dir` (the file in memory, and its blocks
/// decoded at a byte and a quarter a position, as a long read decodes
/// most of them).
fn resolver_bytes(dir: &Path, material: Material) -> u64 {
    resolved_from(material)
        .into_iter()
        .filter_map(|m| {
            let len = file::open_any(dir, m).ok()?.file.metadata().ok()?.len();
            Some(len + m.positions() + m.positions().div_ceil(4))
        })
        .sum()
}

/// The slices with fewer pieces than `material` that the capture
/// positions of its slice lead to, directly or through the capture
/// positions of those (promotions counted too: an upper bound).
fn resolved_from(material: Material) -> BTreeSet<Material> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![material];
    while let Some(m) = todo.pop() {
        for r in reached(m) {
            if r.pieces() < material.pieces() && seen.insert(r) {
                todo.push(r);
            }
        }
    }
    seen
}

/// The values of the slices reached from the slice being solved.
pub(crate) struct Deps {
    dir: PathBuf,
    variant: Variant,
    slices: Vec<Option<Slice>>,
}

impl Deps {
    /// The slices of `variant` under `dir`, none read yet.
    pub(crate) fn new(dir: &Path, variant: Variant) -> Deps {
        Deps {
            dir: dir.to_path_buf(),
            variant,
            slices: (0..Material::KEYS).map(|_| None).collect(),
        }
    }

    /// Bytes of the values of the slices `material` reaches that have a
    /// file under `dir`; the most that reading one of them takes besides
    /// (a version 2 file is read whole, version 1 by chunks); and the most
    /// the reader of a version 3 file's capture positions holds
    /// ([`resolver_bytes`]).
    pub(crate) fn footprint(dir: &Path, material: Material) -> (u64, u64, u64) {
        let mut values = 0;
        let mut reading = 0;
        let mut resolving = 0;
        for m in reached(material) {
            let Ok(open) = file::open_any(dir, m) else {
                continue;
            };
            values += m.positions().div_ceil(4);
            let whole = if open.version != file::VERSION {
                open.file.metadata().map_or(0, |meta| meta.len())
            } else {
                0
            };
            reading = reading.max(whole + scan_bytes(m.positions()));
            if open.version == file::VERSION_3 {
                resolving = resolving.max(resolver_bytes(dir, m));
            }
        }
        (values, reading, resolving)
    }

    /// Drops the slices `material` does not reach, then reads those it
    /// reaches that have a file and are not in memory yet.
    ///
    /// A missing file is no error here: a position that needs it fails
    /// with [`TablebaseError::Missing`] when solved.
    pub(crate) fn prepare(&mut self, material: Material) -> Result<(), TablebaseError> {
        let wanted = reached(material);
        for slot in &mut self.slices {
            if slot.as_ref().is_some_and(|s| !wanted.contains(&s.material)) {
                *slot = None;
            }
        }
        for m in wanted {
            if self.slices[m.key()].is_some() || !file::path(&self.dir, m).exists() {
                continue;
            }
            self.slices[m.key()] = Some(stream::read_values(&self.dir, m, self.variant)?);
        }
        Ok(())
    }

    /// Keeps the values of a slice just solved, for the slices after it.
    pub(crate) fn offer(&mut self, slice: Slice) {
        let key = slice.material.key();
        self.slices[key] = Some(slice.values_only());
    }
}

impl Finished for Deps {
    fn value_of(&self, pos: &Position) -> Result<Value, TablebaseError> {
        let m = Material::of(pos);
        match self.slices.get(m.key()).and_then(Option::as_ref) {
            Some(slice) => Ok(slice.value(Indexer::new(m).index(pos))),
            None => Err(TablebaseError::Missing(m)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slices_reached_are_promotions_and_captures() {
        let names = |m: &str| -> Vec<String> {
            reached(m.parse().unwrap())
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        // A king and a man against a man: White promotes (2k0m-0k1m),
        // takes the man (nothing to read: Black has lost); Black promotes
        // (1k1m-1k0m) or takes the king or the man, promoting or not.
        assert_eq!(
            names("1k1m-0k1m"),
            [
                "0k1m-0k1m",
                "0k1m-1k0m",
                "1k0m-0k1m",
                "1k0m-1k0m",
                "1k1m-1k0m",
                "2k0m-0k1m"
            ]
        );
        assert_eq!(names("1k0m-1k0m"), Vec::<String>::new());
        // The reader of a version 3 file of two men against a man works
        // out its captures from the 2-piece slices, counting those the
        // 2-piece slices reach by promotion (a king against a king).
        let resolved: Vec<String> = resolved_from("0k2m-0k1m".parse().unwrap())
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            resolved,
            ["0k1m-0k1m", "0k1m-1k0m", "1k0m-0k1m", "1k0m-1k0m"]
        );
        // Every slice reached comes before in the generation order.
        for n in 2..=6 {
            for m in Material::all_with(n) {
                for r in reached(m) {
                    assert!(r.is_valid() && (r.pieces(), r.men()) < (m.pieces(), m.men()));
                }
            }
        }
    }
}
