//! The web board's storage (`damas serve --data FILE`): a server killed
//! with SIGKILL in the middle of a group's game comes back on the same
//! file with every seat token working, every page's stream catching up and
//! the game going on from the same move; single-device games, their undo
//! and their removal survive too; a file that is not the server's, or is
//! damaged, is refused with one line and left as it was; what expires is
//! removed from the file, whose size stays bounded.

#[path = "support/web_server.rs"]
mod web_server;

#[path = "support/devices.rs"]
mod devices;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use devices::{group_playing, legal_move, play_a_move, str_of, Device, Stream};
use serde_json::{json, Value};
use web_server::{Server, PATIENCE};

/// A fresh directory for one test's data file.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damas-restart-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The port a server listens on.
fn port(server: &Server) -> String {
    server
        .address()
        .rsplit(':')
        .next()
        .expect("a port")
        .to_string()
}

/// Kills the server at once, as a crash would.
fn crash(server: &mut Server) {
    let (_, ended) = server.signal_and_wait(libc::SIGKILL);
    assert!(ended, "the server ends on SIGKILL");
}

fn moves(state: &Value) -> Vec<Value> {
    state["moves"].as_array().expect("moves").clone()
}

/// A stream's first event, skipping none: the state it starts with.
fn first_event(stream: &mut Stream) -> (u64, Value) {
    let head = stream.head();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    stream.event()
}

#[test]
fn a_group_game_killed_mid_game_goes_on_from_the_same_move() {
    let dir = scratch("group");
    let data = dir.join("serve.sqlite");
    let args = ["--data", text(&data), "--away-secs", "600"];
    let mut server = Server::start(&args);
    assert!(
        server.data.contains("0 groups and 0 games restored"),
        "{}",
        server.data
    );
    let (mut devices, group, game) = group_playing(&server, "chinese", &["Ana", "Bea", "Caro"]);
    for _ in 0..8 {
        let mut seats: Vec<&mut Device> = devices.iter_mut().collect();
        play_a_move(&server, &mut seats, &game);
    }
    let before = server.ok("GET", &format!("/api/games/{game}"), None, 200);
    assert_eq!(moves(&before).len(), 8);
    let group_path = format!("/api/groups/{group}/events");
    // Each page follows the group and has seen its latest event.
    let mut seen = Vec::new();
    for device in &devices {
        let mut stream = device.stream(&server, &group_path, None);
        let (id, state) = first_event(&mut stream);
        assert_eq!(
            state["game_state"]["moves"].as_array().map(Vec::len),
            Some(8)
        );
        seen.push((id, stream));
    }

    crash(&mut server);
    for (_, stream) in &mut seen {
        assert!(
            stream.ends_within(PATIENCE),
            "the stream ends with the server"
        );
    }
    // Started again on the same file and port, as the pages expect.
    let port = port(&server);
    let server = Server::start(&[&args[..], &["--port", &port]].concat());
    assert!(
        server.data.contains("1 groups and 1 games restored"),
        "{}",
        server.data
    );

    // Every page reconnects with the last event it saw, and is sent the
    // state at once: the same game, the same moves, still its seat.
    for (member, (device, (last, _))) in devices.iter().zip(&seen).enumerate() {
        let mut stream = device.stream(&server, &group_path, Some(*last));
        let (id, state) = first_event(&mut stream);
        assert!(id > *last, "a newer event id: {id} after {last}");
        assert_eq!(state["you"], json!([member + 1]));
        assert_eq!(str_of(&state["game"]), game);
        let names: Vec<&str> = state["members"]
            .as_array()
            .expect("members")
            .iter()
            .filter_map(|m| m["name"].as_str())
            .collect();
        assert_eq!(names, ["Ana", "Bea", "Caro"]);
        assert_eq!(state["game_state"]["moves"], before["moves"]);
        assert_eq!(state["game_state"]["position"], before["position"]);
    }

    let after = server.ok("GET", &format!("/api/games/{game}"), None, 200);
    assert_eq!(after["to_move"], before["to_move"]);
    assert_eq!(after["moves"], before["moves"]);
    let seat = before["to_move"].as_u64().expect("someone to move") as usize;
    let member = before["group"]["seats"][seat]["member"]
        .as_u64()
        .expect("a member") as usize;
    // A token of another seat is still refused; the seat's own still works.
    let body = json!({ "move": legal_move(&server, &game) }).to_string();
    let path = format!("/api/games/{game}/move");
    let other = member % 3;
    let (status, refusal) = devices[other].call(&server, "POST", &path, Some(&body));
    assert_eq!(status, 403, "{refusal}");
    assert_eq!(refusal["code"], "seat_not_yours");
    let played = devices[member - 1].ok(&server, "POST", &path, Some(&body), 200);
    let history = moves(&played);
    assert_eq!(history.len(), 9);
    assert_eq!(history[..8], moves(&before)[..]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn single_device_games_their_undo_and_removal_survive_a_restart() {
    let dir = scratch("single");
    let data = dir.join("serve.sqlite");
    let args = ["--data", text(&data)];
    let mut server = Server::start(&args);
    let two_people =
        r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}],"turn_seconds":30}"#;
    let kept = str_of(&server.ok("POST", "/api/games", Some(two_people), 201)["id"]);
    let removed = str_of(&server.ok("POST", "/api/games", Some(two_people), 201)["id"]);
    for text in ["11-15", "22-18", "15x22"] {
        let body = json!({ "move": text }).to_string();
        let path = format!("/api/games/{kept}/move");
        let (status, answer) = server.request("POST", &path, Some(&body));
        if text == "15x22" {
            // Not a capture here: refused, and nothing stored.
            assert_eq!(status, 400, "{answer}");
        } else {
            assert_eq!(status, 200, "{answer}");
        }
    }
    server.ok("POST", &format!("/api/games/{kept}/undo"), None, 200);
    let mut played = vec!["11-15".to_string()];
    for _ in 0..2 {
        let text = legal_move(&server, &kept);
        let body = json!({ "move": text }).to_string();
        server.ok("POST", &format!("/api/games/{kept}/move"), Some(&body), 200);
        played.push(text);
    }
    let before = server.ok("GET", &format!("/api/games/{kept}"), None, 200);
    let texts: Vec<String> = moves(&before).iter().map(|m| str_of(&m["text"])).collect();
    assert_eq!(texts, played);
    let (status, _) = server.request("DELETE", &format!("/api/games/{removed}"), None);
    assert_eq!(status, 204);

    crash(&mut server);
    let server = Server::start(&args);
    assert!(
        server.data.contains("0 groups and 1 games restored"),
        "{}",
        server.data
    );
    let after = server.ok("GET", &format!("/api/games/{kept}"), None, 200);
    for field in [
        "moves",
        "position",
        "to_move",
        "seats",
        "settings",
        "game_number",
    ] {
        assert_eq!(after[field], before[field], "{field}");
    }
    assert!(
        after["version"].as_u64() > before["version"].as_u64(),
        "a page open across the restart takes the state as newer"
    );
    let (status, _) = server.request("GET", &format!("/api/games/{removed}"), None);
    assert_eq!(status, 404);
    // The history goes on: undo takes back the move before the restart.
    let undone = server.ok("POST", &format!("/api/games/{kept}/undo"), None, 200);
    assert_eq!(moves(&undone).len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `damas serve --data FILE`, expected to refuse the file: its standard
/// error.
fn refused_start(data: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["serve", "--port", "0", "--data", text(data)])
        .output()
        .expect("runs");
    assert!(!output.status.success(), "the file is refused");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains(text(data)), "the file is named: {stderr}");
    stderr
}

#[test]
fn a_foreign_or_damaged_file_is_refused_with_one_line_and_left_as_it_was() {
    let dir = scratch("refused");
    let foreign = dir.join("notes.txt");
    std::fs::write(&foreign, "shopping list\n".repeat(400)).expect("written");
    let before = std::fs::read(&foreign).expect("read");
    assert!(refused_start(&foreign).contains("is not a database"));
    assert_eq!(std::fs::read(&foreign).expect("read"), before);

    // A file of the server's, damaged in the middle.
    let data = dir.join("serve.sqlite");
    let mut server = Server::start(&["--data", text(&data)]);
    let body = r#"{"game":"chinese","players":2,"seats":[{"kind":"human"},{"kind":"human"}]}"#;
    for _ in 0..40 {
        server.ok("POST", "/api/games", Some(body), 201);
    }
    let (_, ended) = server.signal_and_wait(libc::SIGTERM);
    assert!(ended);
    let mut bytes = std::fs::read(&data).expect("read");
    assert!(bytes.len() >= 4 * 4096, "{} bytes", bytes.len());
    for byte in &mut bytes[2 * 4096..3 * 4096] {
        *byte = 0xA5;
    }
    std::fs::write(&data, &bytes).expect("written");
    let stderr = refused_start(&data);
    assert!(stderr.contains("damaged"), "{stderr}");
    assert_eq!(
        std::fs::read(&data).expect("read"),
        bytes,
        "never overwritten"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The data file's size with its write-ahead log, in bytes.
fn stored_bytes(data: &Path) -> u64 {
    let size = |path: PathBuf| std::fs::metadata(path).map_or(0, |m| m.len());
    size(data.to_path_buf()) + size(PathBuf::from(format!("{}-wal", data.display())))
}

/// Makes `count` games of `moves` moves each, then waits until the
/// keeper has dropped them all.
fn fill_and_expire(server: &Server, count: usize, moves: usize) {
    let body = r#"{"game":"chinese","players":2,"seats":[{"kind":"human"},{"kind":"human"}]}"#;
    let mut games = Vec::new();
    for _ in 0..count {
        let id = str_of(&server.ok("POST", "/api/games", Some(body), 201)["id"]);
        for _ in 0..moves {
            let body = json!({ "move": legal_move(server, &id) }).to_string();
            server.ok("POST", &format!("/api/games/{id}/move"), Some(&body), 200);
        }
        games.push(id);
    }
    // Asking refreshes a game: look only after more than the idle time.
    let deadline = Instant::now() + PATIENCE;
    loop {
        std::thread::sleep(Duration::from_secs(3));
        let all_gone = games
            .iter()
            .all(|id| server.request("GET", &format!("/api/games/{id}"), None).0 == 404);
        if all_gone {
            return;
        }
        assert!(Instant::now() < deadline, "the games expire");
    }
}

#[test]
fn what_expires_leaves_the_file_and_its_size_stays_bounded() {
    let dir = scratch("expiry");
    let data = dir.join("serve.sqlite");
    let args = [
        "--data",
        text(&data),
        "--idle-secs",
        "2",
        "--group-idle-secs",
        "2",
    ];
    let mut server = Server::start(&args);
    let created = Device::default().ok(
        &server,
        "POST",
        "/api/groups",
        Some(r#"{"name":"Ana","settings":{"game":"spanish"}}"#),
        201,
    );
    let group = str_of(&created["id"]);
    fill_and_expire(&server, 30, 12);
    let first_round = stored_bytes(&data);
    for _ in 0..2 {
        fill_and_expire(&server, 30, 12);
    }
    let third_round = stored_bytes(&data);
    // The pages the expired games held are used again (or given back):
    // the same work again does not grow the file.
    assert!(
        third_round <= first_round + 64 * 1024,
        "{first_round} bytes after one round, {third_round} after three"
    );
    let (status, _) = server.request("GET", &format!("/api/groups/{group}"), None);
    assert_eq!(status, 404, "the idle group expired too");
    crash(&mut server);
    let server = Server::start(&args);
    assert!(
        server.data.contains("0 groups and 0 games restored"),
        "{}",
        server.data
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
