//! The PDN reader on files written by hand in the PDN 3.0 style and on the
//! records `damas match` writes; `damas pdn check`.

use std::process::{Command, Output, Stdio};
use std::time::Duration;

use damas::pdn::{read_games, ReplayError};
use damas::Game;

#[path = "support/bounded.rs"]
mod bounded;

const DAMAS: &str = env!("CARGO_BIN_EXE_damas");
/// No run of the binary here may take longer.
const LIMIT: Duration = Duration::from_secs(60);

fn run(args: &[&str]) -> Output {
    let child = Command::new(DAMAS)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("damas runs");
    bounded::wait_bounded(child, LIMIT)
}

fn data(name: &str) -> String {
    format!("{}/../tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("damas-pdn-{}-{name}", std::process::id()))
}

/// `damas pdn check FILE`: (success, stdout, stderr).
fn check(path: &str) -> (bool, String, String) {
    let output = run(&["pdn", "check", path]);
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).to_string(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

#[test]
fn a_hand_written_file_reads_and_replays() {
    let text = std::fs::read_to_string(data("hand_written.pdn")).expect("test data");
    let games = read_games(&text).expect("reads");
    assert_eq!(games.len(), 3);
    // CRLF line ends, accents in tags, comments, a variation with a
    // comment, a NAG, `!`, a number glued to its move, a long capture by
    // its landing squares, a capture written with `-` (19-10) and a line
    // break inside the game.
    assert_eq!(games[0].tag("White"), Some("Pérez, Ana"));
    assert_eq!(games[0].moves().len(), 30);
    assert_eq!(games[0].moves()[8], "6x15x22");
    assert_eq!(games[0].result(), Some("*"));
    let first = games[0].replay().expect("legal");
    assert_eq!(first.moves().len(), 30);
    let long = first.moves()[8];
    assert_eq!((long.from().number(), long.to().number()), (6, 22));
    assert_eq!(long.captured().count(), 2);
    // A problem from a FEN with the 2-point result.
    assert_eq!(games[1].result(), Some("2-0"));
    assert_eq!(games[1].line(), 17);
    let problem = games[1].replay().expect("legal");
    assert!(problem.is_over(), "White took both men");
    assert_eq!(
        problem
            .outcome()
            .and_then(|o| o.winner())
            .map(|p| p.index()),
        Some(0)
    );
    // Kings, Black first, a result on its own line.
    let kings = games[2].replay().expect("legal");
    assert_eq!(games[2].moves(), ["22x13", "3x17", "30-26", "17x30"]);
    assert!(kings.is_over());
    assert_eq!(games[2].result(), Some("1-0"));
}

#[test]
fn pdn_check_accepts_good_files_and_names_the_first_illegal_move() {
    let (ok, out, err) = check(&data("hand_written.pdn"));
    assert!(ok, "{err}");
    assert!(out.contains("game 1 (line 1): 30 plies, ok"), "{out}");
    assert!(out.contains("3 games, all legal"), "{out}");
    let text = std::fs::read_to_string(data("hand_written.pdn")).expect("test data");
    let broken = text.replace("1. 6x13x22 2-0", "1. 6x14x22 2-0");
    let path = temp_path("broken.pdn");
    std::fs::write(&path, &broken).expect("temp file");
    let (ok, out, err) = check(path.to_str().expect("utf-8"));
    let _ = std::fs::remove_file(&path);
    assert!(!ok, "{out}");
    assert!(
        err.contains("game 2 (line 17): ply 1 (line 20): '6x14x22'"),
        "{err}"
    );
    let (ok, _, err) = check("/nonexistent.pdn");
    assert!(!ok && err.contains("/nonexistent.pdn"), "{err}");
    let path = temp_path("open.pdn");
    std::fs::write(&path, "[Event \"x\"]\n1. 11-15 {never closed\n").expect("temp file");
    let (ok, _, err) = check(path.to_str().expect("utf-8"));
    let _ = std::fs::remove_file(&path);
    assert!(!ok && err.contains("line 2: comment not closed"), "{err}");
}

#[test]
fn match_records_read_back_game_for_game() {
    let path = temp_path("match.pdn");
    let output = run(&[
        "match",
        "--quiet",
        "--engine",
        DAMAS,
        "--engine",
        DAMAS,
        "--option",
        "Style=random",
        "--games",
        "4",
        "--depth",
        "2",
        "--openings",
        "random:3",
        "--out",
        path.to_str().expect("utf-8"),
    ]);
    assert!(output.status.success());
    let text = std::fs::read_to_string(&path).expect("written");
    let (ok, out, err) = check(path.to_str().expect("utf-8"));
    let _ = std::fs::remove_file(&path);
    assert!(ok, "{err}");
    assert!(out.contains("4 games, all legal"), "{out}");
    let games = read_games(&text).expect("reads");
    assert_eq!(games.len(), 4);
    let mut rounds: Vec<u32> = games
        .iter()
        .map(|g| g.tag("Round").and_then(|r| r.parse().ok()).expect("round"))
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, [1, 2, 3, 4]);
    for game in &games {
        assert_eq!(game.result(), game.tag("Result"));
        let replayed = game.replay().expect("legal");
        // A game the rules ended replays to its recorded result.
        if let Some(outcome) = replayed.outcome() {
            let expected = match outcome.winner().map(|p| p.index()) {
                Some(0) => "1-0",
                Some(_) => "0-1",
                None => "1/2-1/2",
            };
            assert_eq!(game.result(), Some(expected));
        }
    }
}

#[test]
fn replay_errors_are_typed() {
    let games = read_games("[GameType \"21\"] 1. 32-28 *").expect("reads");
    assert_eq!(
        games[0].replay().map(|_| ()),
        Err(ReplayError::GameType("21".into()))
    );
}
