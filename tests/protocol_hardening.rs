//! Hostile and unusual input straight into a [`Session`]: every line either
//! works or gets exactly one `info string error` line, and the session goes
//! on. See docs/TESTING.md.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use damas::Game;
use damas_protocol::command::{MAX_LINE_LEN, MAX_POSITION_MOVES};
use damas_protocol::{Flow, Session};

struct Probe {
    session: Session,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Probe {
    fn new() -> Probe {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        let session = Session::new(Arc::new(move |line: &str| {
            sink.lock().expect("sink").push(line.to_string());
        }));
        Probe { session, lines }
    }

    /// Sends a line; returns the lines produced while handling it.
    fn send(&mut self, line: &str) -> Vec<String> {
        let before = self.lines.lock().expect("sink").len();
        assert_eq!(self.session.handle_line(line), Flow::Continue);
        self.lines.lock().expect("sink")[before..].to_vec()
    }

    /// Sends a line; returns the lines produced while handling it, but for
    /// what a running search sent meanwhile from its own thread.
    fn answer(&mut self, line: &str) -> Vec<String> {
        let mut reply = self.send(line);
        reply.retain(|l| !is_search_output(l));
        reply
    }

    /// Sends a line that must be refused with exactly one error line.
    fn refused(&mut self, line: &str) -> String {
        let reply = self.answer(line);
        assert_eq!(reply.len(), 1, "{line:.80}: {reply:?}");
        assert!(reply[0].starts_with("info string error "), "{reply:?}");
        assert!(
            reply[0].len() < 512,
            "error line of {} bytes",
            reply[0].len()
        );
        assert!(!reply[0].chars().any(char::is_control), "{reply:?}");
        reply[0].clone()
    }

    /// Sends a line that must work silently (but for what a search sends).
    fn silent(&mut self, line: &str) {
        let reply = self.send(line);
        assert!(
            reply.iter().all(|l| is_search_output(l)),
            "{line:.80}: {reply:?}"
        );
    }

    fn query(&mut self, what: &str) -> String {
        let reply = self.answer(&format!("query {what}"));
        assert_eq!(reply.len(), 1, "{reply:?}");
        reply[0].clone()
    }

    /// How many `bestmove` lines were sent so far.
    fn bestmoves(&self) -> usize {
        let lines = self.lines.lock().expect("sink");
        lines.iter().filter(|l| l.starts_with("bestmove ")).count()
    }

    /// Waits until `n` `bestmove` lines were sent.
    fn wait_bestmoves(&self, n: usize) {
        let start = Instant::now();
        while self.bestmoves() < n {
            assert!(start.elapsed() < Duration::from_secs(60), "no bestmove");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    fn alive(&mut self) {
        assert_eq!(self.answer("isready"), ["readyok"]);
    }
}

/// What a search sends on its own: `info depth` lines and `bestmove`.
fn is_search_output(line: &str) -> bool {
    line.starts_with("info depth ") || line.starts_with("bestmove ")
}

#[test]
fn overlong_binary_and_nul_lines_get_one_short_error_line() {
    let mut probe = Probe::new();
    probe.refused(&"x".repeat(MAX_LINE_LEN + 1));
    probe.refused("\0\0\0");
    probe.refused("\u{1b}[2J\u{7f}\u{fffd}\u{fffd}");
    let nul_move = format!("position startpos moves 11-15{}", "\0".repeat(10_000));
    let reply = probe.refused(&nul_move);
    assert!(reply.contains("\\u{0}"), "{reply}");
    probe.refused(&format!("position fen {}", "W".repeat(100_000)));
    probe.refused(&format!("setoption name {} value 1", "\0".repeat(5000)));
    probe.alive();
}

#[test]
fn huge_numbers_and_negative_clocks() {
    let mut probe = Probe::new();
    for line in [
        "go depth 99999999999999999999",
        "go nodes 184467440737095516150",
        "go movestogo -1",
        "go depth -1",
        "setoption name Hash value 99999999999999999999999999",
        "setoption name Hash value 4097",
        "setoption name Threads value 18446744073709551616",
        "setoption name MoveOverhead value -5",
        "perft 4294967296",
        "perft 33",
        "go movetime 99999999999999999999999999999",
        "go movetime 1000000001",
        "go wtime 18446744073709551615",
        "go depth 4294967295",
        "go depth 1001",
        "go depth 0",
        "go nodes 0",
        "go movestogo 0",
    ] {
        let before = probe.bestmoves();
        let reply = probe.refused(line);
        assert!(!reply.contains("Some("), "{reply}");
        // A refused `go` still ends in its one null move, at once.
        let after = if line.starts_with("go ") { 1 } else { 0 };
        assert_eq!(probe.bestmoves(), before + after, "{line}");
    }
    for line in [
        "go wtime -1000 btime -1 winc -5 binc -5",
        "go movetime 1000000000",
        "go wtime 1000000000 winc 1000000000 movestogo 4294967295",
        "go depth 1000 nodes 18446744073709551615",
    ] {
        let n = probe.bestmoves();
        probe.silent(line);
        probe.silent("stop");
        probe.wait_bestmoves(n + 1);
        probe.alive();
    }
}

#[test]
fn go_twice_stop_without_search_and_setoption_during_search() {
    let mut probe = Probe::new();
    probe.silent("stop");
    probe.silent("stop");
    probe.alive();
    probe.silent("go infinite");
    // Whether the first search still runs or has already answered, the
    // second `go` gets one error line and its own null move, or starts a
    // new search: never both searches at once, never silence forever, one
    // `bestmove` per `go` either way.
    let second = probe.send("go depth 1");
    let errors = second
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert!(errors <= 1, "{second:?}");
    if errors == 1 {
        assert!(second.iter().any(|l| l == "bestmove (none)"), "{second:?}");
    }
    let expected = 2;
    if probe.session.is_searching() {
        let reply = probe.refused("setoption name Hash value 8");
        assert!(reply.contains("is running; send 'stop' first"), "{reply}");
        probe.refused("position startpos moves 11-15");
    }
    probe.silent("stop");
    probe.wait_bestmoves(expected);
    probe.alive();
    assert!(!probe.session.is_searching());
    assert_eq!(
        probe.session.options().hash_mb,
        64,
        "option changed mid-search"
    );
    probe.silent("setoption name Hash value 8");
    assert_eq!(probe.session.options().hash_mb, 8);
    probe.alive();
}

#[test]
fn a_position_with_thousands_of_moves() {
    let mut probe = Probe::new();
    probe.silent("setoption name Game value chinese");
    probe.silent("setoption name MoveLimit value 0");
    probe.silent("setoption name NoProgressLimit value 0");
    let shuffle = "e4-e5 m14-m13 e5-e4 m13-m14 ".repeat(1000);
    probe.silent(&format!("position startpos moves {shuffle}"));
    assert_eq!(probe.query("turn"), "response p1");
    assert_eq!(probe.query("gameover"), "response false");
    // Past the limit: refused whole, before any move is played.
    let many = "e4-e5 ".repeat(MAX_POSITION_MOVES + 1);
    let reply = probe.refused(&format!("position startpos moves {many}"));
    assert!(reply.contains("too many moves"), "{reply}");
    // Thousands of moves of which one is bad: one error, position unchanged.
    probe.silent("position startpos moves e4-e5");
    let bad = format!("position startpos moves {shuffle} e4-e9");
    let reply = probe.refused(&bad);
    assert!(reply.contains("move 4001"), "{reply}");
    assert_eq!(probe.query("turn"), "response p2");
    // Spanish: thousands of moves, the second already illegal.
    probe.silent("setoption name Game value spanish");
    let reply = probe.refused(&format!(
        "position startpos moves {}",
        "11-15 ".repeat(5000)
    ));
    assert!(reply.contains("move 2 "), "{reply}");
    probe.alive();
}

#[test]
fn positions_that_cannot_arise_are_refused_with_a_clear_error() {
    let mut probe = Probe::new();
    let reply = probe.refused("position fen W:W1-13:B21-32");
    assert!(reply.contains("13 white pieces (at most 12)"), "{reply}");
    let reply = probe.refused("position fen W:W1-11,29:B21-28");
    assert!(reply.contains("promotion row"), "{reply}");
    probe.silent("setoption name Game value chinese");
    let reply = probe.refused("position fen I2 1 e1/m17 s=f1,p");
    assert!(reply.contains("no longer playing"), "{reply}");
    let reply = probe.refused("position fen I2 2 e1/m17 s=p,p over=decided");
    assert!(reply.contains("still playing"), "{reply}");
    probe.silent("position fen I2 2 e1/m17 s=f1,p");
    assert_eq!(probe.query("turn"), "response p2");
    probe.alive();
}

fn threads_of_this_process() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Threads:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn thousands_of_games_in_one_session_hold_no_more_than_one() {
    let count = Arc::new(AtomicUsize::new(0));
    let bestmoves = Arc::new(AtomicUsize::new(0));
    let (c, b) = (Arc::clone(&count), Arc::clone(&bestmoves));
    let mut session = Session::new(Arc::new(move |line: &str| {
        c.fetch_add(1, Ordering::Relaxed);
        if line.starts_with("bestmove ") {
            b.fetch_add(1, Ordering::Relaxed);
        }
    }));
    let threads_before = threads_of_this_process();
    let games = 3000;
    for game in 0..games {
        if game == games / 2 {
            session.handle_line("setoption name Game value chinese");
            session.handle_line("setoption name Players value 3");
        }
        session.handle_line("uginewgame");
        session.handle_line("position startpos");
        session.handle_line("go depth 1");
        // The search answers on its own; wait for it like a GUI would.
        let start = Instant::now();
        while bestmoves.load(Ordering::Relaxed) < game + 1 {
            assert!(start.elapsed() < Duration::from_secs(60), "no bestmove");
            std::thread::yield_now();
        }
        if game % 500 == 0 {
            if let (Some(before), Some(now)) = (threads_before, threads_of_this_process()) {
                // Other tests run in this process too: a loose bound that
                // a leak of one thread per search would still break.
                assert!(now <= before + 32, "threads grew from {before} to {now}");
            }
        }
    }
    session.handle_line("isready");
    assert!(!session.is_searching());
    // What the session holds is one game: its position text is the start.
    let fresh = damas::AnyGame::new(&session.options().spec().expect("valid options"));
    assert_eq!(
        session.game().position_text().split(' ').nth(2),
        fresh.position_text().split(' ').nth(2)
    );
    session.shutdown();
    assert_eq!(bestmoves.load(Ordering::Relaxed), games);
}

#[test]
fn startpos_is_one_position_whatever_came_before() {
    // Rotating who opens a series is the runner's job: `position startpos`
    // is p1 to move after any number of games, `uginewgame` or not.
    for (game, players, opening) in [
        ("spanish", "2", "11-15"),
        ("chinese", "3", "e4-e5"),
        ("chinese", "6", "e4-e5"),
        ("japanese", "2", "resign"),
    ] {
        let mut probe = Probe::new();
        probe.silent(&format!("setoption name Game value {game}"));
        probe.silent(&format!("setoption name Players value {players}"));
        let fresh = {
            probe.silent("position startpos");
            probe.query("turn")
        };
        assert_eq!(fresh, "response p1", "{game}");
        for _ in 0..4 {
            probe.silent("uginewgame");
            probe.silent("position startpos");
            assert_eq!(probe.query("turn"), "response p1", "{game}");
            probe.silent(&format!("position startpos moves {opening}"));
            assert_ne!(probe.query("turn"), "response p1", "{game}");
        }
    }
}

#[test]
fn query_moves_with_extra_words_is_refused() {
    let mut probe = Probe::new();
    probe.refused("query moves 11 12");
    probe.refused("query moves 11 12 13");
    assert_eq!(probe.query("p1turn"), "response true");
}
