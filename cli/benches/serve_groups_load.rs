//! Load benchmark of group play on `damas serve` with its data file: 100
//! groups of two people playing Spanish draughts, each group followed by
//! five live streams (its two players and three onlookers: 500 streams),
//! every person moving as soon as it is their turn (after a short pause).
//! It measures the delay from a move's request to each stream's event
//! showing it (p50, p99), the server's memory and the rate of stored
//! moves; then kills the server with SIGKILL under that load, starts it
//! again on the same file and port, and measures how long until every
//! stream is back and how many acknowledged moves were lost. Run with
//! `cargo bench -p damas-cli --bench serve_groups_load`; figures in
//! docs/SERVE.md, "Storage".

#[path = "../../tests/support/web_server.rs"]
mod web_server;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use web_server::{raw_request, RawReply, Server};

const GROUPS: usize = 100;
const STREAMS_PER_GROUP: usize = 5;
const MEASURE: Duration = Duration::from_secs(20);
/// A person's pause before moving.
const THINK: Duration = Duration::from_millis(200);

/// One group: its id, the two players' cookies and its game in play.
struct Table {
    group: String,
    cookies: [String; 2],
    play: Mutex<Play>,
    /// Moves acknowledged in all of the group's games.
    stored: AtomicUsize,
}

/// A group's game in play: when each move (by count) was asked for, and
/// how many were acknowledged (answered 200).
struct Play {
    game: String,
    asked: Vec<Instant>,
    acknowledged: usize,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn cookie_of(reply: &web_server::RawReply) -> String {
    reply
        .set_cookies()
        .first()
        .and_then(|c| c.split(';').next())
        .expect("a seat cookie")
        .to_string()
}

/// A request on its own connection to `address`; status 0 when the
/// server is not there (killed, or starting again).
fn call(address: &str, method: &str, path: &str, cookie: &str, body: &str) -> (u16, Value) {
    let Ok(mut socket) = TcpStream::connect(address) else {
        return (0, Value::Null);
    };
    let _ = socket.set_read_timeout(Some(Duration::from_secs(10)));
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !cookie.is_empty() {
        request.push_str(&format!("Cookie: {cookie}\r\n"));
    }
    if !body.is_empty() {
        request.push_str("Content-Type: application/json\r\n");
    }
    request.push_str("\r\n");
    request.push_str(body);
    if socket.write_all(request.as_bytes()).is_err() {
        return (0, Value::Null);
    }
    let reply = RawReply::read(&mut socket);
    (reply.status, reply.json_or_text())
}

fn make_table(server: &Server, n: usize) -> Table {
    let body =
        json!({"name": format!("A{n}"), "settings": {"game": "spanish", "rotate_first": false}});
    let reply = raw_request(
        server,
        "POST",
        "/api/groups",
        &[("Content-Type", "application/json")],
        &body.to_string(),
    );
    assert_eq!(reply.status, 201, "{}", reply.text);
    let ana = cookie_of(&reply);
    let group = reply.json_or_text()["id"]
        .as_str()
        .expect("an id")
        .to_string();
    let reply = raw_request(
        server,
        "POST",
        &format!("/api/groups/{group}/join"),
        &[("Content-Type", "application/json")],
        &json!({"name": format!("B{n}")}).to_string(),
    );
    assert_eq!(reply.status, 201, "{}", reply.text);
    let bea = cookie_of(&reply);
    let (status, started) = call(
        server.address(),
        "POST",
        &format!("/api/groups/{group}/next"),
        &ana,
        "",
    );
    assert_eq!(status, 201, "{started}");
    Table {
        group,
        cookies: [ana, bea],
        play: Mutex::new(Play {
            game: started["game"].as_str().expect("a game").to_string(),
            asked: Vec::new(),
            acknowledged: 0,
        }),
        stored: AtomicUsize::new(0),
    }
}

/// A person's loop: whenever their seat is to move, a legal move; when
/// the game is over, the creator starts the next.
fn play(server: &str, table: &Table, seat: usize, stop: &AtomicBool) {
    let cookie = &table.cookies[seat];
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(THINK);
        let game = table.play.lock().expect("a lock").game.clone();
        let (status, state) = call(server, "GET", &format!("/api/games/{game}"), cookie, "");
        if status != 200 {
            continue;
        }
        if state["result"] != Value::Null {
            if seat == 0 {
                let path = format!("/api/groups/{}/next", table.group);
                let (status, next) = call(server, "POST", &path, cookie, "");
                if let (201, Some(id)) = (status, next["game"].as_str()) {
                    let mut play = table.play.lock().expect("a lock");
                    *play = Play {
                        game: id.to_string(),
                        asked: Vec::new(),
                        acknowledged: 0,
                    };
                }
            }
            continue;
        }
        if state["to_move"].as_u64() != Some(seat as u64) {
            continue;
        }
        let Some(from) = state["movable"][0].as_str() else {
            continue;
        };
        let (_, choices) = call(
            server,
            "GET",
            &format!("/api/games/{game}/moves?from={from}"),
            cookie,
            "",
        );
        let Some(text) = choices[0]["text"].as_str() else {
            continue;
        };
        let count = state["moves"].as_array().map_or(0, Vec::len) + 1;
        {
            let mut play = table.play.lock().expect("a lock");
            play.asked.resize(count, Instant::now());
            play.asked[count - 1] = Instant::now();
        }
        let body = json!({ "move": text }).to_string();
        let (status, _) = call(
            server,
            "POST",
            &format!("/api/games/{game}/move"),
            cookie,
            &body,
        );
        let mut play = table.play.lock().expect("a lock");
        if status == 200 && play.game == game {
            play.acknowledged = play.acknowledged.max(count);
            table.stored.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// What the streams saw: each move's delay, and when each stream was
/// back after the restart.
#[derive(Default)]
struct Seen {
    delays: Vec<Duration>,
    back: Vec<Instant>,
}

/// A live stream of the group, reconnecting with its last event id
/// whenever the connection drops, until `stop`.
fn follow(address: &str, table: &Table, cookie: &str, stop: &AtomicBool, seen: &Mutex<Seen>) {
    let mut last: Option<String> = None;
    let mut shown = 0usize;
    let mut dropped = false;
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut socket) = TcpStream::connect(address) else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let mut request = format!(
            "GET /api/groups/{}/events HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\nCookie: {cookie}\r\n",
            table.group
        );
        if let Some(last) = &last {
            request.push_str(&format!("Last-Event-ID: {last}\r\n"));
        }
        request.push_str("\r\n");
        if socket.write_all(request.as_bytes()).is_err() {
            continue;
        }
        let _ = socket.set_read_timeout(Some(Duration::from_millis(500)));
        let mut text = String::new();
        let mut buffer = vec![0u8; 1 << 16];
        loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            match socket.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => text.push_str(&String::from_utf8_lossy(&buffer[..n])),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    continue
                }
                Err(_) => break,
            }
            while let Some(end) = text.find("\n\n") {
                let block: String = text[..end].to_string();
                text.drain(..end + 2);
                let mut data = None;
                for line in block.lines().map(|l| l.trim_end_matches('\r')) {
                    if let Some(id) = line.strip_prefix("id:") {
                        last = Some(id.trim().to_string());
                    } else if let Some(value) = line.strip_prefix("data:") {
                        data = serde_json::from_str::<Value>(value.trim()).ok();
                    }
                }
                let Some(state) = data else { continue };
                let now = Instant::now();
                let mut seen = seen.lock().expect("a lock");
                if dropped {
                    dropped = false;
                    seen.back.push(now);
                }
                let count = state["game_state"]["moves"].as_array().map_or(0, Vec::len);
                if count > shown {
                    let play = table.play.lock().expect("a lock");
                    if let Some(at) = play.asked.get(count - 1) {
                        seen.delays.push(now.saturating_duration_since(*at));
                    }
                }
                shown = count;
            }
        }
        dropped = true;
    }
}

fn main() {
    let dir = std::env::temp_dir().join(format!("damas-groups-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let data = dir.join("serve.sqlite");
    let data = data.to_str().expect("a UTF-8 path").to_string();
    let args = [
        "--workers",
        "2",
        "--hash",
        "4",
        "--data",
        &data,
        "--max-connections",
        "2048",
        "--max-games",
        "1000",
        "--max-games-per-client",
        "1000",
        "--away-secs",
        "600",
    ];
    let server = Server::start_with(&args);
    let address = server.address().to_string();
    let port = address.rsplit(':').next().expect("a port").to_string();
    let tables: Vec<Arc<Table>> = (0..GROUPS)
        .map(|n| Arc::new(make_table(&server, n)))
        .collect();
    let server = Arc::new(Mutex::new(server));
    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(Mutex::new(Seen::default()));
    let mut threads = Vec::new();
    for table in &tables {
        for stream in 0..STREAMS_PER_GROUP {
            let (table, stop, seen, address) = (
                Arc::clone(table),
                Arc::clone(&stop),
                Arc::clone(&seen),
                address.clone(),
            );
            // The two players' streams hold their seats; the others watch.
            let cookie = table.cookies.get(stream).cloned().unwrap_or_default();
            threads.push(
                std::thread::Builder::new()
                    .stack_size(256 * 1024)
                    .spawn(move || follow(&address, &table, &cookie, &stop, &seen))
                    .expect("a thread"),
            );
        }
    }
    // The players talk to whichever server listens on the address.
    let players_stop = Arc::new(AtomicBool::new(false));
    let mut players = Vec::new();
    for table in &tables {
        for seat in 0..2 {
            let (table, stop, address) = (
                Arc::clone(table),
                Arc::clone(&players_stop),
                address.clone(),
            );
            players.push(
                std::thread::Builder::new()
                    .stack_size(256 * 1024)
                    .spawn(move || play(&address, &table, seat, &stop))
                    .expect("a thread"),
            );
        }
    }
    std::thread::sleep(Duration::from_secs(2));
    let stored = || -> usize { tables.iter().map(|t| t.stored.load(Ordering::SeqCst)).sum() };
    let start_moves = stored();
    seen.lock().expect("a lock").delays.clear();
    let start = Instant::now();
    std::thread::sleep(MEASURE);
    let elapsed = start.elapsed();
    let moves = stored() - start_moves;
    let (rss, peak) = {
        let server = server.lock().expect("a lock");
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", server.pid())).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .map(|l| l[name.len()..].trim().to_string())
                .unwrap_or_default()
        };
        (field("VmRSS:"), field("VmHWM:"))
    };
    let mut delays = std::mem::take(&mut seen.lock().expect("a lock").delays);
    delays.sort_unstable();
    println!(
        "{GROUPS} groups, {} streams, {:.1} s: {moves} moves stored ({:.0} a second), {} events seen",
        GROUPS * STREAMS_PER_GROUP,
        elapsed.as_secs_f64(),
        moves as f64 / elapsed.as_secs_f64(),
        delays.len()
    );
    println!(
        "event delay from the move's request: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&delays, 0.5).as_secs_f64() * 1e3,
        percentile(&delays, 0.99).as_secs_f64() * 1e3,
        delays.last().map_or(0.0, |d| d.as_secs_f64() * 1e3)
    );
    let file = std::fs::metadata(&data).map_or(0, |m| m.len());
    println!(
        "server memory: {rss} (peak {peak}); data file {} KiB",
        file / 1024
    );

    // SIGKILL under load, and the same file and port again. Once the
    // server is dead no move is acknowledged: each group's game and count
    // are then final.
    {
        let (_, ended) = server
            .lock()
            .expect("a lock")
            .signal_and_wait(libc::SIGKILL);
        assert!(ended, "killed");
    }
    // The people stop with it, so that the games stay as the server left
    // them until they are compared.
    players_stop.store(true, Ordering::Relaxed);
    for player in players {
        let _ = player.join();
    }
    let acknowledged: Vec<(String, usize)> = tables
        .iter()
        .map(|t| {
            let play = t.play.lock().expect("a lock");
            (play.game.clone(), play.acknowledged)
        })
        .collect();
    seen.lock().expect("a lock").back.clear();
    let restarted = Instant::now();
    let again = Server::start_with(&[&args[..], &["--port", &port]].concat());
    let listening = restarted.elapsed();
    let deadline = Instant::now() + Duration::from_secs(60);
    while seen.lock().expect("a lock").back.len() < GROUPS * STREAMS_PER_GROUP
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut back = seen.lock().expect("a lock").back.clone();
    back.sort_unstable();
    let since = |at: Option<&Instant>| {
        at.map_or(f64::NAN, |t| {
            t.saturating_duration_since(restarted).as_secs_f64() * 1e3
        })
    };
    let half_back = since(back.get(back.len() / 2));
    let all_back = since(back.last());
    let lost: usize = tables
        .iter()
        .zip(&acknowledged)
        .map(|(_, (game, acked))| {
            let (_, state) = call(
                again.address(),
                "GET",
                &format!("/api/games/{game}"),
                "",
                "",
            );
            acked.saturating_sub(state["moves"].as_array().map_or(0, Vec::len))
        })
        .sum();
    println!(
        "after SIGKILL: listening again in {:.0} ms, {} of {} streams back (half {half_back:.0} ms, the last {all_back:.0} ms after the restart); {lost} acknowledged moves lost of the {} of the games in play",
        listening.as_secs_f64() * 1e3,
        back.len(),
        GROUPS * STREAMS_PER_GROUP,
        acknowledged.iter().map(|(_, n)| n).sum::<usize>()
    );
    stop.store(true, Ordering::Relaxed);
    for thread in threads {
        let _ = thread.join();
    }
    drop(again);
    let _ = std::fs::remove_dir_all(&dir);
}
