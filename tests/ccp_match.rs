//! `damas match` with CCP engines (JumpStar's protocol): Damas over UGI
//! against Damas over CCP, CCP answers in the forms other engines write,
//! and the refusals.

use std::process::{Command, Output};

use damas::options::Options;
use damas::{AnyGame, Game};

#[path = "support/match_summary.rs"]
mod match_summary;
use match_summary::{forfeits, games_played, tally};

const DAMAS: &str = env!("CARGO_BIN_EXE_damas");

fn wrapped(mode: &str) -> String {
    format!(
        "bash {}/../tests/support/ccp_wrapper.sh {mode} {DAMAS}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn damas_match(args: &[&str]) -> Output {
    Command::new(DAMAS)
        .arg("match")
        .arg("--quiet")
        .args(args)
        .output()
        .expect("damas match runs")
}

fn temp_file(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("damas-ccp-{}-{name}", std::process::id()))
}

/// A CCERL match of `games` games between UGI Damas (e1) and `ccp_engine`
/// over CCP (e2); checks the summary and that every record replays to its
/// places by the CCERL rules.
fn ccerl_match(ccp_engine: &str, games: u32) {
    let out = temp_file(&format!("{}.txt", ccp_engine.len()));
    let output = damas_match(&[
        "--game",
        "chinese",
        "--rule",
        "Rules=ccerl",
        "--engine",
        DAMAS,
        "--engine",
        ccp_engine,
        "--protocol",
        "ccp",
        "--games",
        &games.to_string(),
        "--depth",
        "1",
        "--openings",
        "random:2",
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    let summary = String::from_utf8_lossy(&output.stdout).to_string();
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    assert!(
        output.status.success(),
        "{summary}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(games_played(&summary), games, "{summary}");
    let (w, d, l) = tally(&summary);
    assert_eq!(w + d + l, games, "{summary}");
    assert_eq!(forfeits(&summary), 0, "{summary}");
    let mut options = Options::default();
    options.set("Game", "chinese").expect("valid");
    options.set("Rules", "ccerl").expect("valid");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), games as usize, "{text}");
    for line in lines {
        let field = |key: &str| {
            line.split('\t')
                .find_map(|f| f.strip_prefix(&format!("{key}=")))
                .unwrap_or_else(|| panic!("no {key} in {line}"))
                .to_string()
        };
        let mut game = AnyGame::new(&options.spec().expect("valid"));
        for mv in field("moves").split_whitespace() {
            game.play_text(mv)
                .unwrap_or_else(|err| panic!("{mv}: {err}"));
        }
        let places: Vec<String> = game
            .outcome()
            .unwrap_or_else(|| panic!("recorded game not finished: {line}"))
            .places
            .iter()
            .map(u8::to_string)
            .collect();
        assert_eq!(field("places"), places.join(","));
    }
}

#[test]
fn damas_over_ugi_plays_damas_over_ccp() {
    ccerl_match(DAMAS, 2);
}

#[test]
fn ccp_answers_with_only_the_ends_of_a_path_are_played() {
    ccerl_match(&wrapped("endpoints"), 2);
}

#[test]
fn ccp_answers_with_commas_are_played() {
    ccerl_match(&wrapped("commas"), 2);
}

#[test]
fn ccp_engines_need_the_ccerl_game() {
    for game in [
        &["--game", "spanish"][..],
        &["--game", "chinese"],
        &["--game", "japanese"],
        &[
            "--game",
            "chinese",
            "--rule",
            "Rules=ccerl",
            "--rule",
            "GoalLock=false",
        ],
    ] {
        let mut args = game.to_vec();
        args.extend(["--engine", DAMAS, "--protocol", "ccp", "--engine", DAMAS]);
        let output = damas_match(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{game:?}");
        assert!(
            stderr.contains("speaks CCP, which plays two-player Chinese checkers"),
            "{game:?}: {stderr}"
        );
        assert!(output.stdout.is_empty(), "{game:?}: no game is played");
    }
}

#[test]
fn an_engine_that_refuses_ccp_stops_the_match() {
    let output = damas_match(&[
        "--game",
        "chinese",
        "--rule",
        "Rules=ccerl",
        "--engine",
        DAMAS,
        "--engine",
        &wrapped("noccp"),
        "--protocol",
        "ccp",
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("ccp: info string error unknown command 'ccp'"),
        "{stderr}"
    );
}

#[test]
fn a_protocol_flag_belongs_to_an_engine() {
    for args in [
        &["--protocol", "ccp", "--engine", DAMAS][..],
        &["--engine", DAMAS, "--protocol", "xboard"],
    ] {
        let output = damas_match(args);
        assert!(!output.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("--protocol"),
            "{args:?}"
        );
    }
}
