//! The web board's limits (`damas serve`): bad and hostile requests get a
//! clear 4xx and never take the server down, sizes and counts are bounded,
//! idle games expire.

#[path = "support/web_server.rs"]
mod web_server;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use web_server::{id, moves, Server, PATIENCE};

const TWO_PEOPLE_STAR: &str =
    r#"{"game":"chinese","players":2,"seats":[{"kind":"human"},{"kind":"human"}]}"#;

/// Sends raw bytes as one HTTP/1.1 request and returns the status code of
/// the answer (0 when the server closed the connection without one).
fn raw_status(server: &Server, request: &[u8]) -> u16 {
    let address = server.url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).expect("connects");
    stream.set_read_timeout(Some(PATIENCE)).expect("a timeout");
    // The server may answer (413, 400) and close before it has read it all.
    let _ = stream.write_all(request);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    text.strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

fn post(path: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    request
}

#[test]
fn hostile_requests_get_a_4xx_and_the_server_lives_on() {
    let server = Server::start(&[]);
    let state = server.create(r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}]}"#);
    let game = id(&state);
    let json = "application/json";
    let mut requests: Vec<(Vec<u8>, &[u16])> = vec![
        // Not UTF-8, not JSON, JSON of the wrong shape, numbers out of range.
        (post("/api/games", json, b"{\"game\":\"\xff\xfe\"}"), &[400]),
        (post("/api/games", json, b"\x00\x01\x02"), &[400]),
        (post("/api/games", json, b"[1,2,3]"), &[400]),
        (post("/api/games", json, b"{\"game\":\"chinese\",\"players\":-1}"), &[400]),
        (post("/api/games", json, b"{\"game\":\"chinese\",\"players\":1e9}"), &[400]),
        (post("/api/games", json, b"{\"game\":\"spanish\",\"turn_seconds\":18446744073709551616}"), &[400]),
        (post("/api/games", json, b"{\"game\":\"spanish\",\"seats\":[{\"kind\":\"engine\",\"think_ms\":4294967295},{\"kind\":\"human\"}]}"), &[400]),
        (post("/api/games", "text/plain", b"{\"game\":\"spanish\""), &[400]),
        (post(&format!("/api/games/{game}/move"), json, b"{\"move\":\"11\\u0000-15\"}"), &[400]),
        (post(&format!("/api/games/{game}/move"), json, "{\"move\":\"١١-١٥\"}".as_bytes()), &[400]),
        (post(&format!("/api/games/{game}/move"), json, b"{\"move\":11}"), &[400]),
        (post(&format!("/api/games/{game}/resign"), json, b"{\"player\":\"p0\"}"), &[400]),
        (post(&format!("/api/games/{game}/resign"), json, b"{\"player\":\"p18446744073709551617\"}"), &[400]),
        // Deep nesting and a body over the limit.
        (post("/api/games", json, "[".repeat(10_000).as_bytes()), &[400]),
        (post("/api/games", json, &vec![b' '; 100_000]), &[413]),
        // Paths: bad ids, bad seats, bad percent-encoding, odd methods.
        (format!("GET /api/games/{game}/moves?from=%ff%fe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").into_bytes(), &[400]),
        (format!("GET /api/games/{game}/moves?from=1&from=2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").into_bytes(), &[400]),
        (b"GET /api/games/%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(), &[400, 404]),
        (b"GET /api/games/ffffffffffffffffffff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(), &[404]),
        (format!("PUT /api/games/{game}/seats/18446744073709551616 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 16\r\nConnection: close\r\n\r\n{{\"kind\":\"human\"}}").into_bytes(), &[404]),
        (format!("PUT /api/games/{game}/seats/0 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 16\r\nConnection: close\r\n\r\n{{\"kind\":\"human\"}}").into_bytes(), &[404]),
        (format!("PATCH /api/games/{game} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").into_bytes(), &[405]),
        (b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(), &[400, 404]),
        // Malformed HTTP: hyper refuses it.
        (b"GARBAGE\r\n\r\n".to_vec(), &[0, 400]),
        (format!("GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n", "a".repeat(1 << 20)).into_bytes(), &[0, 400, 431]),
    ];
    // Random bytes as bodies of every JSON endpoint.
    let mut rng = fastrand::Rng::with_seed(18);
    let endpoints = [
        "/api/games".to_string(),
        format!("/api/games/{game}/move"),
        format!("/api/games/{game}/resign"),
    ];
    for i in 0..150 {
        let length = rng.usize(1..64);
        let body: Vec<u8> = (0..length).map(|_| rng.u8(..)).collect();
        requests.push((post(&endpoints[i % endpoints.len()], json, &body), &[400]));
    }
    for (request, expected) in &requests {
        let status = raw_status(&server, request);
        assert!(
            expected.contains(&status),
            "{status} for {:?}",
            String::from_utf8_lossy(&request[..request.len().min(200)])
        );
    }
    // Still serving, and the game is as it was.
    let after = server.ok("GET", &format!("/api/games/{game}"), None, 200);
    assert_eq!(after["version"], state["version"]);
    assert!(moves(&after).is_empty());
    server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"11-15"}"#),
        200,
    );
}

#[test]
fn bad_requests_get_a_clear_error_and_change_nothing() {
    let server = Server::start(&[]);
    let state = server.create(r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}]}"#);
    let game = id(&state);
    let cases: &[(&str, String, Option<&str>, u16, &str)] = &[
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"chess"}"#),
            400,
            "not spanish, chinese or japanese",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"chinese","players":7}"#),
            400,
            "1-6 players",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"japanese","players":4}"#),
            400,
            "1-3 players",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"spanish","players":3}"#),
            400,
            "2 players",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"spanish""#),
            400,
            "bad request body",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"spanish","colour":1}"#),
            400,
            "unknown field",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"spanish","players":300}"#),
            400,
            "bad request body",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"spanish","turn_seconds":9999}"#),
            400,
            "turn_seconds",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"spanish","seats":[{"kind":"human"}]}"#),
            400,
            "1 seats given",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"spanish","seats":[{"kind":"cat"},{"kind":"human"}]}"#),
            400,
            "not human or engine",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"spanish","seats":[{"kind":"engine","level":9},{"kind":"human"}]}"#),
            400,
            "level 9",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"spanish","seats":[{"kind":"engine","think_ms":1},{"kind":"human"}]}"#),
            400,
            "think_ms 1",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"spanish","position":"W:W33:B1"}"#),
            400,
            "invalid position",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"japanese","position":"I2 1 e9/f9,h9"}"#),
            400,
            "variant",
        ),
        (
            "POST",
            format!("/api/games/{game}/move"),
            Some(r#"{"move":"11-16"}"#),
            400,
            "11-16",
        ),
        (
            "POST",
            format!("/api/games/{game}/move"),
            Some(r#"{"move":"99-100"}"#),
            400,
            "",
        ),
        (
            "POST",
            format!("/api/games/{game}/move"),
            Some(r#"{"mv":"11-15"}"#),
            400,
            "unknown field",
        ),
        (
            "POST",
            format!("/api/games/{game}/resign"),
            Some(r#"{"player":"p9"}"#),
            400,
            "not a player",
        ),
        (
            "PUT",
            format!("/api/games/{game}/seats/3"),
            Some(r#"{"kind":"human"}"#),
            404,
            "no seat p3",
        ),
        (
            "PUT",
            format!("/api/games/{game}/seats/0"),
            Some(r#"{"kind":"human"}"#),
            404,
            "no such seat",
        ),
        (
            "PUT",
            format!("/api/games/{game}/clock"),
            Some(r#"{"turn_seconds":-1}"#),
            400,
            "bad request body",
        ),
        (
            "GET",
            format!("/api/games/{game}/moves?from=zz"),
            None,
            400,
            "",
        ),
        ("GET", format!("/api/games/{game}/moves"), None, 400, "from"),
        (
            "GET",
            "/api/games/0123456789abcdef".into(),
            None,
            404,
            "no such game",
        ),
        (
            "GET",
            "/api/games/not-an-id".into(),
            None,
            404,
            "no such game",
        ),
        (
            "GET",
            "/api/games/12345678901234567890".into(),
            None,
            404,
            "no such game",
        ),
        ("GET", "/nowhere".into(), None, 404, "no such page"),
    ];
    for (method, path, body, status, words) in cases {
        let (got, value) = server.request(method, path, *body);
        assert_eq!(got, *status, "{method} {path} {body:?}: {value}");
        let error = value["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {path}: no error in {value}"));
        assert!(
            !error.is_empty() && error.contains(words),
            "{method} {path}: {error}"
        );
    }
    // A body past the limit is refused before it is read.
    let big = format!(
        r#"{{"game":"spanish","position":"{}"}}"#,
        "x".repeat(20_000)
    );
    let (status, _) = server.request("POST", "/api/games", Some(&big));
    assert_eq!(status, 413);
    let after = server.ok("GET", &format!("/api/games/{game}"), None, 200);
    assert_eq!(after["version"], state["version"]);
    assert!(moves(&after).is_empty());
    // The engine's turn is not a person's to play.
    let engine = server.create(
        r#"{"game":"spanish","seats":[{"kind":"engine","think_ms":3000},{"kind":"human"}]}"#,
    );
    let (status, value) = server.request(
        "POST",
        &format!("/api/games/{}/move", id(&engine)),
        Some(r#"{"move":"11-15"}"#),
    );
    assert_eq!(status, 409, "{value}");
    assert_eq!(value["error"], "p1 is played by the engine");
    server.ok("DELETE", &format!("/api/games/{}", id(&engine)), None, 204);
    let (status, _) = server.request("GET", &format!("/api/games/{}", id(&engine)), None);
    assert_eq!(status, 404);
}

#[test]
fn idle_games_expire_and_the_game_limit_holds() {
    let server = Server::start(&["--idle-secs", "1", "--max-games", "2"]);
    let first = server.create(TWO_PEOPLE_STAR);
    server.create(TWO_PEOPLE_STAR);
    let (status, value) = server.request("POST", "/api/games", Some(TWO_PEOPLE_STAR));
    assert_eq!(status, 503, "{value}");
    assert!(value["error"].as_str().unwrap().contains("limit"));
    std::thread::sleep(Duration::from_millis(1600));
    let (status, value) = server.request("GET", &format!("/api/games/{}", id(&first)), None);
    assert_eq!(status, 404, "{value}");
    // Expired games free their places.
    server.create(TWO_PEOPLE_STAR);
}
