//! The command-line tools end quietly when their standard output is
//! closed (`damas perft | head -1`) and never panic on a full or closed
//! standard error.

use std::fs::File;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

#[path = "support/bounded.rs"]
mod bounded;
use bounded::wait_bounded;

const DAMAS: &str = env!("CARGO_BIN_EXE_damas");
/// No tool run here may take longer.
const LIMIT: Duration = Duration::from_secs(60);

/// Runs `damas ARGS` with its stdout closed by the reader before the
/// tool writes: (exit code, stderr).
fn with_closed_stdout(args: &[&str], input: &str) -> (Option<i32>, String) {
    let mut child = Command::new(DAMAS)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("damas starts");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("piped");
    // The tool may already have stopped reading: a failed write is fine.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let output = wait_bounded(child, LIMIT);
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

#[test]
fn every_tool_exits_quietly_on_a_closed_stdout() {
    let cases: [&[&str]; 6] = [
        &["perft", "--depth", "5"],
        &["perft", "--depth", "3", "--divide"],
        &["bench", "--depth", "1", "--verbose"],
        &["solitaire", "--beam", "10"],
        &[
            "match", "--engine", DAMAS, "--engine", DAMAS, "--games", "1", "--depth", "1",
        ],
        &["play", "--movetime", "10"],
    ];
    for args in cases {
        let (code, err) = with_closed_stdout(args, "11-15\n22-18\nquit\n");
        assert_eq!(code, Some(0), "{args:?}: {err}");
        // The match's progress line goes to stderr; nothing else may.
        let unexpected: Vec<&str> = err
            .split(['\r', '\n'])
            .filter(|l| !l.trim().is_empty() && !l.starts_with('['))
            .collect();
        assert!(unexpected.is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn a_full_stderr_is_no_reason_to_fail() {
    let full = || {
        File::options()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    let child = Command::new(DAMAS)
        .args([
            "match", "--engine", DAMAS, "--engine", DAMAS, "--games", "2", "--depth", "1",
        ])
        .stdout(Stdio::piped())
        .stderr(full())
        .spawn()
        .expect("damas runs");
    let output = wait_bounded(child, LIMIT);
    assert!(output.status.success());
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.contains("Match: spanish, 2 games"), "{out}");
    // An error message that cannot be printed still gives status 1, not a
    // panic's 101.
    let child = Command::new(DAMAS)
        .args(["pdn", "check", "/nonexistent.pdn"])
        .stderr(full())
        .spawn()
        .expect("damas runs");
    assert_eq!(wait_bounded(child, LIMIT).status.code(), Some(1));
}
