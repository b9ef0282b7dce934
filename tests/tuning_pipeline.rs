//! The evaluation's tuning pipeline on the command line: `damas datagen`
//! writes quiet labelled positions, reproducibly.

use std::path::PathBuf;
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

fn datagen(out: &PathBuf, seed: &str) -> (bool, String) {
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
