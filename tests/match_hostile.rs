//! `damas match` against hostile engines (tests/support/hostile_engine.sh):
//! hangs, floods, output without line ends, deaf and crashing engines,
//! wrappers with children, refused options; results that survive signals
//! and write errors; bounded arguments. Every run is bounded in time (a
//! watchdog kills the runner) and the memory of every child is checked.

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use damas::options::Options;
use damas::{AnyGame, Game};

#[path = "support/bounded.rs"]
mod bounded;
#[path = "support/match_summary.rs"]
mod match_summary;
use match_summary::{forfeits, games_played, tally};

const DAMAS: &str = env!("CARGO_BIN_EXE_damas");
/// No run of the runner in this file may take longer.
const LIMIT: Duration = Duration::from_secs(60);
/// Nor may any process it starts grow past this.
const MAX_RSS_KIB: i64 = 512 * 1024;

fn hostile(mode: &str) -> String {
    format!(
        "bash {}/../tests/support/hostile_engine.sh {mode} {DAMAS}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("damas-hostile-{}-{name}", std::process::id()))
}

/// One runner at a time: the tests time engines, and engines that share
/// two cores with a dozen others would lose on time for no fault of theirs.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Waits for a runner within [`LIMIT`], then checks the memory of every
/// process waited for so far.
fn wait_bounded(child: Child) -> Output {
    let output = bounded::wait_bounded(child, LIMIT);
    bounded::assert_children_stayed_small(MAX_RSS_KIB);
    output
}

fn spawn_match(args: &[&str]) -> Child {
    Command::new(DAMAS)
        .arg("match")
        .arg("--quiet")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("damas match starts")
}

/// Runs a match to its end: (success, stdout, stderr).
fn run_match(args: &[&str]) -> (bool, String, String) {
    let output = wait_bounded(spawn_match(args));
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).to_string(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

#[test]
fn engines_that_never_answer_lose_on_time_and_cost_no_memory() {
    let _serial = serial();
    for mode in ["hang", "flood", "nonewline", "deaf"] {
        let start = Instant::now();
        // A small table: clearing the default one on the first move can
        // take longer than the 50 ms + margin on a loaded machine.
        let (ok, out, err) = run_match(&[
            "--engine",
            DAMAS,
            "--option",
            "Hash=1",
            "--engine",
            &hostile(mode),
            "--games",
            "2",
            "--movetime",
            "50",
        ]);
        assert!(ok, "{mode}: {err}\n{out}");
        assert_eq!(tally(&out), (2, 0, 0), "{mode}: {out}");
        assert_eq!(forfeits(&out), 2, "{mode}: {out}");
        assert!(out.contains("lost on time (no bestmove)"), "{mode}: {out}");
        // Two moves of 50 ms, two handshakes and the margins: far below.
        assert!(start.elapsed() < Duration::from_secs(20), "{mode}");
    }
}

#[test]
fn non_utf8_output_is_read_lossily_and_the_engine_plays_on() {
    let _serial = serial();
    let (ok, out, err) = run_match(&[
        "--engine",
        DAMAS,
        "--engine",
        &hostile("nonutf8"),
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(ok, "{err}\n{out}");
    let (w, d, l) = tally(&out);
    assert_eq!(w + d + l, 2, "{out}");
    assert_eq!(forfeits(&out), 0, "{out}");
}

#[test]
fn a_crash_at_start_is_reported_with_its_status_and_stderr() {
    let _serial = serial();
    let (ok, out, err) = run_match(&[
        "--engine",
        DAMAS,
        "--engine",
        &hostile("exit"),
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(ok, "{err}\n{out}");
    assert_eq!(tally(&out), (2, 0, 0), "{out}");
    assert!(out.contains("exited with status 2"), "{out}");
    assert!(
        out.contains("stderr: cannot load the evaluation file"),
        "{out}"
    );
}

#[test]
fn a_wrapper_scripts_children_end_with_the_game() {
    let _serial = serial();
    let pidfile = temp_path("wrapper.pid");
    let engine = format!("{} {}", hostile("wrapper"), pidfile.display());
    let (ok, out, err) = run_match(&[
        "--engine", DAMAS, "--engine", &engine, "--games", "1", "--depth", "1",
    ]);
    assert!(ok, "{err}\n{out}");
    let pid = std::fs::read_to_string(&pidfile).expect("the wrapper wrote its child's pid");
    let _ = std::fs::remove_file(&pidfile);
    let proc_dir = PathBuf::from(format!("/proc/{}", pid.trim()));
    let start = Instant::now();
    // The runner killed the group before it exited; give init a moment
    // to reap the orphan.
    while proc_dir.exists() && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !proc_dir.exists(),
        "the wrapper's child {pid} outlived the match"
    );
}

/// Replays every Chinese checkers record line; checks the places and
/// returns (places, moves) of each.
fn replay_lines(text: &str, options: &Options) -> Vec<(Vec<u32>, Vec<String>)> {
    text.lines()
        .map(|line| {
            let field = |key: &str| {
                line.split('\t')
                    .find_map(|f| f.strip_prefix(&format!("{key}=")))
                    .unwrap_or_else(|| panic!("no {key} in {line}"))
                    .to_string()
            };
            let mut game = AnyGame::new(&options.spec().expect("valid options"));
            let moves: Vec<String> = field("moves")
                .split_whitespace()
                .map(String::from)
                .collect();
            for mv in &moves {
                game.play_text(mv)
                    .unwrap_or_else(|err| panic!("{mv}: {err} in {line}"));
            }
            let replayed: Vec<u32> = game
                .outcome()
                .unwrap_or_else(|| panic!("record does not replay to an end: {line}"))
                .places
                .iter()
                .map(|&p| u32::from(p))
                .collect();
            let recorded: Vec<u32> = field("places")
                .split(',')
                .map(|p| p.parse().expect("a place"))
                .collect();
            assert_eq!(replayed, recorded, "{line}");
            (recorded, moves)
        })
        .collect()
}

fn chinese_options(players: &str, move_limit: &str) -> Options {
    let mut options = Options::default();
    options.set("Game", "chinese").expect("valid");
    options.set("Players", players).expect("valid");
    options.set("MoveLimit", move_limit).expect("valid");
    options
}

#[test]
fn a_seat_that_crashes_at_start_resigns_and_the_others_play_on() {
    let _serial = serial();
    let out_file = temp_path("three.txt");
    let input_log = temp_path("three-input.log");
    let recorder = format!("{} {}", hostile("tee"), input_log.display());
    let (ok, out, err) = run_match(&[
        "--game",
        "chinese",
        "--players",
        "3",
        "--rule",
        "MoveLimit=40",
        "--engine",
        DAMAS,
        "--engine",
        &recorder,
        "--engine",
        &hostile("exit"),
        "--games",
        "3",
        "--depth",
        "1",
        "--openings",
        "random:3",
        "--out",
        out_file.to_str().expect("utf-8"),
    ]);
    let text = std::fs::read_to_string(&out_file).unwrap_or_default();
    let input = std::fs::read_to_string(&input_log).unwrap_or_default();
    let _ = std::fs::remove_file(&out_file);
    let _ = std::fs::remove_file(&input_log);
    assert!(ok, "{err}\n{out}");
    // Only the crashed engine forfeits, once per game: the others read
    // its `resign` and play legal moves for the right player.
    assert_eq!(forfeits(&out), 3, "{out}");
    let told = input
        .lines()
        .filter(|l| l.starts_with("position startpos moves ") && l.contains(" resign"))
        .count();
    assert!(told > 0, "e2 was never sent the resignation:\n{input}");
    let games = replay_lines(&text, &chinese_options("3", "40"));
    assert_eq!(games.len(), 3);
    for (index, (places, moves)) in games.iter().enumerate() {
        assert!(
            moves.iter().any(|m| m == "resign"),
            "game {index}: {moves:?}"
        );
        assert_eq!(places.iter().filter(|&&p| p == 3).count(), 1, "{places:?}");
    }
    for line in text.lines() {
        let engines = line
            .split('\t')
            .find_map(|f| f.strip_prefix("engines="))
            .expect("engines");
        let places = line
            .split('\t')
            .find_map(|f| f.strip_prefix("places="))
            .expect("places");
        let dead = engines
            .split(',')
            .position(|e| e.starts_with("e3 "))
            .expect("e3 seated");
        assert_eq!(places.split(',').nth(dead), Some("3"), "{line}");
    }
}

#[test]
fn a_hanging_seat_of_six_forfeits_alone() {
    let _serial = serial();
    let out_file = temp_path("six.txt");
    let (ok, out, err) = run_match(&[
        "--game",
        "chinese",
        "--players",
        "6",
        "--rule",
        "MoveLimit=6",
        "--engine",
        DAMAS,
        "--option",
        "Hash=1",
        "--engine",
        &hostile("hang"),
        "--games",
        "2",
        "--movetime",
        "50",
        "--openings",
        "random:0",
        "--out",
        out_file.to_str().expect("utf-8"),
    ]);
    let text = std::fs::read_to_string(&out_file).unwrap_or_default();
    let _ = std::fs::remove_file(&out_file);
    assert!(ok, "{err}\n{out}");
    // Two engines in six seats: e2 sits in three seats of each game, and
    // each of them forfeits once (on time); e1's seats never do.
    assert_eq!(forfeits(&out), 6, "{out}");
    assert!(!out.contains("e1 (p"), "e1 forfeited: {out}");
    let games = replay_lines(&text, &chinese_options("6", "6"));
    assert_eq!(games.len(), 2);
    for (places, moves) in &games {
        assert_eq!(moves.iter().filter(|m| *m == "resign").count(), 3);
        let mut sorted = places.clone();
        sorted.sort_unstable();
        // The three who stayed share first place at the move limit; the
        // three who hung take 4th, 5th and 6th in the order they fell.
        assert_eq!(sorted, [1, 1, 1, 4, 5, 6], "{places:?}");
    }
}

#[test]
fn a_refused_option_stops_the_match_with_the_engines_line() {
    let _serial = serial();
    let (ok, out, err) = run_match(&[
        "--engine",
        DAMAS,
        "--option",
        "Thraeds=2",
        "--engine",
        DAMAS,
        "--games",
        "4",
        "--depth",
        "1",
    ]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("info string error unknown option 'Thraeds'"),
        "{err}"
    );
    assert!(err.contains("match stopped"), "{err}");
    assert_eq!(games_played(&out), 0, "{out}");
}

#[test]
fn a_missing_or_non_executable_engine_is_reported_before_any_game() {
    let _serial = serial();
    let plain = temp_path("plain-engine");
    std::fs::write(&plain, "#!/bin/sh\n").expect("temp file");
    let cases = [
        ("/nonexistent/engine".to_string(), "No such file"),
        (plain.display().to_string(), "not executable"),
        ("no-such-engine-on-path".to_string(), "not found on PATH"),
        ("'unclosed".to_string(), "missing closing quote"),
    ];
    for (engine, why) in &cases {
        let (ok, out, err) = run_match(&["--engine", DAMAS, "--engine", engine, "--games", "2"]);
        assert!(!ok, "{engine}: {out}");
        assert!(err.contains(why), "{engine}: {err}");
        assert!(out.is_empty(), "{engine}: a game was played: {out}");
    }
    let _ = std::fs::remove_file(&plain);
}

#[test]
fn an_existing_out_file_is_kept_unless_appended_to() {
    let _serial = serial();
    let path = temp_path("existing.pdn");
    std::fs::write(&path, "[Event \"kept\"]\n").expect("temp file");
    let out_arg = path.to_str().expect("utf-8");
    let common = [
        "--engine", DAMAS, "--engine", DAMAS, "--games", "2", "--depth", "1",
    ];
    let (ok, out, err) = run_match(&[&common[..], &["--out", out_arg]].concat());
    assert!(!ok && err.contains("--append"), "{err}\n{out}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        std::fs::read_to_string(&path).expect("kept"),
        "[Event \"kept\"]\n"
    );
    let (ok, out, err) = run_match(&[&common[..], &["--out", out_arg, "--append"]].concat());
    assert!(ok, "{err}\n{out}");
    let text = std::fs::read_to_string(&path).expect("written");
    let _ = std::fs::remove_file(&path);
    assert!(text.starts_with("[Event \"kept\"]\n"), "{text}");
    assert_eq!(text.matches("[Event \"damas match\"]").count(), 2, "{text}");
}

#[test]
fn sigterm_keeps_every_finished_game_and_prints_the_summary() {
    let _serial = serial();
    let path = temp_path("sigterm.pdn");
    let child = spawn_match(&[
        "--engine",
        DAMAS,
        "--engine",
        DAMAS,
        "--games",
        "200",
        "--movetime",
        "10",
        "--out",
        path.to_str().expect("utf-8"),
    ]);
    let start = Instant::now();
    let written = |path: &PathBuf| {
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .matches("[Event ")
            .count()
    };
    while written(&path) < 2 && start.elapsed() < LIMIT / 2 {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(written(&path) >= 2, "no game written in time");
    let pid = libc::pid_t::try_from(child.id()).expect("pid");
    // SAFETY: kill with a valid signal number has no memory effects.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let output = wait_bounded(child);
    let out = String::from_utf8_lossy(&output.stdout).to_string();
    let err = String::from_utf8_lossy(&output.stderr).to_string();
    let in_file = written(&path);
    let _ = std::fs::remove_file(&path);
    assert!(!output.status.success(), "{out}");
    assert!(err.contains("interrupted after"), "{err}");
    let played = games_played(&out) as usize;
    assert!((2..200).contains(&played), "{out}");
    assert_eq!(in_file, played, "every finished game is in the file");
    let (w, d, l) = tally(&out);
    assert_eq!((w + d + l) as usize, played, "{out}");
}

#[test]
fn a_write_error_stops_the_match_and_reports_the_results_so_far() {
    let _serial = serial();
    let (ok, out, err) = run_match(&[
        "--engine",
        DAMAS,
        "--engine",
        DAMAS,
        "--games",
        "20",
        "--depth",
        "1",
        "--out",
        "/dev/full",
        "--append",
    ]);
    assert!(!ok, "{out}");
    assert!(err.contains("writing '/dev/full'"), "{err}");
    assert!(err.contains("0 written"), "{err}");
    // The first game ended, could not be written, and nothing more was
    // played; its result is in the summary.
    assert_eq!(games_played(&out), 1, "{out}");
}

#[test]
fn game_and_concurrency_counts_are_bounded() {
    let _serial = serial();
    for (flag, value) in [
        ("--games", "18446744073709551615"),
        ("--games", "100000000"),
        ("--games", "0"),
        ("--concurrency", "0"),
        ("--concurrency", "65"),
        ("--movetime", "18446744073709551615"),
        ("--depth", "1001"),
        ("--nodes", "0"),
        ("--openings", "random:100000"),
    ] {
        let (ok, out, err) = run_match(&[
            "--engine", DAMAS, "--engine", DAMAS, flag, value, "--depth", "1",
        ]);
        assert!(!ok, "{flag} {value}: {out}");
        assert!(err.contains(flag), "{flag} {value}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A million games is accepted and allocates nothing for them; a
    // signal stops it.
    let child = spawn_match(&[
        "--engine", DAMAS, "--engine", DAMAS, "--games", "1000000", "--depth", "1",
    ]);
    std::thread::sleep(Duration::from_millis(1000));
    // The runner's own peak memory, while it runs: a table per game (or
    // an opening per pair) would be well over 100 MiB here.
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).expect("status");
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    assert!(peak_kib < 100 * 1024, "the runner grew to {peak_kib} KiB");
    let pid = libc::pid_t::try_from(child.id()).expect("pid");
    // SAFETY: as above.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let output = wait_bounded(child);
    let err = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(err.contains("of 1000000 games"), "{err}");
}

#[test]
fn more_threads_than_cores_is_warned_about() {
    let _serial = serial();
    let (ok, out, err) = run_match(&[
        "--engine",
        DAMAS,
        "--option",
        "Threads=64",
        "--engine",
        DAMAS,
        "--concurrency",
        "2",
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(ok, "{err}\n{out}");
    assert!(
        err.contains("warning: --concurrency 2 × Threads 64 = 128 threads"),
        "{err}"
    );
}

#[test]
fn sprt_parameters_are_checked_before_any_game() {
    let _serial = serial();
    for sprt in [
        "-inf,5,0.05,0.05",
        "0,NaN,0.05,0.05",
        "5,5,0.05,0.05",
        "0,5,0,0.05",
        "0,5,0.05,1.5",
    ] {
        let (ok, out, err) = run_match(&[
            "--engine",
            DAMAS,
            "--engine",
            DAMAS,
            &format!("--sprt={sprt}"),
        ]);
        assert!(!ok && out.is_empty(), "{sprt}: {out}");
        assert!(err.contains("--sprt"), "{sprt}: {err}");
    }
}

#[test]
fn paired_games_are_counted_as_pairs() {
    let _serial = serial();
    let (ok, out, err) = run_match(&[
        "--engine",
        DAMAS,
        "--engine",
        DAMAS,
        "--option",
        "Style=random",
        "--games",
        "5",
        "--depth",
        "1",
    ]);
    assert!(ok, "{err}\n{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("Pairs "))
        .unwrap_or_else(|| panic!("no pairs line: {out}"));
    let counts: Vec<u32> = line
        .split(": ")
        .nth(1)
        .expect("counts")
        .split_whitespace()
        .take(5)
        .map(|n| n.parse().expect("a count"))
        .collect();
    assert_eq!(counts.iter().sum::<u32>(), 2, "{line}");
    assert!(
        line.contains("(1 unpaired game(s) not in the Elo)"),
        "{line}"
    );
    assert!(
        out.contains("Elo difference: too few games"),
        "two pairs say nothing: {out}"
    );
}
