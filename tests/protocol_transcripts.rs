//! Transcript tests against the real `damas` binary: handshake, options,
//! positions, searches, queries, stop and quit, bad input and EOF.

#[path = "support/engine_process.rs"]
mod engine_process;

use std::time::{Duration, Instant};

use damas::options::Options;
use damas::{AnyGame, Game};
use engine_process::Engine;

#[test]
fn ugi_handshake_lists_options_and_ends_with_ugiok() {
    let mut engine = Engine::start();
    engine.send("ugi");
    let lines = engine.read_until(|l| l == "ugiok");
    assert!(lines[0].starts_with("id name Damas"), "{lines:?}");
    assert!(lines[1].starts_with("id author"), "{lines:?}");
    for name in [
        "Game",
        "Players",
        "AntiBlocking",
        "PlayToEnd",
        "MoveLimit",
        "NoProgressLimit",
        "GoalLock",
        "Threads",
        "Hash",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "{name} missing"
        );
    }
    engine.send("uci");
    assert_eq!(
        engine
            .read_until(|l| l == "uciok")
            .last()
            .map(String::as_str),
        Some("uciok")
    );
    engine.assert_ready();
}

#[test]
fn options_change_the_game_and_bad_values_are_refused() {
    let mut engine = Engine::start();
    engine.send("setoption name Game value chinese");
    engine.send("setoption name Players value 3");
    assert_eq!(engine.query("turn"), "p1");
    let moves = engine.query("moves");
    assert_eq!(moves.split_whitespace().count(), 14, "{moves}");
    for bad in [
        "setoption name Players value 9",
        "setoption name Hash value 99999999",
        "setoption name Game value chess",
        "setoption name NoSuchOption value 1",
    ] {
        let reply = engine.ask(bad);
        assert!(reply.starts_with("info string error"), "{bad}: {reply}");
        // A refused `go` still ends in its null move.
        if bad.starts_with("go ") {
            assert_eq!(engine.next_line(), "bestmove (none)", "{bad}");
        }
    }
    // The refused values changed nothing: still 3-player Chinese checkers.
    engine.send("position startpos moves pass");
    let reply = engine.next_line();
    assert!(
        reply.starts_with("info string error"),
        "pass with moves available: {reply}"
    );
    assert_eq!(engine.query("turn"), "p1");
    engine.assert_ready();
}

#[test]
fn position_with_moves_and_display() {
    let mut engine = Engine::start();
    engine.send("position startpos moves 11-15 22-18");
    engine.send("d");
    let lines = engine.read_until(|l| l.starts_with("result"));
    assert!(
        lines
            .iter()
            .any(|l| l == "position W:W1-10,12,15:B18,21,23-32"),
        "{lines:?}"
    );
    engine.send("position fen B:W18,K3:BK30,22");
    assert_eq!(engine.query("p1turn"), "false");
    engine.assert_ready();
}

#[test]
fn go_depth_returns_a_legal_move_in_both_games() {
    let mut engine = Engine::start();
    let options = Options::default();
    engine.send("position startpos moves 11-15");
    let best = engine.go("depth 3");
    let mut game = AnyGame::new(&options.spec().expect("valid options"));
    game.play_text("11-15").expect("legal");
    assert!(game.play_text(&best).is_ok(), "illegal bestmove {best}");

    engine.send("setoption name Game value chinese");
    engine.send("position startpos");
    let best = engine.go("depth 1");
    let mut options = Options::default();
    options.set("Game", "chinese").expect("valid");
    let mut game = AnyGame::new(&options.spec().expect("valid options"));
    assert!(game.play_text(&best).is_ok(), "illegal bestmove {best}");
}

#[test]
fn isready_and_stop_are_answered_while_infinite_search_runs() {
    isready_and_stop_while_searching(&[], "11-15");
}

#[test]
fn isready_and_stop_are_answered_while_a_six_player_search_runs() {
    isready_and_stop_while_searching(&[("Game", "chinese"), ("Players", "6")], "h4-i5");
}

/// `go infinite` after setting `options` (name, value): `isready` is
/// answered during the search, a `position` (here with `refused_move`) is
/// refused, and `stop` ends it with a legal move.
fn isready_and_stop_while_searching(options: &[(&str, &str)], refused_move: &str) {
    let mut engine = Engine::start();
    let mut set = Options::default();
    for &(name, value) in options {
        engine.send(&format!("setoption name {name} value {value}"));
        set.set(name, value).expect("valid option");
    }
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("isready");
    let lines = engine.read_until(|l| l == "readyok");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("info") || l == "readyok"),
        "{lines:?}"
    );
    // The running search may print its own `info depth` lines before the
    // refusal, so skip those and take the first `info string` line.
    engine.send(&format!("position startpos moves {refused_move}"));
    let lines = engine.read_until(|l| l.starts_with("info string"));
    let (refused, search_info) = lines.split_last().expect("a line");
    assert!(refused.starts_with("info string error"), "{lines:?}");
    assert!(all_search_info(search_info), "{lines:?}");
    let sent = Instant::now();
    engine.send("stop");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    let latency = sent.elapsed();
    // The target is 50 ms; this only guards against a stop that is ignored,
    // since a loaded CI machine can delay any process.
    assert!(latency < Duration::from_secs(2), "stop took {latency:?}");
    // Only the search's own lines come before `bestmove`: a second error
    // line for the refused `position` would show here.
    let (bestmove, search_info) = lines.split_last().expect("bestmove");
    assert!(all_search_info(search_info), "{lines:?}");
    let best = bestmove
        .split_whitespace()
        .nth(1)
        .expect("move")
        .to_string();
    let mut game = AnyGame::new(&set.spec().expect("valid options"));
    assert!(game.play_text(&best).is_ok(), "illegal bestmove {best}");
    engine.assert_ready();
}

/// Whether `lines` are all the running search's own `info depth` lines.
fn all_search_info(lines: &[String]) -> bool {
    lines.iter().all(|l| l.starts_with("info depth"))
}

#[test]
fn quit_mid_search_exits_cleanly() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("quit");
    let status = engine.wait_exit(Duration::from_secs(10)).expect("exited");
    assert!(status.success(), "{status:?}");
}

#[test]
fn end_of_input_exits_cleanly() {
    let mut engine = Engine::start();
    engine.assert_ready();
    engine.close_input();
    let status = engine.wait_exit(Duration::from_secs(10)).expect("exited");
    assert!(status.success(), "{status:?}");
}

#[test]
fn every_kind_of_bad_input_gets_one_error_line_and_changes_nothing() {
    let mut engine = Engine::start();
    engine.send("position startpos moves 11-15");
    let before = engine.query("moves");
    for bad in [
        "xyzzy",
        "go depth banana",
        "go nodes -5",
        "go p9time 100",
        "position",
        "position fen",
        "position fen W:W1-12:B21-40",
        "position fen nonsense",
        "position startpos moves 11-15 11-15",
        "position startpos moves 9-14x",
        "position startpos moves 11-15 22-18 15x24",
        "setoption name Threads value 0",
        "setoption name Hash value -1",
        "setoption",
        "query",
        "query colour",
        "query moves 99",
        "perft x",
        "divide",
        "perft 1000",
    ] {
        let reply = engine.ask(bad);
        assert!(reply.starts_with("info string error"), "{bad}: {reply}");
        // A refused `go` still ends in its null move.
        if bad.starts_with("go ") {
            assert_eq!(engine.next_line(), "bestmove (none)", "{bad}");
        }
    }
    engine.send_bytes(b"\x00\x01\xff\xfe garbage\n");
    let reply = engine.next_line();
    assert!(reply.starts_with("info string error"), "binary: {reply}");
    engine.send(&"z".repeat(2 << 20));
    let reply = engine.next_line();
    assert!(reply.starts_with("info string error"), "overlong: {reply}");
    assert_eq!(engine.query("moves"), before, "state changed by bad input");
    engine.send("stop");
    engine.assert_ready();
}

#[test]
fn perft_and_divide_through_the_protocol() {
    let mut engine = Engine::start();
    engine.send("perft 3");
    let lines = engine.read_until(|l| l.starts_with("nodes"));
    assert_eq!(lines.last().map(String::as_str), Some("nodes 302"));
    engine.send("divide 2");
    let lines = engine.read_until(|l| l.starts_with("nodes"));
    assert_eq!(lines.last().map(String::as_str), Some("nodes 49"));
    assert_eq!(
        lines.iter().filter(|l| l.contains('-')).count(),
        7,
        "{lines:?}"
    );
}

#[test]
fn help_lists_commands() {
    let mut engine = Engine::start();
    engine.send("help");
    let lines = engine.read_until(|l| l.contains("PROTOCOL.md"));
    assert!(lines.iter().all(|l| l.starts_with("info string")));
    assert!(lines.iter().any(|l| l.contains("query gameover")));
    // The options come from the option table: every declared name is there.
    engine.send("ugi");
    let declared: Vec<String> = engine
        .read_until(|l| l == "ugiok")
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect();
    assert!(declared.len() > 10, "{declared:?}");
    let listed: Vec<&str> = lines
        .iter()
        .flat_map(|l| l.trim_start_matches("info string").split([',', ' ']))
        .collect();
    for name in &declared {
        assert!(listed.contains(&name.as_str()), "help does not list {name}");
    }
}

#[test]
fn resignation_in_a_three_player_game_through_the_protocol() {
    let mut engine = Engine::start();
    engine.send("setoption name Game value chinese");
    engine.send("setoption name Players value 3");
    engine.send("position startpos moves e4-e5 resign");
    assert_eq!(engine.query("turn"), "p3");
    assert_eq!(engine.query("ranking"), "3:p2");
    assert_eq!(engine.query("gameover"), "false");
    assert_eq!(engine.query("result"), "none");
    // The remaining two play on; a second resignation decides the game.
    engine.send("position startpos moves e4-e5 resign resign");
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("result"), "p1win");
    assert_eq!(engine.query("ranking"), "1:p1 2:p3 3:p2");
    assert_eq!(engine.go("depth 1"), "(none)");
}

#[test]
fn a_missing_clock_for_the_mover_falls_back_to_the_clocks_sent() {
    let mut engine = Engine::start();
    engine.send("setoption name Game value chinese");
    engine.send("setoption name Players value 3");
    // p3 to move, but the client only sends the two-player clocks.
    engine.send("position startpos moves e4-e5 e11-e9");
    assert_eq!(engine.query("turn"), "p3");
    let best = engine.go("wtime 300 btime 300");
    assert!(best.contains('-'), "{best}");
    // A movetime below MoveOverhead still searches and answers.
    let best = engine.go("movetime 5");
    assert!(best.contains('-'), "{best}");
}
