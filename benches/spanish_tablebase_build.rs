//! One timed build and verification of the Spanish draughts endgame tables
//! of up to N pieces (default 5), too long for criterion's repeated
//! samples: `cargo bench -p damas --bench spanish_tablebase_build [-- N]`.
//! `DAMAS_TB_DIR` keeps the files in a directory of your choice (an
//! existing complete set is then resumed, not rebuilt); otherwise a
//! temporary directory is used and removed. Prints the wall time, the
//! positions per second and the file bytes of each step.

use std::time::Instant;

use damas::spanish::tablebase::{generate, verify};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo test --benches` runs bench binaries without `--bench`: skip.
    if !args.iter().any(|a| a == "--bench") {
        return;
    }
    let pieces: u32 = args
        .iter()
        .find_map(|a| a.parse().ok())
        .unwrap_or(5)
        .clamp(2, damas::spanish::tablebase::MAX_PIECES);
    let (dir, keep) = match std::env::var_os("DAMAS_TB_DIR") {
        Some(dir) => (dir.into(), true),
        None => (
            std::env::temp_dir().join(format!("damas-tb-build-{}", std::process::id())),
            false,
        ),
    };
    let start = Instant::now();
    let report = match generate(&dir, pieces, 0, &|_| {}) {
        Ok(report) => report,
        Err(err) => {
            eprintln!("generate: {err}");
            std::process::exit(1);
        }
    };
    let built = start.elapsed().as_secs_f64();
    let positions: u64 = report.slices.iter().map(|s| s.positions).sum();
    let bytes: u64 = report.slices.iter().map(|s| s.file_bytes).sum();
    let kept = report.slices.iter().filter(|s| s.resumed).count();
    println!(
        "generate up to {pieces} pieces: {} slices ({kept} kept), {positions} positions, \
         {bytes} bytes, {built:.1} s, {:.2} M positions/s",
        report.slices.len(),
        positions as f64 / built / 1e6
    );
    let start = Instant::now();
    let checked = match verify(&dir, &|_| {}) {
        Ok(report) => report,
        Err(err) => {
            eprintln!("verify: {err}");
            std::process::exit(1);
        }
    };
    let verified = start.elapsed().as_secs_f64();
    println!(
        "verify: {} slices, {} positions, {} errors, {verified:.1} s",
        checked.slices, checked.positions, checked.errors
    );
    if !keep {
        let _ = std::fs::remove_dir_all(&dir);
    }
    if checked.errors > 0 {
        std::process::exit(1);
    }
}
