//! Generation of every slice up to a piece count, in dependency order,
//! resumable per slice.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::file::{self, Slice};
use super::index::{Indexer, Material};
use super::probe::Tablebase;
use super::solve::{solve_config, Solved};
use super::{par, TablebaseError, Value, MAX_PIECES};

/// Progress of a generation, handed to the caller's callback from the
/// worker threads.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The slice being solved.
    pub material: Material,
    /// Its number, from 1, among `slices`.
    pub slice: usize,
    /// Slices in this run.
    pub slices: usize,
    /// Index positions done over the whole run (holes included).
    pub positions_done: u64,
    /// Index positions of the whole run.
    pub positions_total: u64,
}

/// What one slice holds and what it cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceReport {
    /// Its material.
    pub material: Material,
    /// Index size (holes included).
    pub positions: u64,
    /// Won positions (within the 80-ply rule).
    pub wins: u64,
    /// Drawn positions (holes excluded).
    pub draws: u64,
    /// Lost positions.
    pub losses: u64,
    /// Wins only without the 80-ply rule (draws under it).
    pub cursed_wins: u64,
    /// Losses only without the 80-ply rule (draws under it).
    pub blessed_losses: u64,
    /// Largest distance of a win or loss within the rule.
    pub max_distance: u32,
    /// Bytes of its file.
    pub file_bytes: u64,
    /// Solving time (zero when the file was already there).
    pub time: Duration,
    /// Whether the slice was read from an existing file (a resumed run).
    pub resumed: bool,
}

/// A whole run.
#[derive(Clone, Debug)]
pub struct GenerateReport {
    /// Every slice, in the order solved.
    pub slices: Vec<SliceReport>,
    /// Wall time.
    pub time: Duration,
}

/// Generates every slice with 2 to `pieces` pieces into `dir` (created if
/// needed), on `threads` threads (0: every core; one without the `rayon`
/// feature). A slice whose file is already there and passes its checksum
/// is read instead of solved, so an interrupted run resumes where it
/// stopped. `progress` is called after each solved men configuration.
///
/// Memory: the values of the finished slices stay in memory (a quarter
/// byte per index position), plus the slice being solved (1.25 bytes per
/// position) and the working arrays of the configurations being solved at
/// once (about 25 bytes per position of each; the largest 6-piece
/// configuration, three kings against three, has 36 million positions).
///
/// # Errors
///
/// [`TablebaseError::TooManyPieces`] for `pieces` over the supported
/// maximum; [`TablebaseError::Io`] when `dir` cannot be made, read or
/// written; [`TablebaseError::BadFile`] for a damaged file of a smaller
/// slice that this run reads.
pub fn generate(
    dir: &Path,
    pieces: u32,
    threads: usize,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<GenerateReport, TablebaseError> {
    generate_as(dir, pieces, threads, FileFormat::V1, progress)
}

/// The format of the files a generation writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// Version 1: 2 bits of value and a byte of distance per position.
    V1,
    /// Version 2: blocks of 4 096 positions compressed, each with its own
    /// checksum (what [`super::compress`] writes).
    V2,
}

/// [`generate`], writing the files in `format`. Files already there are
/// kept in whichever version they are (a directory may mix them).
///
/// # Errors
///
/// As [`generate`].
pub fn generate_as(
    dir: &Path,
    pieces: u32,
    threads: usize,
    format: FileFormat,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<GenerateReport, TablebaseError> {
    if pieces > MAX_PIECES {
        return Err(TablebaseError::TooManyPieces(pieces));
    }
    let start = Instant::now();
    let tables = Tablebase::empty(dir, 0);
    let order: Vec<Material> = (2..=pieces).flat_map(Material::all_with).collect();
    let total: u64 = order.iter().map(|m| m.positions()).sum();
    let done = AtomicU64::new(0);
    let mut reports = Vec::new();
    for (i, &material) in order.iter().enumerate() {
        let progress_of = |positions_done| Progress {
            material,
            slice: i + 1,
            slices: order.len(),
            positions_done,
            positions_total: total,
        };
        let (slice, report) = build(&tables, material, threads, format, &done, &|p| {
            progress(&progress_of(p))
        })?;
        reports.push(report);
        tables.insert(slice.values_only());
    }
    Ok(GenerateReport {
        slices: reports,
        time: start.elapsed(),
    })
}

/// Generates the one slice `material` into `dir`, reading the slices it
/// depends on from their files there (they must exist: every slice of
/// [`waves`] before its own). This is the unit of work of a cluster job
/// (docs/TABLEBASES.md); an existing valid file is kept.
///
/// # Errors
///
/// [`TablebaseError::Missing`] when a slice that `material` depends on has
/// no file in `dir`; [`TablebaseError::Io`] or [`TablebaseError::BadFile`]
/// when a file cannot be read or written or is damaged.
pub fn generate_slice(
    dir: &Path,
    material: Material,
    threads: usize,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<SliceReport, TablebaseError> {
    generate_slice_as(dir, material, threads, FileFormat::V1, progress)
}

/// [`generate_slice`], writing the file in `format` (the slices it reads
/// may be in either).
///
/// # Errors
///
/// As [`generate_slice`].
pub fn generate_slice_as(
    dir: &Path,
    material: Material,
    threads: usize,
    format: FileFormat,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<SliceReport, TablebaseError> {
    if material.pieces() > MAX_PIECES {
        return Err(TablebaseError::TooManyPieces(material.pieces()));
    }
    let tables = Tablebase::empty(dir, MAX_PIECES);
    let done = AtomicU64::new(0);
    let (_, report) = build(
        &tables,
        material,
        threads,
        format,
        &done,
        &|positions_done| {
            progress(&Progress {
                material,
                slice: 1,
                slices: 1,
                positions_done,
                positions_total: material.positions(),
            })
        },
    )?;
    Ok(report)
}

/// Reads the slice `material` from its file in the tables' directory, or
/// solves and writes it; `done` counts index positions for `progress`.
fn build(
    tables: &Tablebase,
    material: Material,
    threads: usize,
    format: FileFormat,
    done: &AtomicU64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Slice, SliceReport), TablebaseError> {
    let dir = tables.dir();
    let t = Instant::now();
    let (slice, resumed) = match file::read(dir, material) {
        Ok(s) => {
            done.fetch_add(material.positions(), Ordering::Relaxed);
            (s, true)
        }
        Err(_) => {
            let tick = |n: u64| progress(done.fetch_add(n, Ordering::Relaxed) + n);
            let s = par::with_threads(threads, || solve_slice(tables, material, &tick))?;
            match format {
                FileFormat::V1 => file::write(dir, &s)?,
                FileFormat::V2 => {
                    par::with_threads(threads, || file::write_packed(dir, &s, file::BLOCK_LEN))?;
                }
            }
            (s, false)
        }
    };
    let mut report = count(&slice);
    report.time = if resumed { Duration::ZERO } else { t.elapsed() };
    report.resumed = resumed;
    report.file_bytes = std::fs::metadata(file::path(dir, material))
        .map(|m| m.len())
        .unwrap_or(0);
    Ok((slice, report))
}

/// The slices of 2 to `pieces` pieces in waves: the slices of one wave
/// depend only on earlier waves (captures lead to fewer pieces, promotions
/// to fewer men), so each wave can run as independent jobs.
///
/// ```
/// use damas::spanish::tablebase::{waves, Material};
/// let w = waves(3);
/// let kk: Material = "1k0m-1k0m".parse().unwrap();
/// assert_eq!(w[0], [kk]); // two kings: no men, no captures to wait for
/// assert_eq!(w.len(), 3 + 4); // by men: 0-2 with 2 pieces, 0-3 with 3
/// assert_eq!(w.iter().map(Vec::len).sum::<usize>(), 4 + 12);
/// ```
pub fn waves(pieces: u32) -> Vec<Vec<Material>> {
    let mut out: Vec<Vec<Material>> = Vec::new();
    for n in 2..=pieces.min(super::index::MAX_INDEX_PIECES) {
        let mut by_men: BTreeMap<u32, Vec<Material>> = BTreeMap::new();
        for m in Material::all_with(n) {
            by_men.entry(m.men()).or_default().push(m);
        }
        out.extend(by_men.into_values());
    }
    out
}

/// Solves one slice, configurations of equal advancement in parallel and
/// the most advanced first (a man move only goes to a more advanced one).
pub(crate) fn solve_slice(
    tables: &Tablebase,
    material: Material,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<Slice, TablebaseError> {
    let ix = Indexer::new(material);
    let mut levels: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
    for config in 0..material.men_configs() {
        let men = ix.men(config);
        if men.is_valid() {
            levels.entry(men.advancement()).or_default().push(config);
        } else {
            tick(ix.sub_len());
        }
    }
    let mut slice = Slice::empty(material);
    for configs in levels.values().rev() {
        let solved = Solved {
            tables,
            current: &slice,
            indexer: ix,
        };
        let results = par::map_range(configs.len(), |j| {
            let r = solve_config(&solved, ix.men(configs[j]));
            tick(ix.sub_len());
            r
        });
        for (j, r) in results.into_iter().enumerate() {
            let base = configs[j] * ix.sub_len();
            for (local, (v, d)) in r?.into_iter().enumerate() {
                slice.set(base + local as u64, v, d);
            }
        }
    }
    Ok(slice)
}

/// The counts of a solved slice (holes skipped).
fn count(slice: &Slice) -> SliceReport {
    let m = slice.material;
    let ix = Indexer::new(m);
    let mut r = SliceReport {
        material: m,
        positions: m.positions(),
        wins: 0,
        draws: 0,
        losses: 0,
        cursed_wins: 0,
        blessed_losses: 0,
        max_distance: 0,
        file_bytes: 0,
        time: Duration::ZERO,
        resumed: false,
    };
    for config in 0..m.men_configs() {
        if !ix.men(config).is_valid() {
            continue;
        }
        let base = config * ix.sub_len();
        for i in base..base + ix.sub_len() {
            let d = u32::from(slice.distance(i));
            match slice.value(i) {
                Value::Win => {
                    r.wins += 1;
                    r.max_distance = r.max_distance.max(d);
                }
                Value::Loss => {
                    r.losses += 1;
                    r.max_distance = r.max_distance.max(d);
                }
                Value::CursedWin => r.cursed_wins += 1,
                Value::Draw if d > 0 => r.blessed_losses += 1,
                Value::Draw => r.draws += 1,
            }
        }
    }
    r
}
