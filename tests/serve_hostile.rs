//! The web board (`damas serve`) under clients that misbehave: games
//! deleted or left to expire while the engine thinks, create-and-delete
//! loops, half-sent requests, too many connections or games from one
//! client, signals while requests hang, games without a rule limit. Raw
//! `TcpStream` clients play the slow and broken ones.

#[path = "support/web_server.rs"]
mod web_server;

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::Value;
use web_server::{id, moves, open_raw, read_answer, Server, PATIENCE};

const ENGINE_ONLY_STAR: &str = r#"{"game":"chinese","players":2,"seats":[{"kind":"engine","think_ms":10000},{"kind":"engine","think_ms":10000}]}"#;

/// A person against the engine thinking 100 ms.
const PERSON_AND_ENGINE: &str =
    r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"engine","think_ms":100}]}"#;

/// One request on its own connection: its status and body.
fn raw(server: &Server, request: &str) -> (u16, String) {
    read_answer(&mut open_raw(server, request.as_bytes()))
}

/// The `error` sentence of a JSON error body, or a failure naming the body.
fn error_text(body: &str) -> String {
    let value: Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body:?}"));
    value["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error sentence: {body}"))
        .to_string()
}

/// Plays a person's move and waits for the engine's answer; how long the
/// answer took.
fn engine_reply_time(server: &Server, game: &str) -> Duration {
    let start = Instant::now();
    server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"11-15"}"#),
        200,
    );
    server.wait_for(game, "the engine's reply", |state| moves(state).len() == 2);
    start.elapsed()
}

#[test]
fn deleted_and_expired_games_stop_thinking_for_good() {
    // One worker: a removed game that went on thinking would hold it.
    let server = Server::start_with(&["--workers", "1", "--hash", "4", "--idle-secs", "2"]);
    for _ in 0..10 {
        let game = id(&server.create(ENGINE_ONLY_STAR));
        server.ok("DELETE", &format!("/api/games/{game}"), None, 204);
    }
    let live = id(&server.create(PERSON_AND_ENGINE));
    let took = engine_reply_time(&server, &live);
    // 100 ms of thought; each removed game still thinking would cost 10 s.
    assert!(took < Duration::from_secs(4), "the reply took {took:?}");
    server.ok("DELETE", &format!("/api/games/{live}"), None, 204);
    // Games left alone until they expire stop as well.
    for _ in 0..5 {
        server.create(ENGINE_ONLY_STAR);
    }
    std::thread::sleep(Duration::from_millis(2600));
    let live = id(&server.create(PERSON_AND_ENGINE));
    let took = engine_reply_time(&server, &live);
    assert!(took < Duration::from_secs(4), "the reply took {took:?}");
}

/// Creates a game, waiting while the server is full (503): removed games
/// hold their places until their stopped search is back. How many times
/// it was refused.
fn create_when_free(server: &Server, body: &str) -> (String, u32) {
    let start = Instant::now();
    let mut refused = 0;
    loop {
        let (status, value) = server.request("POST", "/api/games", Some(body));
        match status {
            201 => return (id(&value), refused),
            503 if start.elapsed() < PATIENCE => {
                refused += 1;
                std::thread::sleep(Duration::from_millis(5));
            }
            _ => panic!("{status}: {value}"),
        }
    }
}

#[test]
fn create_and_delete_loops_keep_memory_and_places_bounded() {
    let server = Server::start(&["--max-games", "5"]);
    let busy = r#"{"game":"chinese","players":6,"seats":[{"kind":"engine","think_ms":5000},{"kind":"engine"},{"kind":"engine"},{"kind":"engine"},{"kind":"engine"},{"kind":"engine"}]}"#;
    let cycle = || {
        let (game, refused) = create_when_free(&server, busy);
        server.ok("DELETE", &format!("/api/games/{game}"), None, 204);
        refused
    };
    for _ in 0..20 {
        cycle();
    }
    let before = server.rss_kib();
    let start = Instant::now();
    let refused: u32 = (0..2000).map(|_| cycle()).sum();
    let after = server.rss_kib();
    eprintln!(
        "2000 cycles in {:?}, {refused} refusals, {before} -> {after} KiB",
        start.elapsed()
    );
    // Removed games that went on searching grew it by 100 MB and more.
    assert!(
        after < before + 40 * 1024,
        "resident memory went from {before} KiB to {after} KiB"
    );
    // Their places come free: five games fit under the limit, and a live
    // game's 100 ms reply is not held up.
    let (live, _) = create_when_free(&server, PERSON_AND_ENGINE);
    let took = engine_reply_time(&server, &live);
    assert!(took < Duration::from_secs(4), "the reply took {took:?}");
    let people = r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}]}"#;
    for _ in 0..4 {
        create_when_free(&server, people);
    }
}

#[test]
fn half_sent_requests_time_out_with_a_json_answer() {
    let server = Server::start(&["--read-timeout-ms", "500"]);
    // A header never finished, a body never finished, a connection left
    // idle: each is closed within the timeout (and PATIENCE is far more).
    let mut header = open_raw(
        &server,
        b"GET /api/games/options HTTP/1.1\r\nHost: x\r\nX-Slow: ",
    );
    let mut body = open_raw(
        &server,
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"game\"",
    );
    let mut idle = open_raw(&server, b"");
    let start = Instant::now();
    let (status, _) = read_answer(&mut header);
    assert!(matches!(status, 0 | 408), "{status} for a slow header");
    let (status, text) = read_answer(&mut body);
    assert_eq!(status, 408, "{text}");
    assert!(error_text(&text).contains("did not arrive within 500 ms"));
    let (status, _) = read_answer(&mut idle);
    assert!(matches!(status, 0 | 408), "{status} for an idle connection");
    assert!(start.elapsed() < PATIENCE);
    // Still serving.
    server.ok("GET", "/api/games/options", None, 200);
}

#[test]
fn connections_past_the_cap_are_refused_at_once_and_served_again_later() {
    let server = Server::start(&["--max-connections", "8", "--read-timeout-ms", "1500"]);
    let mut held: Vec<TcpStream> = (0..8)
        .map(|_| open_raw(&server, b"GET / HTTP/1.1\r\n"))
        .collect();
    // Every held connection is counted before the next one comes.
    std::thread::sleep(Duration::from_millis(200));
    let (status, body) = raw(
        &server,
        "GET /api/games/options HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 503, "{body}");
    assert!(error_text(&body).contains("connections"));
    // The slow ones are dropped by the read timeout, then all is served.
    for stream in &mut held {
        read_answer(stream);
    }
    server.ok("GET", "/api/games/options", None, 200);
}

#[test]
fn the_connection_cap_fits_the_limit_on_open_files() {
    // 64 files: 32 kept for the process, 32 connections. Each client past
    // them is told so instead of failing at random.
    let server = Server::start_with_file_limit(64, &["--max-connections", "1000"]);
    assert!(
        server.banner.contains("at most 32 connections"),
        "{}",
        server.banner
    );
    let held: Vec<TcpStream> = (0..32)
        .map(|_| open_raw(&server, b"GET / HTTP/1.1\r\n"))
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    for _ in 0..20 {
        let (status, body) = raw(
            &server,
            "GET /api/games/options HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        );
        assert_eq!(status, 503, "{body}");
    }
    drop(held);
    let start = Instant::now();
    while server.request("GET", "/api/games/options", None).0 != 200 {
        assert!(start.elapsed() < PATIENCE, "not serving again");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn one_client_holds_at_most_its_share_of_games() {
    let server = Server::start(&["--max-games-per-client", "2", "--max-games", "10"]);
    let people = r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}]}"#;
    let first = id(&server.create(people));
    server.create(people);
    let (status, value) = server.request("POST", "/api/games", Some(people));
    assert_eq!(status, 429, "{value}");
    assert!(value["error"]
        .as_str()
        .is_some_and(|e| e.contains("limit for one client")));
    server.ok("DELETE", &format!("/api/games/{first}"), None, 204);
    server.create(people);
}

#[test]
fn a_signal_ends_the_server_within_a_second_whatever_its_connections() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let mut server = Server::start(&[]);
        let game = id(&server.create(PERSON_AND_ENGINE));
        let _header = open_raw(
            &server,
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Le",
        );
        let _body = open_raw(
            &server,
            format!(
                "POST /api/games/{game}/move HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{{"
            )
            .as_bytes(),
        );
        let _idle = open_raw(&server, b"");
        std::thread::sleep(Duration::from_millis(200));
        let (took, ended) = server.signal_and_wait(signal);
        assert!(ended, "signal {signal}: still running after {took:?}");
        // About half a second; the bound is generous for a loaded machine.
        assert!(took < Duration::from_secs(2), "signal {signal}: {took:?}");
    }
}

#[test]
fn every_error_answer_is_json() {
    let server = Server::start(&["--max-games", "1"]);
    let game =
        id(&server.create(r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}]}"#));
    let big = "x".repeat(20_000);
    let cases = [
        (
            format!("POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{big}", big.len()),
            413,
            "over 16 KiB",
        ),
        (
            format!("PATCH /api/games/{game} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
            405,
            "method not allowed",
        ),
        (
            "DELETE /api/games/0123456789abcdef HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".into(),
            404,
            "no such game",
        ),
        (
            "GET /api/games/%ff%fe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".into(),
            400,
            "UTF-8",
        ),
        (
            "GET /api/games/zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".into(),
            404,
            "no such game",
        ),
        (
            "GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".into(),
            404,
            "no such page",
        ),
        (
            "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{bad}".into(),
            400,
            "bad request body",
        ),
        (
            format!("GET /api/games/{game}/moves HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
            400,
            "from",
        ),
        (
            "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 18\r\nConnection: close\r\n\r\n{\"game\":\"spanish\"}".into(),
            503,
            "its limit",
        ),
    ];
    for (request, expected, words) in cases {
        let (status, body) = raw(&server, &request);
        assert_eq!(
            status,
            expected,
            "{}: {body}",
            &request[..request.len().min(60)]
        );
        let error = error_text(&body);
        assert!(error.contains(words), "{status}: {error}");
    }
}

#[test]
fn a_game_without_rule_limits_ends_at_the_boards_turn_limit() {
    let server = Server::start(&["--max-turns", "40"]);
    let random = r#"{"kind":"engine","level":1,"think_ms":50}"#;
    let game = id(&server.create(&format!(
        r#"{{"game":"chinese","players":2,"rules":{{"MoveLimit":0,"NoProgressLimit":0}},"seats":[{random},{random}]}}"#
    )));
    let state = server.wait_for(&game, "the end", |state| !state["result"].is_null());
    assert_eq!(moves(&state).len(), 40, "{}", state["moves"]);
    assert_eq!(state["result"]["draw"], true);
    assert_eq!(state["result"]["reason"], "decided by the referee");
    assert!(state["notice"]
        .as_str()
        .is_some_and(|n| n.contains("reached 40 turns")));
    // No flag lifts the limit past 3000 turns.
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["serve", "--port", "0", "--max-turns", "3001"])
        .output()
        .expect("runs");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("3001"));
}
