//! `damas tablebase generate|probe|verify|compress|compare|time-probes`:
//! Spanish draughts endgame tables (docs/TABLEBASES.md).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use damas::spanish::tablebase::{self, Tablebase, MAX_PIECES};
use damas::spanish::Draughts;
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
        /// File format version written: 2 (compressed blocks) or 1.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
        format: u32,
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
    /// Convert every slice file of DIR (format version 1 or 2) to format
    /// version 2 (compressed blocks) in OUT.
    Compress {
        /// Directory of the slice files to read.
        #[arg(long)]
        dir: PathBuf,
        /// Directory of the version 2 files (created if needed).
        #[arg(long)]
        out: PathBuf,
        /// Positions per block (a power of two).
        #[arg(long, default_value_t = 4096)]
        block_positions: u64,
        /// Also measure the values alone compressed (encodes twice).
        #[arg(long)]
        measure_values: bool,
    },
    /// Compare two sets of slice files position by position: values and
    /// distances, either format version on either side.
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
            slice: Some(material),
            dir,
            threads,
            quiet,
            format,
            ..
        } => generate_one(
            *material,
            dir,
            usize::from(*threads),
            file_format(*format),
            *quiet,
        ),
        TablebaseCommand::Generate {
            pieces,
            dir,
            threads,
            quiet,
            slice: None,
            format,
        } => generate(
            pieces.unwrap_or(2),
            dir,
            usize::from(*threads),
            file_format(*format),
            *quiet,
        ),
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
        } => compress(dir, out, *block_positions, *measure_values),
        TablebaseCommand::Compare { a, b } => compare(a, b),
        TablebaseCommand::TimeProbes {
            dir,
            pieces,
            probes,
            seed,
        } => time_probes(dir, *pieces, *probes, *seed),
    }
}

fn bar(len: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {percent:>3}% {pos}/{len} positions, eta {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}

/// The header of the per-slice table.
const HEADER: &str = "slice         positions        wins       draws      losses    cursed   blessed  dmax        bytes     secs";

/// One row of the per-slice table (`kept` for a slice read, not solved).
fn row(s: &tablebase::SliceReport) -> String {
    format!(
        "{:<10} {:>12} {:>11} {:>11} {:>11} {:>9} {:>9} {:>5} {:>12} {:>8}",
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
        }
    )
}

/// The format of `--format N`.
fn file_format(version: u32) -> tablebase::FileFormat {
    if version == 1 {
        tablebase::FileFormat::V1
    } else {
        tablebase::FileFormat::V2
    }
}

fn generate(
    pieces: u32,
    dir: &Path,
    threads: usize,
    format: tablebase::FileFormat,
    quiet: bool,
) -> Result<(), Failure> {
    let total: u64 = (2..=pieces)
        .flat_map(tablebase::Material::all_with)
        .map(|m| m.positions())
        .sum();
    let bar = bar(total, quiet);
    let report = tablebase::generate_as(dir, pieces, threads, format, &|p| {
        bar.set_position(p.positions_done);
        bar.set_message(format!("slice {}/{} {}", p.slice, p.slices, p.material));
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
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

fn generate_one(
    material: tablebase::Material,
    dir: &Path,
    threads: usize,
    format: tablebase::FileFormat,
    quiet: bool,
) -> Result<(), Failure> {
    let bar = bar(material.positions(), quiet);
    let s = tablebase::generate_slice_as(dir, material, threads, format, &|p| {
        bar.set_position(p.positions_done)
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
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
    let game: Draughts = fen.parse().map_err(|e| format!("bad FEN: {e}"))?;
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
        "verified {} slices, {} positions, {} errors",
        report.slices,
        report.positions,
        report.errors
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
) -> Result<(), Failure> {
    let options = tablebase::CompressOptions {
        block_positions,
        measure_values,
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
    use std::time::Instant;
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
                if let Some(p) = m.position_at(i) {
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
        let first = (0..m.positions()).find_map(|i| m.position_at(i));
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
