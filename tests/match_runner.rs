//! `damas match` end to end: short matches between engine configurations,
//! and a faulty engine that plays an illegal move, crashes or overruns its
//! clock.

use std::process::Command;

use damas::options::Options;
use damas::{AnyGame, Game};

#[path = "support/match_summary.rs"]
mod match_summary;
use match_summary::tally;

const DAMAS: &str = env!("CARGO_BIN_EXE_damas");

fn faulty(mode: &str) -> String {
    format!(
        "bash {}/../tests/support/hostile_engine.sh {mode}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn run_match(args: &[&str]) -> String {
    let output = Command::new(DAMAS)
        .arg("match")
        .arg("--quiet")
        .args(args)
        .output()
        .expect("damas match runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "match failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn temp_file(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("damas-test-{}-{name}", std::process::id()))
}

#[test]
fn two_configurations_play_a_spanish_match_and_the_pdn_parses() {
    let out = temp_file("spanish.pdn");
    let summary = run_match(&[
        "--engine",
        DAMAS,
        "--option",
        "Hash=8",
        "--engine",
        DAMAS,
        "--option",
        "Hash=16",
        "--games",
        "4",
        "--depth",
        "2",
        "--openings",
        "random:2",
        "--concurrency",
        "2",
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    let (w, d, l) = tally(&summary);
    assert_eq!(w + d + l, 4, "{summary}");
    assert!(summary.contains("Forfeits: 0"), "{summary}");
    let pdn = std::fs::read_to_string(&out).expect("games written");
    let _ = std::fs::remove_file(&out);
    assert_eq!(pdn.matches("[GameType \"24\"]").count(), 4);
    // Every game replays legally with the library.
    for game_text in pdn.split("[Event").skip(1) {
        let movetext: Vec<&str> = game_text
            .lines()
            .skip(1) // the rest of the [Event ...] tag
            .filter(|l| !l.starts_with('[') && !l.trim().is_empty())
            .flat_map(str::split_whitespace)
            .filter(|w| !w.ends_with('.') && !matches!(*w, "1-0" | "0-1" | "1/2-1/2"))
            .collect();
        let mut game = AnyGame::new(&Options::default().spec().expect("valid"));
        for mv in movetext {
            game.play_text(mv)
                .unwrap_or_else(|err| panic!("{mv}: {err}"));
        }
    }
}

/// `--variant brazilian` plays Brazilian draughts in the referee and in
/// every engine (which are sent `Variant`): no forfeit, and the record is
/// PDN GameType 26 in algebraic squares that replays with its rules.
#[test]
fn a_brazilian_match_is_played_and_recorded_in_its_notation() {
    let out = temp_file("brazilian.pdn");
    let summary = run_match(&[
        "--variant",
        "brazilian",
        "--engine",
        DAMAS,
        "--engine",
        DAMAS,
        "--games",
        "2",
        "--depth",
        "2",
        "--openings",
        "random:2",
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    assert!(summary.contains("Forfeits: 0"), "{summary}");
    assert!(summary.contains("Match: brazilian, 2 games"), "{summary}");
    let pdn = std::fs::read_to_string(&out).expect("games written");
    let _ = std::fs::remove_file(&out);
    assert_eq!(pdn.matches("[GameType \"26\"]").count(), 2, "{pdn}");
    let games = damas::pdn::read_games(&pdn).expect("PDN");
    assert_eq!(games.len(), 2);
    for game in games {
        let replayed = game.replay().expect("legal Brazilian moves");
        assert!(replayed.is_over(), "played to the end");
        assert!(game.moves()[0].contains(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']));
    }
}

/// A Russian match is named by its variant in the summary, and `--help`
/// names each draughts variant `--variant` takes.
#[test]
fn a_russian_match_is_named_by_its_variant() {
    let summary = run_match(&[
        "--variant",
        "russian",
        "--engine",
        DAMAS,
        "--engine",
        DAMAS,
        "--games",
        "2",
        "--depth",
        "1",
        "--openings",
        "random:2",
    ]);
    assert!(summary.contains("Forfeits: 0"), "{summary}");
    assert!(summary.contains("Match: russian, 2 games"), "{summary}");
    let help = Command::new(DAMAS)
        .args(["match", "--help"])
        .output()
        .expect("damas match --help runs");
    let help = String::from_utf8_lossy(&help.stdout);
    for (value, title) in [
        ("spanish", "Spanish draughts"),
        ("portuguese", "Portuguese draughts"),
        ("brazilian", "Brazilian draughts"),
        ("russian", "Russian draughts"),
        ("japanese", "Chinese checkers, Japanese variant"),
    ] {
        let listed = help.lines().any(|line| {
            line.trim()
                .strip_prefix(&format!("- {value}:"))
                .is_some_and(|rest| rest.trim() == title)
        });
        assert!(listed, "no '{value}: {title}' in\n{help}");
    }
}

#[test]
fn illegal_move_forfeits_the_game() {
    let summary = run_match(&[
        "--engine",
        DAMAS,
        "--engine",
        &faulty("illegal"),
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert_eq!(tally(&summary), (2, 0, 0), "{summary}");
    assert!(summary.contains("Forfeits: 2"), "{summary}");
    assert!(summary.contains("illegal move '1-2'"), "{summary}");
}

#[test]
fn crash_forfeits_the_game() {
    let summary = run_match(&[
        "--engine",
        DAMAS,
        "--engine",
        &faulty("crash"),
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert_eq!(tally(&summary), (2, 0, 0), "{summary}");
    assert!(summary.contains("crashed"), "{summary}");
}

#[test]
fn overrunning_the_clock_loses_on_time() {
    let summary = run_match(&[
        "--engine",
        DAMAS,
        "--engine",
        &faulty("slow"),
        "--games",
        "2",
        "--tc",
        "0.3+0",
    ]);
    assert_eq!(tally(&summary), (2, 0, 0), "{summary}");
    assert!(summary.contains("lost on time"), "{summary}");
}

#[test]
fn three_player_chinese_match_records_parse_and_replay() {
    let out = temp_file("chinese.txt");
    let summary = run_match(&[
        "--game",
        "chinese",
        "--players",
        "3",
        "--rule",
        "MoveLimit=90",
        "--engine",
        DAMAS,
        "--engine",
        DAMAS,
        "--games",
        "3",
        "--depth",
        "1",
        "--openings",
        "random:3",
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    assert!(summary.contains("avg place"), "{summary}");
    assert!(summary.contains("95% interval"), "{summary}");
    let text = std::fs::read_to_string(&out).expect("games written");
    let _ = std::fs::remove_file(&out);
    // The summary's firsts (the last column of each engine's row) are the
    // first places of that engine's seats in the records.
    let mut firsts = [0u32; 2];
    for line in text.lines() {
        let field = |key: &str| {
            line.split('\t')
                .find_map(|f| f.strip_prefix(&format!("{key}=")))
                .unwrap_or_else(|| panic!("no {key} in {line}"))
        };
        let engines: Vec<&str> = field("engines").split(',').collect();
        for (seat, place) in field("places").split(',').enumerate() {
            if place == "1" {
                let e = usize::from(engines[seat].starts_with("e2"));
                firsts[e] += 1;
            }
        }
    }
    for (e, expected) in firsts.iter().enumerate() {
        let row = summary
            .lines()
            .find(|l| l.starts_with(&format!("e{} ", e + 1)))
            .unwrap_or_else(|| panic!("no row e{}: {summary}", e + 1));
        let last = row.split_whitespace().last().expect("a column");
        assert_eq!(last, expected.to_string(), "{summary}");
    }
    let mut options = Options::default();
    options.set("Game", "chinese").expect("valid");
    options.set("Players", "3").expect("valid");
    options.set("MoveLimit", "90").expect("valid");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    for line in lines {
        let field = |key: &str| {
            line.split('\t')
                .find_map(|f| f.strip_prefix(&format!("{key}=")))
                .unwrap_or_else(|| panic!("no {key} in {line}"))
                .to_string()
        };
        assert_eq!(field("players"), "3");
        let mut game = AnyGame::new(&options.spec().expect("valid"));
        for mv in field("moves").split_whitespace() {
            game.play_text(mv)
                .unwrap_or_else(|err| panic!("{mv}: {err}"));
        }
        assert!(game.is_over(), "recorded game not finished: {line}");
        let places: Vec<String> = game
            .outcome()
            .expect("finished")
            .places
            .iter()
            .map(u8::to_string)
            .collect();
        assert_eq!(field("places"), places.join(","));
    }
}

/// The summary names the openings' seed, and for `--seed 0` the seed drawn
/// from the system: run again with that seed, the match opens the same
/// way.
#[test]
fn the_summary_prints_the_seed_that_draws_the_openings_again() {
    let openings_line = |summary: &str| -> String {
        summary
            .lines()
            .find(|line| line.starts_with("Openings: "))
            .unwrap_or_else(|| panic!("an Openings line in {summary}"))
            .to_string()
    };
    let first_moves = |path: &std::path::Path| -> Vec<Vec<String>> {
        let pdn = std::fs::read_to_string(path).expect("games written");
        let _ = std::fs::remove_file(path);
        let games = damas::pdn::read_games(&pdn).expect("PDN");
        let mut moves: Vec<Vec<String>> = games.iter().map(|g| g.moves()[..4].to_vec()).collect();
        moves.sort();
        moves
    };
    let run = |seed: &str, out: &std::path::Path| {
        run_match(&[
            "--engine",
            DAMAS,
            "--engine",
            DAMAS,
            "--games",
            "4",
            "--depth",
            "1",
            "--openings",
            "random:4",
            "--seed",
            seed,
            "--out",
            out.to_str().expect("utf-8 path"),
        ])
    };
    let drawn_out = temp_file("seed-drawn.pdn");
    let drawn = openings_line(&run("0", &drawn_out));
    let seed = drawn
        .strip_prefix("Openings: random:4, seed ")
        .unwrap_or_else(|| panic!("the seed in {drawn}"));
    assert!(seed.parse::<u64>().is_ok_and(|s| s != 0), "{drawn}");
    let again_out = temp_file("seed-again.pdn");
    let again = openings_line(&run(seed, &again_out));
    assert_eq!(again, drawn);
    assert_eq!(first_moves(&again_out), first_moves(&drawn_out));
}
