//! What real clients (UGI runners, UCI-derived GUIs) rely on, each point
//! as a transcript against the `damas` binary: a stateless start position,
//! options in any order, UCI scores, bounded memory, perft that behaves like
//! a search, bounded counts, bare `go`, decided positions, and the small
//! rules of the reader.

#[path = "support/engine_process.rs"]
mod engine_process;

use std::time::{Duration, Instant};

use damas_protocol::command::MAX_LINE_LEN;
use engine_process::Engine;

/// The options of each game the start position is checked in.
const GAMES: &[(&str, &str)] = &[
    ("spanish", "2"),
    ("chinese", "1"),
    ("chinese", "2"),
    ("chinese", "3"),
    ("chinese", "6"),
    ("japanese", "2"),
    ("japanese", "3"),
];

fn set_game(engine: &mut Engine, game: &str, players: &str) {
    engine.send(&format!("setoption name Players value {players}"));
    engine.send(&format!("setoption name Game value {game}"));
    engine.assert_ready();
}

/// The `position ...` line of `d`.
fn position_line(engine: &mut Engine) -> String {
    engine.send("d");
    let lines = engine.read_until(|l| l.starts_with("result "));
    lines
        .into_iter()
        .find(|l| l.starts_with("position "))
        .expect("d shows the position")
}

#[test]
fn two_engines_with_different_histories_agree_on_startpos() {
    for &(game, players) in GAMES {
        let mut veteran = Engine::start();
        let mut newcomer = Engine::start();
        set_game(&mut veteran, game, players);
        set_game(&mut newcomer, game, players);
        // The veteran plays three short games, the newcomer none.
        for _ in 0..3 {
            veteran.send("uginewgame");
            veteran.send("position startpos");
            let best = veteran.go("depth 1");
            veteran.send(&format!("position startpos moves {best}"));
            veteran.go("depth 1");
        }
        veteran.send("uginewgame");
        veteran.send("position startpos");
        newcomer.send("position startpos");
        assert_eq!(
            position_line(&mut veteran),
            position_line(&mut newcomer),
            "{game} with {players} players"
        );
        assert_eq!(veteran.query("turn"), "p1", "{game} {players}");
        assert_eq!(newcomer.query("turn"), "p1", "{game} {players}");
    }
}

#[test]
fn players_may_be_set_before_game_and_a_bad_combination_is_reported_once() {
    let mut engine = Engine::start();
    engine.send("setoption name Players value 3");
    engine.send("setoption name Game value chinese");
    engine.assert_ready();
    engine.send("position startpos");
    assert!(position_line(&mut engine).starts_with("position I3 1 "));
    // Back to Spanish draughts with Players still 3: one error when the
    // game starts, and the game is left as it was.
    engine.send("setoption name Game value spanish");
    engine.assert_ready();
    let reply = engine.ask("position startpos");
    assert_eq!(
        reply,
        "info string error Spanish draughts is played by 2 players, but Players is 3; set Game or Players"
    );
    engine.assert_ready();
    assert!(position_line(&mut engine).starts_with("position I3 1 "));
    engine.send("setoption name Players value 2");
    engine.send("position startpos");
    assert!(position_line(&mut engine).starts_with("position W:W1-12:B21-32"));
}

#[test]
fn a_rule_option_of_the_other_game_keeps_the_game() {
    let mut engine = Engine::start();
    engine.send("position startpos moves 11-15");
    engine.send("setoption name GoalLock value true");
    engine.send("setoption name AntiBlocking value false");
    engine.assert_ready();
    assert_eq!(engine.query("turn"), "p2", "the Spanish game went on");
}

#[test]
fn scores_are_uci_centipawns_or_mate_in_moves() {
    let mut engine = Engine::start();
    engine.send("position fen B:W14:B18");
    engine.send("go depth 3");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    assert!(last_info.contains(" score mate 1 "), "{last_info}");
    engine.send("position startpos");
    engine.send("go depth 4");
    for line in engine.read_until(|l| l.starts_with("bestmove")) {
        if let Some(rest) = line.split(" score ").nth(1) {
            let kind = rest.split_whitespace().next();
            assert!(matches!(kind, Some("cp" | "mate")), "{line}");
        }
    }
}

/// A memory figure of a process from `/proc/<pid>/status` (`VmHWM`: the
/// peak, `VmRSS`: now), in KiB.
fn memory_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("Linux /proc");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("{field} in /proc status"))
}

#[test]
fn hash_memory_is_resident_at_isready_and_never_doubled() {
    const MIB: u64 = 1024;
    let mut engine = Engine::start();
    assert_eq!(engine.query("turn"), "p1");
    assert!(
        memory_kib(engine.pid(), "VmRSS") < 32 * MIB,
        "no table before the first isready"
    );
    for size in [128, 64, 128] {
        engine.send(&format!("setoption name Hash value {size}"));
        engine.assert_ready();
        // The table is resident when `readyok` comes, before any search.
        let rss = memory_kib(engine.pid(), "VmRSS");
        assert!(rss >= size * MIB, "Hash {size}: {rss} KiB resident");
    }
    engine.send("uginewgame");
    engine.send("position startpos");
    engine.go("depth 5");
    engine.send("setoption name Game value chinese");
    engine.assert_ready();
    engine.send("position startpos");
    engine.go("depth 2");
    // A new size or game frees the old table before the new one is made.
    let peak = memory_kib(engine.pid(), "VmHWM");
    assert!(peak < 2 * 128 * MIB, "peak RSS {peak} KiB");
}

#[test]
fn perft_runs_like_a_search_isready_answered_stop_and_quit_end_it() {
    let mut engine = Engine::start();
    engine.send("perft 20");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(engine.ask("isready"), "readyok");
    let refused = engine.ask("position startpos moves 11-15");
    assert!(refused.starts_with("info string error"), "{refused}");
    engine.send("stop");
    let lines = engine.read_until(|l| l.contains("stopped"));
    assert_eq!(
        lines
            .last()
            .map(String::as_str)
            .and_then(|l| l.split(" after ").next()),
        Some("info string perft depth 20 stopped")
    );
    engine.send("perft 4");
    let lines = engine.read_until(|l| l.starts_with("nodes"));
    assert_eq!(lines.last().map(String::as_str), Some("nodes 1469"));
    engine.send("setoption name Game value chinese");
    engine.send("divide 20");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("quit");
    let status = engine
        .wait_exit(Duration::from_secs(10))
        .expect("quit ends divide");
    assert!(status.success(), "{status:?}");
}

#[test]
fn perft_zero_and_divide_zero_agree() {
    let mut engine = Engine::start();
    for command in ["perft 0", "divide 0"] {
        engine.send(command);
        let lines = engine.read_until(|l| l.starts_with("nodes"));
        assert_eq!(
            lines.last().map(String::as_str),
            Some("nodes 1"),
            "{command}"
        );
        assert_eq!(lines.len(), 2, "no move rows at depth 0: {lines:?}");
    }
}

#[test]
fn many_threads_on_few_cores_keep_movetime() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 64");
    engine.assert_ready();
    engine.send("position startpos");
    let sent = Instant::now();
    engine.go("movetime 50");
    let took = sent.elapsed();
    // Guards against the threads-times-time-slice overrun (over a second
    // before); a loaded machine may still add some delay.
    assert!(
        took < Duration::from_millis(750),
        "movetime 50 took {took:?}"
    );
}

#[test]
fn bare_go_searches_until_stop_in_every_game() {
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("spanish", "2", None),
        // One legal move (a forced capture).
        ("spanish", "2", Some("W:W14:B18")),
        ("chinese", "1", None),
        ("chinese", "2", None),
        // Separated armies: the race is solved exactly.
        ("chinese", "2", Some("I2 1 m17/e1")),
        ("chinese", "3", None),
        ("japanese", "2", None),
    ];
    for &(game, players, fen) in cases {
        let mut engine = Engine::start();
        set_game(&mut engine, game, players);
        match fen {
            Some(text) => engine.send(&format!("position fen {text}")),
            None => engine.send("position startpos"),
        }
        engine.send("go");
        let deadline = Instant::now() + Duration::from_millis(400);
        while let Some(line) =
            engine.next_line_within(deadline.saturating_duration_since(Instant::now()))
        {
            assert!(
                line.starts_with("info "),
                "{game} {players} {fen:?}: answered before stop: {line}"
            );
        }
        engine.send("stop");
        engine.read_until(|l| l.starts_with("bestmove "));
        engine.assert_ready();
    }
}

#[test]
fn decided_positions_are_decided_when_loaded() {
    let mut engine = Engine::start();
    engine.send("position fen W:W21:B");
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("result"), "p1win");
    engine.send("setoption name Game value chinese");
    // p1's goal (the north triangle) is full of its own pieces.
    engine.send("position fen I2 1 j14,k14,l14,m14,k15,l15,m15,l16,m16,m17/e1");
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("ranking"), "1:p1 2:p2");
    assert_eq!(engine.query("result"), "p1win");
    // Three players: p1 has finished, the others play on, p2 to move.
    engine.send("setoption name Players value 3");
    engine.send("position fen I3 1 j14,k14,l14,m14,k15,l15,m15,l16,m16,m17/e9/i9");
    assert_eq!(engine.query("gameover"), "false");
    assert_eq!(engine.query("ranking"), "1:p1");
    assert_eq!(engine.query("turn"), "p2");
}

#[test]
fn the_reader_takes_exactly_one_mebibyte_and_names_longer_lengths() {
    let mut engine = Engine::start();
    let exact = format!("isready{}", " ".repeat(MAX_LINE_LEN - "isready".len()));
    assert_eq!(exact.len(), MAX_LINE_LEN);
    engine.send(&exact);
    assert_eq!(engine.next_line(), "readyok");
    let long = format!("isready{}", " ".repeat(MAX_LINE_LEN + 5 - "isready".len()));
    engine.send(&long);
    assert_eq!(
        engine.next_line(),
        format!(
            "info string error line too long ({} bytes; at most {MAX_LINE_LEN})",
            MAX_LINE_LEN + 5
        )
    );
    engine.assert_ready();
}

#[test]
fn a_byte_order_mark_before_the_first_command_is_ignored() {
    let mut engine = Engine::start();
    engine.send_bytes("\u{feff}isready\n".as_bytes());
    assert_eq!(engine.next_line(), "readyok");
    // Later it is an unknown word like any other.
    engine.send_bytes("\u{feff}isready\n".as_bytes());
    assert!(engine
        .next_line()
        .starts_with("info string error unknown command"));
}

#[test]
fn extra_words_are_refused_by_every_command() {
    let mut engine = Engine::start();
    for line in [
        "isready now",
        "uginewgame please",
        "stop now",
        "ponderhit x",
        "quit later",
        "d board",
        "help me",
        "ugi twice",
        "debug on off",
        "perft 2 3",
        "query turn now",
        "position startpos extra",
    ] {
        let reply = engine.ask(line);
        assert!(
            reply.starts_with("info string error unexpected "),
            "{line}: {reply}"
        );
    }
    engine.assert_ready();
}

#[test]
fn error_texts_name_players_and_hold_no_debug_text() {
    let mut engine = Engine::start();
    engine.send("setoption name Game value chinese");
    let replies = [
        engine.ask("position fen I2 3 e1/m17"),
        engine.ask("position fen I2 1 e1,e2,e3,e4,f2,f3,f4,g3,g4,h4,e5,f5,g5,h5,i5,e6/m17"),
        engine.ask("position startpos moves e4-e5 e5-e6"),
    ];
    for reply in replies {
        assert!(reply.starts_with("info string error "), "{reply}");
        for debug in ["{", "Some(", "None", "Player(", "Move {"] {
            assert!(!reply.contains(debug), "{reply}");
        }
    }
}

/// What a hostile GUI sends between its `go` commands: mismatched and
/// sloppy options, refused and finished positions, protocol switches.
const HOSTILE_LINES: &[&str] = &[
    "setoption name Players value 3",
    "setoption name Players value 2",
    "setoption name Game value chinese",
    "setoption name Game value spanish",
    "setoption name Hash value +5",
    "setoption name Hash value 1",
    "setoption name Threads value 01",
    "setoption name Rules value ccerl",
    "position startpos",
    "position startpos moves 11-15",
    "position startpos moves 11-15 11-15",
    "position fen W:W18:B",
    "position fen B:W14:B18",
    "position fen garbage",
    "position cells 0 player 0 ply 0",
    "uginewgame",
    "isready",
    "stop",
    "query gameover",
    "ccp",
    "ugi",
    "\u{0}\u{1b}",
];

/// `go` lines, good and bad; the bare and infinite ones run until `stop`.
const GO_LINES: &[&str] = &[
    "go depth 1",
    "go movetime 5",
    "go nodes 50",
    "go wtime 30 btime 30",
    "go depth 0",
    "go movetime +5",
    "go bogus",
    "go infinite",
    "go",
];

/// A deterministic walk over `HOSTILE_LINES` and `GO_LINES`.
fn hostile_script(seed: u64, steps: usize) -> Vec<&'static str> {
    let mut state = seed;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % n
    };
    (0..steps)
        .map(|_| {
            if next(3) == 0 {
                GO_LINES[next(GO_LINES.len())]
            } else {
                HOSTILE_LINES[next(HOSTILE_LINES.len())]
            }
        })
        .collect()
}

fn is_bestmove(line: &str) -> bool {
    line.starts_with("bestmove ")
}

/// A GUI that waits for `bestmove` after each `go` (as cutegames does) gets
/// exactly one for every `go`, whatever came before: a refused `go` is
/// answered with its error line and `bestmove (none)`.
#[test]
fn a_hostile_gui_gets_exactly_one_bestmove_per_go() {
    let mut engine = Engine::start();
    let script = hostile_script(33, 400);
    let mut gos = 0;
    for line in &script {
        if !line.starts_with("go") {
            engine.send(line);
            continue;
        }
        gos += 1;
        // The errors read with the answer are the go's own.
        engine.send("isready");
        engine.read_until(|l| l == "readyok");
        engine.send(line);
        if matches!(*line, "go" | "go infinite") {
            engine.send("stop");
        }
        let lines = engine.read_until(is_bestmove);
        let answer = lines.last().expect("a bestmove line");
        assert_eq!(answer.split_whitespace().count(), 2, "{answer}");
        if lines.iter().any(|l| l.starts_with("info string error")) {
            assert_eq!(answer, "bestmove (none)", "{line}: {lines:?}");
        }
    }
    assert!(gos > 100, "the script sends many go lines: {gos}");
    // No second answer to any of them (the script's own `isready` lines
    // after its last `go` are answered too).
    engine.send("isready");
    let last_go = script
        .iter()
        .rposition(|l| l.starts_with("go"))
        .unwrap_or(0);
    let readies = script[last_go..]
        .iter()
        .filter(|l| **l == "isready")
        .count()
        + 1;
    for _ in 0..readies {
        let tail = engine.read_until(|l| l == "readyok");
        assert!(!tail.iter().any(|l| is_bestmove(l)), "{tail:?}");
    }
    assert_eq!(engine.next_line_within(Duration::from_millis(300)), None);
}

/// A GUI that floods commands without waiting (a second `go` while the first
/// searches) still gets one `bestmove` per `go` line.
#[test]
fn a_flooding_gui_gets_one_bestmove_per_go_line() {
    let mut engine = Engine::start();
    let script = hostile_script(7, 300);
    for line in &script {
        engine.send(line);
    }
    engine.send("stop");
    engine.send("isready");
    // The script's own `isready` lines are answered too: up to the last.
    let readies = script.iter().filter(|l| **l == "isready").count() + 1;
    let mut lines = Vec::new();
    for _ in 0..readies {
        lines.extend(engine.read_until(|l| l == "readyok"));
    }
    let gos = script.iter().filter(|l| l.starts_with("go")).count();
    let answers = lines.iter().filter(|l| is_bestmove(l)).count();
    assert_eq!(answers, gos, "{lines:?}");
    assert_eq!(engine.next_line_within(Duration::from_millis(300)), None);
}

/// The case a UGI runner met: Spanish draughts with three players, where
/// `go` once answered only its error and the runner waited forever.
#[test]
fn spanish_draughts_with_three_players_answers_go_with_the_null_move() {
    let mut engine = Engine::start();
    engine.send("setoption name Players value 3");
    engine.send("position startpos");
    assert!(engine
        .next_line()
        .starts_with("info string error Spanish draughts"));
    engine.send("go movetime 100");
    assert!(engine
        .next_line()
        .starts_with("info string error Spanish draughts"));
    assert_eq!(engine.next_line(), "bestmove (none)");
    engine.assert_ready();
}
