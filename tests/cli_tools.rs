//! The command-line tools for people: `damas perft` and `damas play`.

use std::io::Write;
use std::process::{Command, Stdio};

const DAMAS: &str = env!("CARGO_BIN_EXE_damas");

fn run(args: &[&str], input: &str) -> (bool, String) {
    run_bytes(args, input.as_bytes())
}

fn run_bytes(args: &[&str], input: &[u8]) -> (bool, String) {
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
        .write_all(input)
        .expect("input written");
    let output = child.wait_with_output().expect("damas ends");
    let mut text = String::from_utf8_lossy(&output.stdout).to_string();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

#[test]
fn perft_counts_for_both_games() {
    let (ok, out) = run(&["perft", "--depth", "5"], "");
    assert!(ok && out.lines().any(|l| l == "nodes 7361"), "{out}");
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
    assert!(ok && out.lines().any(|l| l == "nodes 1469"), "{out}");
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
    assert!(ok && out.lines().any(|l| l == "nodes 4760"), "{out}");
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
    assert!(ok && out.lines().any(|l| l == "nodes 196"), "{out}");
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

/// `--game japanese` and its documented alias `--variant japanese` (with
/// or without `--game chinese`) count the same game; `--variant
/// international` is `--game chinese`; a variant of the star given to
/// another game is refused.
#[test]
fn perft_takes_the_game_by_name_and_variant_as_its_alias() {
    let nodes = |args: &[&str]| {
        let mut all = vec!["perft", "--depth", "3"];
        all.extend_from_slice(args);
        let (ok, out) = run(&all, "");
        assert!(ok, "{all:?}: {out}");
        out.lines()
            .find_map(|l| l.strip_prefix("nodes "))
            .unwrap_or_else(|| panic!("{all:?}: no nodes line in {out}"))
            .to_string()
    };
    assert_eq!(nodes(&["--game", "japanese"]), "20304");
    assert_eq!(nodes(&["--variant", "japanese"]), "20304");
    assert_eq!(
        nodes(&["--game", "chinese", "--variant", "japanese"]),
        "20304"
    );
    assert_eq!(nodes(&["--game", "chinese"]), "4760");
    assert_eq!(nodes(&["--variant", "international"]), "4760");
    assert_eq!(nodes(&[]), "302");
    let (ok, out) = run(
        &[
            "perft",
            "--game",
            "spanish",
            "--variant",
            "japanese",
            "--depth",
            "3",
        ],
        "",
    );
    assert!(
        !ok && out.contains("not of --game spanish") && !out.contains("panicked"),
        "{out}"
    );
}

/// `--variant` also names a draughts rule set (the `Variant` option, as
/// `--rule Variant=...` does): Brazilian men capture backward, so the
/// counts part from the Spanish ones at depth 5; Portuguese moves as
/// Spanish. A draughts rule set with another game is refused.
#[test]
fn perft_and_play_take_the_draughts_variant() {
    let nodes = |args: &[&str]| {
        let mut all = vec!["perft", "--depth", "5"];
        all.extend_from_slice(args);
        let (ok, out) = run(&all, "");
        assert!(ok, "{all:?}: {out}");
        out.lines()
            .find_map(|l| l.strip_prefix("nodes "))
            .unwrap_or_else(|| panic!("{all:?}: no nodes line in {out}"))
            .to_string()
    };
    assert_eq!(nodes(&["--variant", "brazilian"]), "7473");
    assert_eq!(
        nodes(&["--game", "spanish", "--variant", "brazilian"]),
        "7473"
    );
    assert_eq!(nodes(&["--rule", "Variant=brazilian"]), "7473");
    assert_eq!(nodes(&["--variant", "portuguese"]), "7361");
    assert_eq!(nodes(&["--variant", "spanish"]), "7361");
    let (ok, out) = run(
        &[
            "perft",
            "--game",
            "chinese",
            "--variant",
            "brazilian",
            "--depth",
            "1",
        ],
        "",
    );
    assert!(
        !ok && out.contains("not a variant of --game chinese") && !out.contains("panicked"),
        "{out}"
    );
    let (ok, out) = run(&["perft", "--variant", "checkers", "--depth", "1"], "");
    assert!(
        !ok && out.contains("brazilian") && !out.contains("panicked"),
        "{out}"
    );
    let (ok, out) = run(
        &[
            "play",
            "--variant",
            "brazilian",
            "--movetime",
            "20",
            "--no-color",
        ],
        "new\nquit\n",
    );
    assert!(ok && out.contains("Brazilian draughts"), "{out}");
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
fn every_count_on_the_command_line_is_bounded() {
    for args in [
        &["perft", "--depth", "3", "--threads", "18446744073709551615"][..],
        &["perft", "--depth", "3", "--threads", "65"],
        &["perft", "--depth", "33"],
        &["perft", "--depth", "3", "--hash", "0"],
        &["perft", "--depth", "3", "--hash", "65537"],
        &["perft", "--depth", "3", "--hash", "18446744073709551616"],
        &["bench", "--depth", "0"],
        &["bench", "--depth", "121"],
        &["solitaire", "--beam", "0"],
        &["solitaire", "--beam", "10000000"],
    ] {
        let (ok, out) = run(args, "");
        assert!(!ok, "{args:?} accepted: {out}");
        assert!(
            out.contains("invalid value") && !out.contains("panicked"),
            "{args:?}: {out}"
        );
    }
    // Threads beyond the cores count on the cores.
    let (ok, out) = run(&["perft", "--depth", "5", "--threads", "64"], "");
    assert!(ok && out.lines().any(|l| l == "nodes 7361"), "{out}");
    let (ok, out) = run(&["perft", "--depth", "0", "--divide"], "");
    assert!(ok && out.lines().any(|l| l == "nodes 1"), "{out}");
}

#[test]
fn hashed_perft_gives_the_plain_counts() {
    for (args, want) in [
        (
            &["perft", "--depth", "7", "--hash", "4"][..],
            "nodes 177532",
        ),
        (
            &["perft", "--depth", "7", "--hash", "4", "--threads", "2"],
            "nodes 177532",
        ),
        (
            &["perft", "--game", "chinese", "--depth", "4", "--hash", "2"],
            "nodes 115600",
        ),
    ] {
        let (ok, out) = run(args, "");
        assert!(ok && out.lines().any(|l| l == want), "{args:?}: {out}");
    }
    let (ok, out) = run(&["perft", "--depth", "3", "--hash", "4", "--divide"], "");
    assert!(!ok && out.contains("cannot be used with"), "{out}");
    let (ok, out) = run(
        &[
            "perft",
            "--fen",
            "W:WK9:B5,13,15,28",
            "--depth",
            "1",
            "--keep-duplicates",
        ],
        "",
    );
    assert!(ok && out.lines().any(|l| l == "nodes 2"), "{out}");
    let (ok, out) = run(
        &[
            "perft",
            "--game",
            "chinese",
            "--depth",
            "2",
            "--keep-duplicates",
        ],
        "",
    );
    assert!(!ok && out.contains("is for Spanish draughts"), "{out}");
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
fn play_survives_bad_bytes_and_echoes_no_terminal_escapes() {
    let mut input = b"\xff\xfe11-15\n".to_vec();
    input.extend_from_slice(b"moves \x1b[2J\x1b]0;pwned\x07\n");
    input.extend_from_slice(&[b'x'; 10_000]);
    input.extend_from_slice(b"\n11-15\nquit\n");
    let (ok, out) = run_bytes(&["play", "--movetime", "20", "--no-color"], &input);
    assert!(ok, "{out}");
    assert!(!out.contains('\x1b'), "an escape was echoed: {out:?}");
    assert!(!out.contains('\x07'), "a bell was echoed: {out:?}");
    assert!(out.contains("line too long (10000 bytes"), "{out}");
    assert!(out.contains("p1 plays 11-15"), "play went on: {out}");
    assert!(
        out.lines().all(|l| l.len() < 400),
        "a reply repeated too much input: {out}"
    );
}

#[test]
fn play_new_game_rotates_the_first_seat() {
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
            "2",
            "--human",
            "3",
            "--no-color",
        ],
        "new\nnew\nnew\nquit\n",
    );
    assert!(ok, "{out}");
    let prompts: Vec<&str> = out
        .split("to move> ")
        .filter_map(|chunk| chunk.rsplit('\n').next())
        .map(str::trim)
        .filter(|p| p.starts_with('p'))
        .collect();
    assert_eq!(prompts, ["p1", "p2", "p3", "p1"], "{out}");
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
