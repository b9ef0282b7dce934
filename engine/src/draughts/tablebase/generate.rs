//! Generation of every slice up to a piece count, in dependency order,
//! resumable per slice, under a memory cap.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::deps::Deps;
use super::file::{self, Slice};
use super::index::{Indexer, Material};
use super::memory::{self, Plan, Shape};
use super::probe::Tablebase;
use super::solve::{solve_config, Finished, Solved};
use super::stream::{self, Scratch, Tally};
use super::{par, parts, TablebaseError, MAX_PIECES};
use crate::draughts::rules::Variant;

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
    /// What is happening to the slice.
    pub stage: Stage,
}

/// What is happening to the slice a [`Progress`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Its file is there and its checksums hold: it is kept.
    Kept,
    /// It is being solved in `parts` parts (1: the whole slice in memory)
    /// within an estimated `peak` bytes of memory.
    Solving {
        /// Parts: batches of configurations solved with only two
        /// advancement levels in memory, or 1 for the whole slice.
        parts: u64,
        /// The estimated peak memory of the process, in bytes.
        peak: u64,
    },
    /// It has been solved and its file written.
    Written,
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
    /// The parts it was solved in: 1 for the whole slice in memory, more
    /// under a memory cap it does not fit under whole, 0 when kept.
    pub parts: u64,
    /// The estimated peak memory of solving it, in bytes (0 when kept).
    pub peak_estimate: u64,
}

/// A whole run.
#[derive(Clone, Debug)]
pub struct GenerateReport {
    /// Every slice, in the order solved.
    pub slices: Vec<SliceReport>,
    /// Wall time.
    pub time: Duration,
}

/// How a generation runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Worker threads (0: every core; one without the `rayon` feature).
    pub threads: usize,
    /// The format of the files written.
    pub format: FileFormat,
    /// The memory the run may take, in bytes: a slice whose whole working
    /// set does not fit is solved in parts (docs/TABLEBASES.md), one that
    /// does not fit even so fails with [`TablebaseError::Memory`]. `None`:
    /// the memory available now, less a margin ([`memory_cap`]).
    pub max_memory: Option<u64>,
    /// The rules the tables are solved under, recorded in every file's
    /// header: a directory holds the tables of one variant.
    pub variant: Variant,
}

impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions {
            threads: 0,
            format: FileFormat::V1,
            max_memory: None,
            variant: Variant::Spanish,
        }
    }
}

/// The memory cap a generation takes when given none: `MemAvailable` of
/// /proc/meminfo less an eighth (at least 256 MiB), and at most three
/// quarters of the process's address-space limit; `u64::MAX` where
/// neither can be read.
pub fn memory_cap() -> u64 {
    memory::default_cap()
}

/// The estimated peak memory of generating `material` on `threads`
/// threads (0: every core) into `dir`, whose files of the slices it reads
/// count: the whole slice in memory, and the least it needs (in parts of
/// one configuration, or whole if that takes less). What
/// [`GenerateOptions::max_memory`] is compared with.
pub fn memory_needed(
    dir: &Path,
    material: Material,
    threads: usize,
    format: FileFormat,
) -> (u64, u64) {
    let shape = Shape::new(
        material,
        Deps::footprint(dir, material),
        thread_count(threads),
        format != FileFormat::V1,
    );
    (shape.whole(), shape.parts(1).min(shape.whole()))
}

/// The threads `threads` stands for (0: every core).
fn thread_count(threads: usize) -> u64 {
    let every = || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    if cfg!(feature = "rayon") {
        (if threads == 0 { every() } else { threads }) as u64
    } else {
        1
    }
}

/// Generates every slice with 2 to `pieces` pieces into `dir` (created if
/// needed), on `threads` threads (0: every core; one without the `rayon`
/// feature), in format version 1 under the default memory cap
/// ([`generate_with`]).
///
/// # Errors
///
/// As [`generate_with`].
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
    /// checksum.
    V2,
    /// Version 3: version 2 without the positions whose side to move has
    /// a capture (the reader works them out from smaller slices); what
    /// [`super::compress`] writes by default.
    V3,
}

impl FileFormat {
    /// The version number the files carry.
    pub fn version(self) -> u32 {
        match self {
            FileFormat::V1 => file::VERSION,
            FileFormat::V2 => file::VERSION_2,
            FileFormat::V3 => file::VERSION_3,
        }
    }
}

/// [`generate`], writing the files in `format`. Files already there are
/// kept in whichever version they are (a directory may mix them).
///
/// # Errors
///
/// As [`generate_with`].
pub fn generate_as(
    dir: &Path,
    pieces: u32,
    threads: usize,
    format: FileFormat,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<GenerateReport, TablebaseError> {
    let options = GenerateOptions {
        threads,
        format,
        ..GenerateOptions::default()
    };
    generate_with(dir, pieces, &options, progress)
}

/// Generates every slice with 2 to `pieces` pieces into `dir` (created if
/// needed) as `options` say. A slice whose file is already there and
/// passes its checksums is kept, so an interrupted run resumes where it
/// stopped (files are written under a temporary name and renamed when
/// complete). `progress` is called when a slice is kept, starts and is
/// written, and after each solved men configuration.
///
/// Memory: a slice being solved whole takes a byte and a quarter per
/// position, its working arrays (12 bytes per position of each
/// configuration solved at once) and the values of the slices its moves
/// reach (a quarter byte per position); in parts, only the values of two
/// advancement levels and a batch of configurations (docs/TABLEBASES.md).
/// The slices' plans are checked against the cap before any is solved.
///
/// # Errors
///
/// [`TablebaseError::TooManyPieces`] for `pieces` over the supported
/// maximum; [`TablebaseError::Memory`] when a slice to solve does not fit
/// under the cap even in parts; [`TablebaseError::Io`] when `dir` cannot
/// be made, read or written; [`TablebaseError::BadFile`] for a damaged
/// file of a smaller slice that this run reads;
/// [`TablebaseError::OtherVariant`] when `dir` holds the tables of another
/// variant than [`GenerateOptions::variant`].
pub fn generate_with(
    dir: &Path,
    pieces: u32,
    options: &GenerateOptions,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<GenerateReport, TablebaseError> {
    if pieces > MAX_PIECES {
        return Err(TablebaseError::TooManyPieces(pieces));
    }
    same_variant(dir, options.variant)?;
    let start = Instant::now();
    let order: Vec<Material> = (2..=pieces).flat_map(Material::all_with).collect();
    let mut run = Run::new(dir, options);
    // Every slice left to solve must fit, before hours go into the others.
    // (The slices it reads are counted at full size: some may not exist
    // yet.)
    for &material in &order {
        if !file::path(dir, material).exists() {
            run.shape(material, true)
                .plan(run.cap)
                .map_err(|least| run.too_big(material, least))?;
        }
    }
    let total: u64 = order.iter().map(|m| m.positions()).sum();
    let done = AtomicU64::new(0);
    let mut reports = Vec::new();
    for (i, &material) in order.iter().enumerate() {
        let progress_of = |positions_done, stage| Progress {
            material,
            slice: i + 1,
            slices: order.len(),
            positions_done,
            positions_total: total,
            stage,
        };
        reports.push(run.build(material, &done, &|p, stage| {
            progress(&progress_of(p, stage));
        })?);
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
/// As [`generate_slice_with`].
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
/// As [`generate_slice_with`].
pub fn generate_slice_as(
    dir: &Path,
    material: Material,
    threads: usize,
    format: FileFormat,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<SliceReport, TablebaseError> {
    let options = GenerateOptions {
        threads,
        format,
        ..GenerateOptions::default()
    };
    generate_slice_with(dir, material, &options, progress)
}

/// [`generate_slice`] as `options` say.
///
/// # Errors
///
/// [`TablebaseError::Missing`] when a slice that `material` depends on has
/// no file in `dir`; [`TablebaseError::Memory`] when it does not fit under
/// the cap even in parts; [`TablebaseError::Io`] or
/// [`TablebaseError::BadFile`] when a file cannot be read or written or is
/// damaged; [`TablebaseError::OtherVariant`] when `dir` holds the tables
/// of another variant.
pub fn generate_slice_with(
    dir: &Path,
    material: Material,
    options: &GenerateOptions,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<SliceReport, TablebaseError> {
    if material.pieces() > MAX_PIECES {
        return Err(TablebaseError::TooManyPieces(material.pieces()));
    }
    same_variant(dir, options.variant)?;
    let mut run = Run::new(dir, options);
    let done = AtomicU64::new(0);
    run.build(material, &done, &|positions_done, stage| {
        progress(&Progress {
            material,
            slice: 1,
            slices: 1,
            positions_done,
            positions_total: material.positions(),
            stage,
        });
    })
}

/// Refuses a generation of `variant` into a directory that holds another
/// variant's tables: its files would be taken for damaged ones and
/// written over.
fn same_variant(dir: &Path, variant: Variant) -> Result<(), TablebaseError> {
    match Tablebase::variant_found(dir) {
        Some(found) if found != variant => Err(TablebaseError::OtherVariant {
            dir: dir.to_path_buf(),
            found,
            wanted: variant,
        }),
        _ => Ok(()),
    }
}

/// One run: where, how, under which cap, and the slices read so far.
struct Run<'a> {
    dir: &'a Path,
    options: GenerateOptions,
    cap: u64,
    threads: u64,
    deps: Deps,
}

impl Run<'_> {
    fn new<'a>(dir: &'a Path, options: &GenerateOptions) -> Run<'a> {
        Run {
            dir,
            options: *options,
            cap: options.max_memory.unwrap_or_else(memory::default_cap),
            threads: thread_count(options.threads),
            deps: Deps::new(dir, options.variant),
        }
    }

    /// The memory shape of `material`; `all_reached`: count every slice it
    /// reaches, not only those with a file now.
    fn shape(&self, material: Material, all_reached: bool) -> Shape {
        let deps = if all_reached {
            let values = super::deps::reached(material)
                .iter()
                .map(|m| m.positions().div_ceil(4))
                .sum();
            let (_, reading, resolving) = Deps::footprint(self.dir, material);
            (values, reading, resolving)
        } else {
            Deps::footprint(self.dir, material)
        };
        Shape::new(
            material,
            deps,
            self.threads,
            self.options.format != FileFormat::V1,
        )
    }

    fn too_big(&self, material: Material, needs: u64) -> TablebaseError {
        TablebaseError::Memory {
            material,
            needs,
            cap: self.cap,
        }
    }

    /// Keeps the slice `material` if its file is whole, or solves and
    /// writes it; `done` counts index positions for `progress`.
    fn build(
        &mut self,
        material: Material,
        done: &AtomicU64,
        progress: &(dyn Fn(u64, Stage) + Sync),
    ) -> Result<SliceReport, TablebaseError> {
        let dir = self.dir;
        let n = material.positions();
        let file_bytes = || std::fs::metadata(file::path(dir, material)).map_or(0, |m| m.len());
        if let Ok(tally) = stream::tally_file(dir, material, self.options.variant) {
            progress(done.fetch_add(n, Ordering::Relaxed) + n, Stage::Kept);
            return Ok(report(material, tally, file_bytes(), None));
        }
        let t = Instant::now();
        let shape = self.shape(material, false);
        let (plan, peak) = shape
            .plan(self.cap)
            .map_err(|least| self.too_big(material, least))?;
        let parts = match plan {
            Plan::Whole => 1,
            Plan::Parts { chunk } => shape
                .levels
                .values()
                .map(|c| (c.len() as u64).div_ceil(chunk))
                .sum(),
        };
        let stage = Stage::Solving { parts, peak };
        progress(done.load(Ordering::Relaxed), stage);
        self.deps.prepare(material)?;
        let tick = |k: u64| progress(done.fetch_add(k, Ordering::Relaxed) + k, stage);
        let valid: u64 = shape.levels.values().map(|c| c.len() as u64).sum();
        tick(n - valid * shape.sub_len);
        let threads = self.options.threads;
        let format = self.options.format;
        let variant = self.options.variant;
        let (len, tally) = match plan {
            Plan::Whole => {
                let deps = &self.deps;
                let slice = par::with_threads(threads, || {
                    solve_slice(deps, material, variant, &shape.levels, &tick)
                })?;
                let len = if format == FileFormat::V1 {
                    file::write(dir, &slice)?;
                    file_bytes()
                } else {
                    let stored = format == FileFormat::V2;
                    par::with_threads(threads, || {
                        file::write_packed(dir, &slice, file::BLOCK_LEN, stored)
                    })?
                };
                let tally = count(&slice);
                self.deps.offer(slice);
                (len, tally)
            }
            Plan::Parts { chunk } => {
                let mut scratch = Scratch::create(dir, material, variant)?;
                let deps = &self.deps;
                par::with_threads(threads, || {
                    parts::solve_in_parts(
                        deps,
                        material,
                        variant,
                        &shape.levels,
                        chunk,
                        &mut scratch,
                        &tick,
                    )
                })?;
                par::with_threads(threads, || scratch.write_file(dir, format.version()))?
            }
        };
        // A scratch file an interrupted run left, when the slice was solved
        // whole this time.
        let _ = std::fs::remove_file(Scratch::path(dir, material));
        progress(done.load(Ordering::Relaxed), Stage::Written);
        Ok(report(
            material,
            tally,
            len,
            Some((t.elapsed(), parts, peak)),
        ))
    }
}

/// The report of a slice: `solved` holds its time, parts and estimated
/// peak, `None` for a slice kept.
fn report(
    material: Material,
    tally: Tally,
    file_bytes: u64,
    solved: Option<(Duration, u64, u64)>,
) -> SliceReport {
    let (time, parts, peak_estimate) = solved.unwrap_or((Duration::ZERO, 0, 0));
    SliceReport {
        material,
        positions: material.positions(),
        wins: tally.wins,
        draws: tally.draws,
        losses: tally.losses,
        cursed_wins: tally.cursed_wins,
        blessed_losses: tally.blessed_losses,
        max_distance: tally.max_distance,
        file_bytes,
        time,
        resumed: solved.is_none(),
        parts,
        peak_estimate,
    }
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

/// Solves one slice whole in memory, the configurations of one
/// advancement level (`levels`) in parallel and the most advanced first (a
/// man move only goes to a more advanced one).
pub(crate) fn solve_slice(
    tables: &dyn Finished,
    material: Material,
    variant: Variant,
    levels: &BTreeMap<u32, Vec<u64>>,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<Slice, TablebaseError> {
    let ix = Indexer::new(material);
    let mut slice = Slice::empty(material, variant);
    for configs in levels.values().rev() {
        let solved = Solved {
            tables,
            current: &slice,
            indexer: ix,
            variant,
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
fn count(slice: &Slice) -> Tally {
    let mut tally = Tally::default();
    for i in 0..slice.material.positions() {
        tally.add(slice.value(i), slice.distance(i));
    }
    tally.without_holes(slice.material)
}
