//! The command-line tools for people: `damas perft` and `damas play`.

use std::io::Write;
use std::process::{Command, Stdio};

const DAMAS: &str = env!("CARGO_BIN_EXE_damas");

fn run(args: &[&str], input: &str) -> (bool, String) {
    let mut child = Command::new(DAMAS)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("damas starts");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())
        .expect("input written");
    let output = child.wait_with_output().expect("damas ends");
    let mut text = String::from_utf8_lossy(&output.stdout).to_string();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

#[test]
fn perft_counts_for_both_games() {
    let (ok, out) = run(&["perft", "--depth", "5"], "");
    assert!(ok && out.contains("nodes 7361"), "{out}");
    let (ok, out) = run(
        &[
            "perft",
            "--game",
            "spanish",
            "--depth",
            "4",
            "--threads",
            "2",
        ],
        "",
    );
    assert!(ok && out.contains("nodes 1469"), "{out}");
    let (ok, out) = run(
        &[
            "perft",
            "--game",
            "chinese",
            "--players",
            "2",
            "--depth",
            "3",
        ],
        "",
    );
    assert!(ok && out.contains("nodes 4760"), "{out}");
    let (ok, out) = run(
        &[
            "perft",
            "--game",
            "chinese",
            "--players",
            "3",
            "--depth",
            "2",
            "--divide",
        ],
        "",
    );
    assert!(ok && out.contains("nodes 196"), "{out}");
    assert_eq!(out.lines().filter(|l| l.contains('-')).count(), 14, "{out}");
    let (ok, out) = run(
        &[
            "perft",
            "--fen",
            "B:W18,K3:BK30,22",
            "--depth",
            "1",
            "--divide",
        ],
        "",
    );
    assert!(ok && out.contains("nodes"), "{out}");
}

#[test]
fn perft_refuses_bad_input_without_panicking() {
    let (ok, out) = run(&["perft", "--fen", "W:W1-40:B21-32", "--depth", "2"], "");
    assert!(
        !ok && out.contains("damas:") && !out.contains("panicked"),
        "{out}"
    );
    let (ok, out) = run(
        &[
            "perft",
            "--game",
            "spanish",
            "--players",
            "3",
            "--depth",
            "2",
        ],
        "",
    );
    assert!(!ok && !out.contains("panicked"), "{out}");
}

#[test]
fn play_lists_moves_takes_a_move_and_the_engine_answers() {
    let (ok, out) = run(
        &["play", "--movetime", "20", "--no-color"],
        "moves 11\n11-15\n99-1\nquit\n",
    );
    assert!(ok, "{out}");
    assert!(
        out.contains("11-15 11-14") || out.contains("11-14 11-15"),
        "{out}"
    );
    assert!(out.contains("p1 plays 11-15"), "{out}");
    assert!(out.contains("p2 (engine) plays"), "{out}");
    assert!(out.contains("'99' is not a square"), "{out}");
}

#[test]
fn play_chinese_for_three_players_with_two_humans() {
    let (ok, out) = run(
        &[
            "play",
            "--game",
            "chinese",
            "--players",
            "3",
            "--human",
            "1",
            "--human",
            "3",
            "--movetime",
            "20",
            "--no-color",
        ],
        "moves\ne4-e5\nquit\n",
    );
    assert!(ok, "{out}");
    assert!(out.contains("p1 plays e4-e5"), "{out}");
    assert!(out.contains("p2 (engine) plays"), "{out}");
    assert!(out.contains("p3 to move>"), "{out}");
}

#[test]
fn bench_prints_a_reproducible_signature_for_both_games() {
    for game in ["spanish", "chinese"] {
        let (ok, first) = run(&["bench", "--game", game, "--depth", "3"], "");
        assert!(ok, "{first}");
        let nodes = |text: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix("nodes "))
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or_else(|| panic!("no node count in {text}"))
        };
        let (_, second) = run(&["bench", "--game", game, "--depth", "3"], "");
        assert!(nodes(&first) > 0);
        assert_eq!(nodes(&first), nodes(&second), "{game} signature changed");
        assert!(first.contains("nps "), "{first}");
    }
}
