//! `damas tablebase generate|probe|verify|compress|compare|time-probes`:
//! Spanish draughts endgame tables (docs/TABLEBASES.md).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use damas::spanish::tablebase::{self, Tablebase, MAX_PIECES};
use damas::spanish::{Draughts, Rules, Variant};
use damas::Game;
use indicatif::{ProgressBar, ProgressStyle};

use crate::output::{errln, outln, Failure};

/// The `tablebase` subcommand.
#[derive(Args, Debug)]
pub struct TablebaseArgs {
    #[command(subcommand)]
    command: TablebaseCommand,
}

#[derive(Subcommand, Debug)]
enum TablebaseCommand {
    /// Build every slice of 2 to N pieces (existing valid files are kept).
    Generate {
        /// Largest number of pieces (2 to 6).
        #[arg(long, required_unless_present = "slice",
              value_parser = clap::value_parser!(u32).range(2..=MAX_PIECES as i64))]
        pieces: Option<u32>,
        /// Directory of the slice files (created if needed).
        #[arg(long)]
        dir: PathBuf,
        /// Worker threads (0: every core).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=64))]
        threads: u16,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
        /// Only this slice (e.g. `2k1m-1k0m`), reading the slices it
        /// depends on from DIR: one job of a cluster run.
        #[arg(long)]
        slice: Option<tablebase::Material>,
        /// File format version written: 3 (compressed blocks, positions
        /// with a capture left to the reader), 2 (compressed blocks, every
        /// position) or 1.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=3))]
        format: u32,
        /// Memory the generation may take, in gigabytes (10^9 bytes, e.g.
        /// 0.5): a slice that does not fit whole is solved in parts.
        /// Default: the memory available now, less a margin.
        #[arg(long, value_name = "GB", value_parser = parse_gigabytes)]
        max_memory: Option<u64>,
        /// The same in megabytes (10^6 bytes), for tests.
        #[arg(long, value_name = "MB", hide = true, conflicts_with = "max_memory",
              value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        max_memory_mb: Option<u64>,
        /// The draughts variant whose rules the tables are solved under
        /// (spanish, portuguese, brazilian or russian), recorded in every
        /// file: a directory holds one variant's tables.
        #[arg(long, default_value = "spanish", value_parser = parse_variant)]
        variant: Variant,
    },
    /// List the slices of 2 to N pieces in dependency waves (`wave slice
    /// positions`): the slices of a wave are independent jobs.
    Slices {
        /// Largest number of pieces (2 to 8).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=8))]
        pieces: u32,
    },
    /// Value, distance and ranked moves of one position.
    Probe {
        /// Directory of the slice files.
        #[arg(long)]
        dir: PathBuf,
        /// The position (PDN FEN).
        #[arg(long)]
        fen: String,
        /// Plies already played without a capture or a man move (0-80).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=80))]
        counter: u32,
    },
    /// Check every slice file against the rules and its neighbours.
    Verify {
        /// Directory of the slice files.
        #[arg(long)]
        dir: PathBuf,
    },
    /// Convert every slice file of DIR (any format version) to format
    /// version 3 (compressed blocks, positions with a capture left to the
    /// reader) or 2 in OUT.
    Compress {
        /// Directory of the slice files to read.
        #[arg(long)]
        dir: PathBuf,
        /// Directory of the version 3 (or 2) files (created if needed).
        #[arg(long)]
        out: PathBuf,
        /// Positions per block (a power of two).
        #[arg(long, default_value_t = 4096)]
        block_positions: u64,
        /// Also measure the values alone compressed (encodes twice).
        #[arg(long)]
        measure_values: bool,
        /// File format version written: 3, or 2 (every position stored,
        /// for readers of versions 1 and 2 only).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..=3))]
        format: u32,
    },
    /// Compare two sets of slice files position by position: values and
    /// distances, any format version on either side.
    Compare {
        /// The first directory.
        a: PathBuf,
        /// The second directory.
        b: PathBuf,
    },
    /// Time probes of random positions of N pieces: the first probe of
    /// each (its block not yet decoded, for version 2) and a second one
    /// (decoded), after the slices' files have been read.
    TimeProbes {
        /// Directory of the slice files.
        #[arg(long)]
        dir: PathBuf,
        /// Pieces of the positions probed (default: the most covered).
        #[arg(long)]
        pieces: Option<u32>,
        /// Positions probed.
        #[arg(long, default_value_t = 100_000)]
        probes: usize,
        /// Seed of the positions drawn.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Runs the subcommand.
pub fn run(args: &TablebaseArgs) -> Result<(), Failure> {
    match &args.command {
        TablebaseCommand::Generate {
            pieces,
            dir,
            threads,
            quiet,
            slice,
            format,
            max_memory,
            max_memory_mb,
            variant,
        } => {
            let options = tablebase::GenerateOptions {
                threads: usize::from(*threads),
                format: file_format(*format),
                max_memory: max_memory.or(max_memory_mb.map(|mb| mb * 1_000_000)),
                variant: *variant,
            };
            match slice {
                Some(material) => generate_one(*material, dir, &options, *quiet),
                None => generate(pieces.unwrap_or(2), dir, &options, *quiet),
            }
        }
        TablebaseCommand::Slices { pieces } => {
            for (wave, slices) in tablebase::waves(*pieces).iter().enumerate() {
                for m in slices {
                    outln!("{wave} {m} {}", m.positions())?;
                }
            }
            Ok(())
        }
        TablebaseCommand::Probe { dir, fen, counter } => probe(dir, fen, *counter),
        TablebaseCommand::Verify { dir } => verify(dir),
        TablebaseCommand::Compress {
            dir,
            out,
            block_positions,
            measure_values,
            format,
        } => compress(dir, out, *block_positions, *measure_values, *format),
        TablebaseCommand::Compare { a, b } => compare(a, b),
        TablebaseCommand::TimeProbes {
            dir,
            pieces,
            probes,
            seed,
        } => time_probes(dir, *pieces, *probes, *seed),
    }
}

/// `--max-memory GB`: a number of gigabytes from 0.001 to 100 000, in bytes.
fn parse_gigabytes(text: &str) -> Result<u64, String> {
    match text.parse::<f64>() {
        Ok(gb) if gb.is_finite() && (0.001..=100_000.0).contains(&gb) => Ok((gb * 1e9) as u64),
        _ => Err("not a number of gigabytes from 0.001 to 100000".into()),
    }
}

/// Shows a generation's progress on standard error: a bar on a terminal
/// (its message, with the rate and the time left, redrawn every second);
/// on a pipe or a file, a line when a slice is kept, started or written
/// and every ten seconds in between.
struct Reporter {
    bar: Option<ProgressBar>,
    lines: bool,
    state: Mutex<Seen>,
}

/// What the reporter has seen so far.
struct Seen {
    /// The slice and stage of the last line (or bar message).
    last: Option<(usize, tablebase::Stage)>,
    last_line: Instant,
    /// Positions of the slices kept, which took no solving.
    kept: u64,
    /// When the first slice started being solved.
    solving_since: Option<Instant>,
}

impl Reporter {
    fn new(len: u64, quiet: bool) -> Reporter {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let bar = ProgressBar::new(len);
            bar.set_style(
                ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {percent:>3}% {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            bar
        });
        Reporter {
            bar,
            lines: !quiet && !terminal,
            state: Mutex::new(Seen {
                last: None,
                last_line: Instant::now(),
                kept: 0,
                solving_since: None,
            }),
        }
    }

    fn update(&self, p: &tablebase::Progress) {
        use tablebase::Stage;
        if self.bar.is_none() && !self.lines {
            return;
        }
        let mut seen = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let changed = seen.last != Some((p.slice, p.stage));
        match p.stage {
            Stage::Kept if changed => seen.kept += p.material.positions(),
            Stage::Solving { .. } if seen.solving_since.is_none() => {
                seen.solving_since = Some(Instant::now());
            }
            _ => {}
        }
        // The bar's message (rate, time left) every second, a line every ten.
        let period = Duration::from_secs(if self.bar.is_some() { 1 } else { 10 });
        let due = changed || seen.last_line.elapsed() >= period;
        seen.last = Some((p.slice, p.stage));
        // Rate and time left from the positions solved, not those kept.
        let solved = p.positions_done.saturating_sub(seen.kept);
        let secs = seen
            .solving_since
            .map_or(0.0, |t| t.elapsed().as_secs_f64());
        let rate = if secs > 0.0 {
            solved as f64 / secs
        } else {
            0.0
        };
        let left = if rate > 0.0 {
            format!(
                "{} left",
                duration_text((p.positions_total - p.positions_done) as f64 / rate)
            )
        } else {
            "time left unknown".to_string()
        };
        let what = match p.stage {
            Stage::Kept => " kept".to_string(),
            Stage::Solving { parts, peak } if changed => format!(
                " solving in {parts} part{}, estimated peak {} MB",
                if parts == 1 { "" } else { "s" },
                peak.div_ceil(1_000_000)
            ),
            Stage::Solving { .. } => String::new(),
            Stage::Written => " written".to_string(),
        };
        let status = format!(
            "slice {}/{} {}{what}: {:.1}% of {} positions, {:.2} M positions/s, {left}",
            p.slice,
            p.slices,
            p.material,
            100.0 * p.positions_done as f64 / p.positions_total.max(1) as f64,
            p.positions_total,
            rate / 1e6,
        );
        if due {
            seen.last_line = Instant::now();
        }
        if let Some(bar) = &self.bar {
            bar.set_position(p.positions_done);
            if due {
                // The bar shows the percentage; the message stays on one line.
                let parts = match p.stage {
                    Stage::Solving { parts, .. } if parts > 1 => format!(" in {parts} parts"),
                    _ => String::new(),
                };
                bar.set_message(format!(
                    "slice {}/{} {}{parts}, {:.2} M positions/s, {left}",
                    p.slice,
                    p.slices,
                    p.material,
                    rate / 1e6
                ));
            }
        } else if due {
            errln!("{status}");
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Seconds as `1 h 2 min`, `3 min 4 s` or `5 s`.
fn duration_text(secs: f64) -> String {
    let s = secs.round().clamp(0.0, 1e9) as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// The header of the per-slice table.
const HEADER: &str = "slice         positions        wins       draws      losses    cursed   blessed  dmax        bytes     secs  parts";

/// One row of the per-slice table (`kept` for a slice read, not solved).
fn row(s: &tablebase::SliceReport) -> String {
    format!(
        "{:<10} {:>12} {:>11} {:>11} {:>11} {:>9} {:>9} {:>5} {:>12} {:>8} {:>6}",
        s.material.to_string(),
        s.positions,
        s.wins,
        s.draws,
        s.losses,
        s.cursed_wins,
        s.blessed_losses,
        s.max_distance,
        s.file_bytes,
        if s.resumed {
            "kept".to_string()
        } else {
            format!("{:.2}", s.time.as_secs_f64())
        },
        s.parts
    )
}

/// The format of `--format N`.
fn file_format(version: u32) -> tablebase::FileFormat {
    match version {
        1 => tablebase::FileFormat::V1,
        2 => tablebase::FileFormat::V2,
        _ => tablebase::FileFormat::V3,
    }
}

fn generate(
    pieces: u32,
    dir: &Path,
    options: &tablebase::GenerateOptions,
    quiet: bool,
) -> Result<(), Failure> {
    let total: u64 = (2..=pieces)
        .flat_map(tablebase::Material::all_with)
        .map(|m| m.positions())
        .sum();
    let reporter = Reporter::new(total, quiet);
    let report = tablebase::generate_with(dir, pieces, options, &|p| reporter.update(p));
    reporter.finish();
    let report = report.map_err(|e| e.to_string())?;
    outln!("{HEADER}")?;
    let (mut positions, mut bytes) = (0, 0);
    for s in &report.slices {
        positions += s.positions;
        bytes += s.file_bytes;
        outln!("{}", row(s))?;
    }
    outln!(
        "total {} slices, {positions} positions, {bytes} bytes, {:.1} s",
        report.slices.len(),
        report.time.as_secs_f64()
    )?;
    Ok(())
}

/// The `--variant` value parser: a draughts variant by its name.
fn parse_variant(text: &str) -> Result<Variant, String> {
    text.parse::<Variant>().map_err(|e| e.to_string())
}

fn generate_one(
    material: tablebase::Material,
    dir: &Path,
    options: &tablebase::GenerateOptions,
    quiet: bool,
) -> Result<(), Failure> {
    let reporter = Reporter::new(material.positions(), quiet);
    let s = tablebase::generate_slice_with(dir, material, options, &|p| reporter.update(p));
    reporter.finish();
    let s = s.map_err(|e| e.to_string())?;
    outln!("{HEADER}\n{}", row(&s))?;
    Ok(())
}

fn probe(dir: &Path, fen: &str, counter: u32) -> Result<(), Failure> {
    let tb = Tablebase::open(dir).map_err(|e| e.to_string())?;
    if tb.max_pieces() == 0 {
        return Err(Failure::Message(format!(
            "no complete set of tables in {} (every 2-piece slice is needed)",
            dir.display()
        )));
    }
    let read: Draughts = fen.parse().map_err(|e| format!("bad FEN: {e}"))?;
    // The position is read in the tables' variant.
    let rules = Rules::new(tb.variant()).map_err(|e| e.to_string())?;
    let game = Draughts::new(read.position().with_rules(rules));
    let pos = *game.position();
    let probe = tb.try_probe(&pos).map_err(|e| e.to_string())?;
    outln!(
        "value {} ({} at counter {counter}) distance {}",
        probe.wdl.name(),
        probe.value_at(counter).name(),
        probe.distance
    )?;
    let moves = tb
        .try_rank_moves(&pos, counter)
        .map_err(|e| format!("a successor has no value: {e}"))?;
    for m in moves {
        outln!(
            "move {} {} distance {}",
            game.move_text(&m.mv),
            m.value.name(),
            m.distance
        )?;
    }
    Ok(())
}

fn verify(dir: &Path) -> Result<(), Failure> {
    let report = tablebase::verify(dir, &|step| match step {
        tablebase::VerifyStep::Checking(m) => errln!("verifying {m}"),
        tablebase::VerifyStep::Skipped(why) => errln!("skipped {why}"),
    })
    .map_err(|e| e.to_string())?;
    outln!(
        "verified {} slices, {} positions, {} errors, variant {}",
        report.slices,
        report.positions,
        report.errors,
        report.variant
    )?;
    for e in &report.examples {
        outln!("error {e}")?;
    }
    if report.errors > 0 || report.slices == 0 {
        return Err(Failure::Message(if report.slices == 0 {
            "no slice files found".into()
        } else {
            format!("{} inconsistent positions", report.errors)
        }));
    }
    Ok(())
}

fn compress(
    dir: &Path,
    out: &Path,
    block_positions: u64,
    measure_values: bool,
    format: u32,
) -> Result<(), Failure> {
    let options = tablebase::CompressOptions {
        block_positions,
        measure_values,
        captures_stored: format == 2,
    };
    let report = tablebase::compress(dir, out, options, &|m| errln!("compressing {m}"))
        .map_err(|e| e.to_string())?;
    if report.slices == 0 {
        return Err(Failure::Message(format!(
            "no slice files in {}",
            dir.display()
        )));
    }
    outln!(
        "compressed {} slices, {} positions: {} bytes to {} bytes ({:.3} bits a position), {:.1} s",
        report.slices,
        report.positions,
        report.bytes_before,
        report.bytes_after,
        report.bytes_after as f64 * 8.0 / report.positions as f64,
        report.time.as_secs_f64()
    )?;
    if measure_values {
        outln!(
            "values alone: {} bytes ({:.3} bits a position)",
            report.value_bytes,
            report.value_bytes as f64 * 8.0 / report.positions as f64
        )?;
    }
    Ok(())
}

fn compare(a: &Path, b: &Path) -> Result<(), Failure> {
    let report =
        tablebase::compare(a, b, &|m| errln!("comparing {m}")).map_err(|e| e.to_string())?;
    outln!(
        "compared {} slices, {} positions, {} differences",
        report.slices,
        report.positions,
        report.differences
    )?;
    for e in &report.examples {
        outln!("difference {e}")?;
    }
    for o in &report.only_in_one {
        outln!("slice {o}")?;
    }
    if report.slices == 0 {
        return Err(Failure::Message("no slice is in both directories".into()));
    }
    if report.differences > 0 {
        return Err(Failure::Message(format!(
            "{} positions differ",
            report.differences
        )));
    }
    Ok(())
}

fn time_probes(dir: &Path, pieces: Option<u32>, probes: usize, seed: u64) -> Result<(), Failure> {
    let tb = Tablebase::open(dir).map_err(|e| e.to_string())?;
    let pieces = pieces.unwrap_or(tb.max_pieces());
    if pieces < 2 || pieces > tb.max_pieces() {
        return Err(Failure::Message(format!(
            "the tables in {} cover up to {} pieces",
            dir.display(),
            tb.max_pieces()
        )));
    }
    let slices = tablebase::Material::all_with(pieces);
    let total: u64 = slices.iter().map(|m| m.positions()).sum();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut positions = Vec::with_capacity(probes);
    while positions.len() < probes {
        let mut i = rng.u64(0..total);
        for m in &slices {
            if i < m.positions() {
                if let Some(p) = m.position_at_in(i, tb.variant()) {
                    positions.push(p);
                }
                break;
            }
            i -= m.positions();
        }
    }
    // Read every slice first: what is timed is the probes alone.
    let start = Instant::now();
    for m in &slices {
        let first = (0..m.positions()).find_map(|i| m.position_at_in(i, tb.variant()));
        if let Some(p) = first {
            tb.try_probe(&p).map_err(|e| e.to_string())?;
        }
    }
    let read = start.elapsed();
    let mut sum = 0u64;
    let mut pass = || {
        let start = Instant::now();
        for p in &positions {
            sum += tb.probe(p).map_or(0, |r| u64::from(r.distance));
        }
        start.elapsed().as_nanos() as f64 / positions.len() as f64
    };
    let first = pass();
    let second = pass();
    outln!(
        "{} slices of {pieces} pieces read in {:.3} s; {} probes: first {:.0} ns, again {:.0} ns a probe (checksum {sum})",
        slices.len(),
        read.as_secs_f64(),
        positions.len(),
        first,
        second
    )?;
    Ok(())
}
