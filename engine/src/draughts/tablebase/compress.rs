//! Conversion of a set of slice files to format version 3 (or 2), and the
//! comparison of two sets position by position.

use std::path::Path;
use std::time::{Duration, Instant};

use super::file::{self, Slice};
use super::index::Material;
use super::probe::Tablebase;
use super::stream;
use super::{TablebaseError, MAX_PIECES};

/// How [`compress`] writes the files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompressOptions {
    /// Positions per block (a power of two, at least 2): a probe decodes
    /// one block, so smaller blocks decode faster and compress worse.
    pub block_positions: u64,
    /// Also measure what the values alone take compressed (encodes every
    /// slice a second time): [`CompressReport::value_bytes`].
    pub measure_values: bool,
    /// Write format version 2, which stores every position, instead of
    /// version 3, which leaves the positions with a capture to the reader
    /// (a reader of versions 1 and 2 refuses version 3).
    pub captures_stored: bool,
}

impl Default for CompressOptions {
    fn default() -> CompressOptions {
        CompressOptions {
            block_positions: file::BLOCK_LEN,
            measure_values: false,
            captures_stored: false,
        }
    }
}

/// The outcome of [`compress`].
#[derive(Clone, Debug, Default)]
pub struct CompressReport {
    /// Slices written.
    pub slices: usize,
    /// Index positions in them.
    pub positions: u64,
    /// Bytes of the files read.
    pub bytes_before: u64,
    /// Bytes of the files written.
    pub bytes_after: u64,
    /// Bytes the compressed blocks would take without distances (0 unless
    /// [`CompressOptions::measure_values`]).
    pub value_bytes: u64,
    /// Time spent, reading and writing included.
    pub time: Duration,
}

/// Writes every slice file of up to [`MAX_PIECES`] pieces found in `from`
/// (any version) to `to` in format version 3 (or 2, as `options` say), in
/// the variant of `from`'s files.
/// Each slice is read whole and checked (its checksum, or every block's;
/// the capture positions of a version 3 file worked out from the smaller
/// slices of `from`) before it is written;
/// files are written atomically, as the generator's are. `progress` hears
/// of each slice before it is converted.
///
/// # Errors
///
/// [`TablebaseError::NoDirectory`] when `from` is not a directory;
/// [`TablebaseError::Io`] or [`TablebaseError::BadFile`] when a file
/// cannot be read, is damaged, or cannot be written;
/// [`TablebaseError::BadFile`] also when the block length is not a power
/// of two.
pub fn compress(
    from: &Path,
    to: &Path,
    options: CompressOptions,
    progress: &(dyn Fn(Material) + Sync),
) -> Result<CompressReport, TablebaseError> {
    if !from.is_dir() {
        return Err(TablebaseError::NoDirectory(from.to_path_buf()));
    }
    let block = options.block_positions;
    if !block.is_power_of_two() || !(2..=1 << 24).contains(&block) {
        return Err(TablebaseError::BadFile(
            to.display().to_string(),
            format!("{block} positions per block: not a power of two from 2 to 2^24"),
        ));
    }
    let start = Instant::now();
    let mut report = CompressReport::default();
    let variant = Tablebase::variant_in(from);
    for material in present(from) {
        progress(material);
        let slice = stream::read(from, material, variant)?;
        report.bytes_before += std::fs::metadata(file::path(from, material))
            .map_err(|e| TablebaseError::Io(file::path(from, material).display().to_string(), e))?
            .len();
        let stored = options.captures_stored;
        report.bytes_after += file::write_packed(to, &slice, block, stored)?;
        if options.measure_values {
            let model = file::slice_model(&slice, block, !stored);
            report.value_bytes += file::compress_blocks(&slice, block, &model, false, !stored)
                .iter()
                .map(|b| b.len() as u64)
                .sum::<u64>();
        }
        report.slices += 1;
        report.positions += material.positions();
    }
    report.time = start.elapsed();
    Ok(report)
}

/// The slices of up to [`MAX_PIECES`] pieces with a regular file in `dir`.
fn present(dir: &Path) -> Vec<Material> {
    (2..=MAX_PIECES)
        .flat_map(Material::all_with)
        .filter(|&m| std::fs::metadata(file::path(dir, m)).is_ok_and(|meta| meta.is_file()))
        .collect()
}

/// The outcome of [`compare`].
#[derive(Clone, Debug, Default)]
pub struct CompareReport {
    /// Slices present in both sets and compared.
    pub slices: usize,
    /// Index positions compared (holes included: both store draws there).
    pub positions: u64,
    /// Positions whose value or distance differ.
    pub differences: u64,
    /// The first few differences, as `material FEN: A value distance, B
    /// value distance`.
    pub examples: Vec<String>,
    /// Slices present in one set only, as `material: only in A` (or B).
    pub only_in_one: Vec<String>,
}

/// Compares the slice files of two directories position by position:
/// each position's value and distance (any version on either side; a
/// version 3 file's capture positions worked out as a probe does). `progress` hears of each slice compared.
///
/// # Errors
///
/// [`TablebaseError::NoDirectory`] when either is not a directory;
/// [`TablebaseError::Io`] or [`TablebaseError::BadFile`] when a file
/// cannot be read or is damaged (named with its first damaged block);
/// [`TablebaseError::BadFile`] also when the two hold different variants.
pub fn compare(
    a: &Path,
    b: &Path,
    progress: &(dyn Fn(Material) + Sync),
) -> Result<CompareReport, TablebaseError> {
    for dir in [a, b] {
        if !dir.is_dir() {
            return Err(TablebaseError::NoDirectory(dir.to_path_buf()));
        }
    }
    let variant = Tablebase::variant_in(a);
    let other = Tablebase::variant_in(b);
    if other != variant {
        return Err(TablebaseError::BadFile(
            b.display().to_string(),
            format!("its tables are {other} draughts, those of A {variant} draughts"),
        ));
    }
    let (in_a, in_b) = (present(a), present(b));
    let mut report = CompareReport::default();
    for material in (2..=MAX_PIECES).flat_map(Material::all_with) {
        match (in_a.contains(&material), in_b.contains(&material)) {
            (true, true) => {}
            (true, false) => {
                report.only_in_one.push(format!("{material}: only in A"));
                continue;
            }
            (false, true) => {
                report.only_in_one.push(format!("{material}: only in B"));
                continue;
            }
            (false, false) => continue,
        }
        progress(material);
        let (x, y) = (
            stream::read(a, material, variant)?,
            stream::read(b, material, variant)?,
        );
        compare_slices(&x, &y, &mut report);
        report.slices += 1;
    }
    Ok(report)
}

fn compare_slices(x: &Slice, y: &Slice, report: &mut CompareReport) {
    let m = x.material;
    let n = m.positions();
    report.positions += n;
    for i in 0..n {
        let (vx, dx) = (x.value(i), x.distance(i));
        let (vy, dy) = (y.value(i), y.distance(i));
        if (vx, dx) == (vy, dy) {
            continue;
        }
        report.differences += 1;
        if report.examples.len() < 10 {
            let at = m
                .position_at_in(i, x.variant)
                .map_or_else(|| format!("index {i}"), |p| p.to_fen());
            report
                .examples
                .push(format!("{m} {at}: A {vx:?} {dx}, B {vy:?} {dy}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spanish::tablebase::index::Indexer;
    use crate::spanish::tablebase::Value;
    use crate::spanish::Position;

    #[test]
    fn compressed_tables_compare_equal_and_a_change_is_found() {
        let base = std::env::temp_dir().join(format!("damas-tb-compress-{}", std::process::id()));
        let (a, b) = (base.join("a"), base.join("b"));
        super::super::generate(&a, 2, 1, &|_| {}).unwrap();
        let options = CompressOptions {
            block_positions: 128,
            measure_values: true,
            captures_stored: false,
        };
        let report = compress(&a, &b, options, &|_| {}).unwrap();
        assert_eq!((report.slices, report.positions), (4, 7024));
        assert!(report.bytes_after * 2 < report.bytes_before, "{report:?}");
        assert!(report.value_bytes > 0 && report.value_bytes < report.bytes_after);
        let same = compare(&a, &b, &|_| {}).unwrap();
        assert_eq!(
            (same.slices, same.positions, same.differences),
            (4, 7024, 0)
        );
        assert!(same.only_in_one.is_empty());
        // Version 2 converts again to the same files.
        let c = base.join("c");
        compress(&b, &c, options, &|_| {}).unwrap();
        let m: Material = "1k0m-1k0m".parse().unwrap();
        assert_eq!(
            std::fs::read(file::path(&b, m)).unwrap(),
            std::fs::read(file::path(&c, m)).unwrap()
        );
        // One drawn position turned into a win in A is the one difference.
        let mut s = file::read(&a, m, crate::spanish::Variant::Spanish).unwrap();
        let pos: Position = "W:WK5:BK27".parse().unwrap();
        let i = Indexer::new(m).index(&pos);
        s.set(i, Value::Win, 3);
        file::write(&a, &s).unwrap();
        std::fs::remove_file(file::path(&b, "0k1m-0k1m".parse().unwrap())).unwrap();
        let diff = compare(&a, &b, &|_| {}).unwrap();
        assert_eq!((diff.slices, diff.differences), (3, 1));
        assert_eq!(diff.examples, ["1k0m-1k0m W:WK5:BK27: A Win 3, B Draw 0"]);
        assert_eq!(diff.only_in_one, ["0k1m-0k1m: only in A"]);
        let bad = CompressOptions {
            block_positions: 100,
            ..options
        };
        assert!(compress(&a, &c, bad, &|_| {}).is_err());
        std::fs::remove_dir_all(&base).unwrap();
    }
}
