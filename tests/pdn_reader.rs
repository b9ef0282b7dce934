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

/// Writes `bytes` to a fresh temporary file and runs `damas pdn check` on
/// it: (exit status, stdout, stderr).
fn check_bytes(name: &str, bytes: &[u8]) -> (Option<i32>, String, String) {
    let path = temp_path(name);
    std::fs::write(&path, bytes).expect("temp file");
    let output = run(&["pdn", "check", path.to_str().expect("utf-8")]);
    let _ = std::fs::remove_file(&path);
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).to_string(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

#[test]
fn pdn_check_skips_a_byte_order_mark_and_reads_0_0() {
    let (status, out, err) = check_bytes(
        "bom.pdn",
        b"\xef\xbb\xbf[Event \"a\"]\n1. 11-15 22-18 0-0\n1. 9-13 *\n",
    );
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(
        out,
        "game 1 (line 1): 2 plies, ok\ngame 2 (line 3): 1 plies, ok\n2 games, all legal\n"
    );
}

#[test]
fn pdn_check_reports_every_bad_game_and_counts_the_good() {
    let (status, out, err) = check_bytes(
        "tag2.pdn",
        b"[Event \"1\"] 1. 11-15 *\n[Event \"2\\x\"] 1. 11-15 *\n[Event \"3\"] 1. 11-15 *\n",
    );
    assert_eq!(status, Some(1));
    assert_eq!(
        out,
        "game 1 (line 1): 1 plies, ok\ngame 3 (line 3): 1 plies, ok\n3 games: 2 legal, 1 bad\n"
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].ends_with(".pdn: game 2 (line 2): line 2: malformed tag 'Event \"2\\\\x\"]': '\\' escapes only '\"' and '\\'"),
        "{err}"
    );
    assert!(lines[1].starts_with("damas: ") && lines[1].ends_with(": 1 of 3 games bad"));
    // 25 bad games among good ones: the first 20 told, the rest counted.
    let mut text = String::from("1. 11-15 *\n");
    for game in 0..25 {
        text.push_str(&format!("[Round \"{game}\"] 1. 11-16 *\n"));
    }
    text.push_str("1. 9-13 *\n");
    let (status, out, err) = check_bytes("many.pdn", text.as_bytes());
    assert_eq!(status, Some(1));
    assert!(out.ends_with("\n27 games: 2 legal, 25 bad\n"), "{out}");
    let told: Vec<&str> = err.lines().filter(|l| l.contains(": game ")).collect();
    assert_eq!(told.len(), 20, "{err}");
    assert!(
        told[0].contains(": game 2 (line 2): ply 1 (line 2): '11-16': "),
        "{err}"
    );
    assert!(told[19].contains(": game 21 (line 21): "), "{err}");
    assert!(err.contains(".pdn: 5 more bad games not shown\n"), "{err}");
    assert!(err.ends_with(": 25 of 27 games bad\n"), "{err}");
}

#[test]
fn pdn_check_cuts_and_escapes_a_huge_word() {
    let mut text = b"1. 11-15 \x00\x01".to_vec();
    text.extend(std::iter::repeat_n(b'w', 10 << 20));
    text.extend(b" *\n1. 9-13 *\n");
    let (status, out, err) = check_bytes("word.pdn", &text);
    assert_eq!(status, Some(1));
    assert!(out.ends_with("2 games: 1 legal, 1 bad\n"), "{out}");
    assert!(err.len() < 400, "{} bytes of stderr", err.len());
    assert!(!err.contains('\0'), "{err:?}");
    let shown = format!("'\\0\\u{{1}}{}…': not a move", "w".repeat(38));
    assert_eq!(err.matches(&shown).count(), 1, "{err}");
}

/// `damas pdn check ARG` with its address space capped at `kib`, through
/// the shell's `ulimit -v`, reading `stdin` if given: (status, stderr).
fn check_capped(kib: u64, arg: &str, stdin: Option<&str>) -> (Option<i32>, String) {
    let script = match stdin {
        Some(feed) => format!("{feed} | (ulimit -v {kib}; exec \"$0\" pdn check \"$1\")"),
        None => format!("ulimit -v {kib}; exec \"$0\" pdn check \"$1\""),
    };
    let child = Command::new("sh")
        .args(["-c", &script, DAMAS, arg])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let output = bounded::wait_bounded(child, LIMIT);
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

/// Address space allowed to `pdn check` on inputs of any size: the binary
/// and its buffers, far less than any of the inputs.
const CAPPED_KIB: u64 = 150_000;

#[cfg(unix)]
#[test]
fn pdn_check_streams_big_files_pipes_and_devices_in_bounded_memory() {
    // 40 MB, one game without an end: kept to its move cap, then skipped.
    let path = temp_path("big.pdn");
    {
        use std::io::Write;
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).expect("temp file"));
        for _ in 0..2_700_000 {
            file.write_all(b"1. 11-15 22-18 ").expect("write");
        }
        file.write_all(b"*\n1. 9-13 *\n").expect("write");
    }
    let (status, err) = check_capped(CAPPED_KIB, path.to_str().expect("utf-8"), None);
    let _ = std::fs::remove_file(&path);
    assert_eq!(status, Some(1), "{err}");
    assert!(
        err.contains(": game 1 (line 1): more than 20000 moves, skipped\n"),
        "{err}"
    );
    assert!(err.ends_with(": 1 of 2 games bad\n"), "{err}");
    // Endless and pipe-fed zeros: an error after 64 MiB, not memory.
    let no_end = "game 1 (line 1): no end of game within 64 MiB of text; the rest is not read";
    let (status, err) = check_capped(CAPPED_KIB, "/dev/zero", None);
    assert_eq!(status, Some(1), "{err}");
    assert!(err.starts_with(&format!("/dev/zero: {no_end}\n")), "{err}");
    let (status, err) = check_capped(CAPPED_KIB, "-", Some("head -c 300000000 /dev/zero"));
    assert_eq!(status, Some(1), "{err}");
    assert!(err.starts_with(&format!("-: {no_end}\n")), "{err}");
}
