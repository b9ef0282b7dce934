//! The evaluation's tuning pipeline on the command line: `damas datagen`
//! writes quiet labelled positions and `damas tune` fits the weights to
//! them, both reproducibly.

use std::path::{Path, PathBuf};
use std::process::Command;

use damas::spanish::Position;

const DAMAS: &str = env!("CARGO_BIN_EXE_damas");

fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("damas-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn damas(args: &[&str]) -> (bool, String) {
    let output = Command::new(DAMAS).args(args).output().expect("damas runs");
    let mut text = String::from_utf8_lossy(&output.stdout).to_string();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

fn datagen(out: &Path, seed: &str) -> (bool, String) {
    let out = out.to_str().expect("utf-8 temp path");
    damas(&[
        "datagen", "--games", "3", "--nodes", "300", "--seed", seed, "--out", out, "--quiet",
    ])
}

#[test]
fn datagen_writes_quiet_labelled_positions_reproducibly() {
    let (first, second, other) = (temp("a.txt"), temp("b.txt"), temp("c.txt"));
    let (ok, text) = datagen(&first, "7");
    assert!(ok, "{text}");
    let data = std::fs::read_to_string(&first).expect("written");
    let mut results = Vec::new();
    for line in data.lines() {
        let (fen, result) = line.rsplit_once(' ').expect("FEN and result");
        let pos = Position::from_fen(fen).expect("a valid FEN");
        assert!(pos.is_quiet() && !pos.has_capture(), "not quiet: {line}");
        assert!(["1", "0.5", "0"].contains(&result), "{line}");
        results.push(result);
    }
    // Three games, each with dozens of quiet positions, one label each.
    assert!(data.lines().count() > 30, "{data}");
    let mut labels = results.clone();
    labels.dedup();
    assert!(labels.len() <= 3, "one label per game: {labels:?}");
    // The same seed writes the same file; another seed other games.
    let (ok, text) = datagen(&second, "7");
    assert!(ok, "{text}");
    assert_eq!(std::fs::read_to_string(&second).expect("written"), data);
    let (ok, text) = datagen(&other, "8");
    assert!(ok, "{text}");
    assert_ne!(std::fs::read_to_string(&other).expect("written"), data);
    // An existing file is never overwritten.
    let (ok, text) = datagen(&first, "7");
    assert!(!ok && text.contains("--out"), "{text}");
    assert_eq!(std::fs::read_to_string(&first).expect("kept"), data);
    for path in [first, second, other] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn datagen_bounds_its_numbers() {
    let out = temp("bounds.txt");
    let out = out.to_str().expect("utf-8 temp path");
    for (flag, value) in [
        ("--games", "0"),
        ("--games", "1000001"),
        ("--nodes", "0"),
        ("--opening-plies", "41"),
        ("--hash", "0"),
        ("--seed", "x"),
    ] {
        let (ok, text) = damas(&["datagen", flag, value, "--out", out]);
        assert!(!ok && text.contains(flag), "{flag} {value}: {text}");
    }
    assert!(!std::path::Path::new(out).exists());
}

fn tune(data: &str, out: &str, extra: &[&str]) -> (bool, String) {
    let mut args = vec![
        "tune", "--data", data, "--out", out, "--epochs", "30", "--quiet",
    ];
    args.extend_from_slice(extra);
    damas(&args)
}

#[test]
fn tune_writes_the_weight_source_reproducibly() {
    let (data, first, second, dropped) = (
        temp("tune-data.txt"),
        temp("weights-a.rs"),
        temp("weights-b.rs"),
        temp("weights-c.rs"),
    );
    let (ok, text) = datagen(&data, "7");
    assert!(ok, "{text}");
    let path = |p: &PathBuf| p.to_str().expect("utf-8 temp path").to_string();
    let (ok, text) = tune(&path(&data), &path(&first), &[]);
    assert!(
        ok && text.contains("positions ") && text.contains("K 0."),
        "{text}"
    );
    let source = std::fs::read_to_string(&first).expect("written");
    assert!(source.contains("pub(crate) const WEIGHTS: [(i32, i32); FEATURES] = ["));
    assert!(source.contains("//! Data: damas-tune-"), "{source}");
    let names = damas::spanish::tuning::FEATURE_NAMES;
    let entries: Vec<&str> = source.lines().filter(|l| l.starts_with("    (")).collect();
    assert_eq!(entries.len(), names.len(), "{source}");
    for name in names {
        assert!(source.contains(&format!("    // {name}\n")), "{name}");
    }
    // The same data gives the same file.
    let (ok, text) = tune(&path(&data), &path(&second), &[]);
    assert!(ok, "{text}");
    assert_eq!(std::fs::read_to_string(&second).expect("written"), source);
    // A dropped feature keeps weight 0 in both phases.
    let (ok, text) = tune(&path(&data), &path(&dropped), &["--drop", "tempo"]);
    assert!(ok, "{text}");
    let source = std::fs::read_to_string(&dropped).expect("written");
    assert!(source.contains("    // tempo\n    (0, 0),\n"), "{source}");
    assert!(source.contains("//! Dropped: tempo."), "{source}");
    for path in [data, first, second, dropped] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn tune_refuses_bad_data_with_its_line() {
    let (data, out) = (temp("bad-data.txt"), temp("bad-weights.rs"));
    let (data_path, out_path) = (data.to_str().expect("utf-8"), out.to_str().expect("utf-8"));
    for (text, expected) in [
        ("W:W1-12:B21-32 1\nnonsense\n", ":2: expected 'FEN RESULT'"),
        ("W:W1-12:B21-32 2\n", ":1: result '2' is not 1, 0.5 or 0"),
        ("W:W1-12:B99 1\n", ":1: "),
        ("W:WK1:BK30 0.5\n", "no positions to fit"),
    ] {
        std::fs::write(&data, text).expect("written");
        let (ok, message) = tune(data_path, out_path, &[]);
        assert!(!ok && message.contains(expected), "{text}: {message}");
        assert!(!out.exists(), "nothing written for {text}");
    }
    std::fs::write(&data, "W:W1-12:B21-32 1\n").expect("written");
    let (ok, message) = tune(data_path, out_path, &["--drop", "no such feature"]);
    assert!(
        !ok && message.contains("--drop 'no such feature'"),
        "{message}"
    );
    let (ok, message) = damas(&[
        "tune", "--data", data_path, "--out", out_path, "--epochs", "0",
    ]);
    assert!(!ok && message.contains("--epochs"), "{message}");
    let (ok, message) = tune("/nonexistent/data.txt", out_path, &[]);
    assert!(
        !ok && message.contains("--data /nonexistent/data.txt"),
        "{message}"
    );
    let _ = std::fs::remove_file(data);
}

#[test]
fn tune_fits_the_patterns_reproducibly() {
    let (data, first, second) = (
        temp("pattern-data.txt"),
        temp("patterns-a.bin"),
        temp("patterns-b.bin"),
    );
    let (ok, text) = datagen(&data, "7");
    assert!(ok, "{text}");
    let path = |p: &PathBuf| p.to_str().expect("utf-8 temp path").to_string();
    let fit = |out: &PathBuf| {
        damas(&[
            "tune",
            "--data",
            &path(&data),
            "--patterns",
            &path(out),
            "--epochs",
            "30",
            "--holdout",
            "0.2",
            "--pattern-decay",
            "0.001",
            "--quiet",
        ])
    };
    let (ok, text) = fit(&first);
    assert!(ok, "{text}");
    assert!(
        text.contains("held-out error ") && text.contains("pattern weights "),
        "{text}"
    );
    let bytes = std::fs::read(&first).expect("written");
    let weights = damas::spanish::tuning::PatternWeights::from_bytes(&bytes).expect("a valid file");
    assert!(!weights.is_zero());
    // The same data and seed write the same file.
    let (ok, text) = fit(&second);
    assert!(ok, "{text}");
    assert_eq!(std::fs::read(&second).expect("written"), bytes);
    for path in [data, first, second] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn tune_checks_its_pattern_options() {
    let (data, out) = (temp("pattern-options.txt"), temp("pattern-options.bin"));
    std::fs::write(&data, "W:W1-12:B21-32 1\n").expect("written");
    let (data, out) = (data.to_str().expect("utf-8"), out.to_str().expect("utf-8"));
    for (args, expected) in [
        (vec!["--patterns", out, "--out", out], "--out"),
        (vec!["--patterns", out, "--holdout", "0.6"], "--holdout"),
        (
            vec!["--out", out, "--pattern-decay", "0.1"],
            "--pattern-decay",
        ),
        (
            vec!["--patterns", out, "--pattern-decay", "2"],
            "--pattern-decay",
        ),
        (vec![], "--out"),
    ] {
        let mut all = vec!["tune", "--data", data, "--epochs", "5", "--quiet"];
        all.extend_from_slice(&args);
        let (ok, message) = damas(&all);
        assert!(!ok && message.contains(expected), "{args:?}: {message}");
    }
    assert!(!std::path::Path::new(out).exists());
    let _ = std::fs::remove_file(data);
}
