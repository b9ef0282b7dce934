//! Replays every file of the fuzz seed corpus (`fuzz/corpus/<target>/`) and
//! every crash ever found (`fuzz/regressions/<target>/`) through the same
//! checks the fuzz targets run, so the default test suite covers them
//! without libFuzzer. See docs/TESTING.md.

#[path = "../fuzz/src/harness.rs"]
#[allow(dead_code)]
mod harness;

use std::fs;
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The files of `dir/<target>/`, sorted; none if the folder is missing.
fn files(dir: &str, target: &str) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(fuzz_dir().join(dir).join(target)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    files.sort();
    files
}

fn replay(dir: &str) -> usize {
    let mut count = 0;
    for target in harness::TARGETS {
        for file in files(dir, target) {
            let data = fs::read(&file).expect("readable corpus file");
            let result = std::panic::catch_unwind(|| harness::check(target, &data));
            assert!(result.is_ok(), "{target}: {} fails", file.display());
            count += 1;
        }
    }
    count
}

#[test]
fn seed_corpus_passes_every_check() {
    let count = replay("corpus");
    assert!(count >= harness::TARGETS.len(), "only {count} corpus files");
    for target in harness::TARGETS {
        assert!(
            !files("corpus", target).is_empty(),
            "no seed corpus for {target}"
        );
    }
}

#[test]
fn every_regression_found_by_fuzzing_stays_fixed() {
    replay("regressions");
}
