//! Every kind of error answer and notice of the web board (`damas
//! serve`), recorded whole: the status and the `error` sentence, `code` and
//! `params` of each error, the `notice`, `notice_code` and `notice_params`
//! of each notice. The answers are compared with tests/data/serve_errors.json
//! exactly, so that a change of wording or of code shows here.
//!
//! `DAMAS_WRITE_GOLDEN=1 cargo test --test serve_error_codes` writes the
//! file anew from the server's answers (then read the diff).

#[path = "support/web_server.rs"]
mod web_server;

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use web_server::{id, moves, open_raw, raw_request, read_answer, Server};

const GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/serve_errors.json"
);

const TWO_PEOPLE: &str = r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}]}"#;
const THREE_PEOPLE_STAR: &str = r#"{"game":"chinese","players":3,"seats":[{"kind":"human"},{"kind":"human"},{"kind":"human"}]}"#;

/// The answers recorded, in order.
#[derive(Default)]
struct Record {
    entries: Vec<Value>,
}

impl Record {
    /// An error answer: its status and whole body.
    fn error(&mut self, case: &str, (status, body): (u16, Value)) {
        assert!(status >= 400, "{case}: {status} {body}");
        self.entries
            .push(json!({ "case": case, "status": status, "body": body }));
    }

    /// An API request that must be refused.
    fn request(
        &mut self,
        server: &Server,
        case: &str,
        method: &str,
        path: &str,
        body: Option<&str>,
    ) {
        let answer = server.request(method, path, body);
        self.error(case, answer);
    }

    /// A raw request that must be refused.
    fn raw(&mut self, server: &Server, case: &str, request: &[u8]) {
        let answer = raw(server, request);
        self.error(case, answer);
    }

    /// The notice (and warning) of a state.
    fn notice(&mut self, case: &str, state: &Value) {
        let fields = [
            "notice",
            "notice_code",
            "notice_params",
            "warning",
            "warning_code",
            "warning_params",
        ];
        let mut entry = json!({ "case": case });
        for field in fields {
            entry[field] = state[field].clone();
        }
        self.entries.push(entry);
    }
}

/// One request on its own connection: the status and the body as JSON.
fn raw(server: &Server, request: &[u8]) -> (u16, Value) {
    let (status, body) = read_answer(&mut open_raw(server, request));
    let value = serde_json::from_str(&body).unwrap_or_else(|_| panic!("not JSON: {body:?}"));
    (status, value)
}

/// A POST of `body` as JSON on its own connection.
fn post(path: &str, body: &[u8]) -> Vec<u8> {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    request
}

/// A GET on its own connection.
fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").into_bytes()
}

/// The refusals of creating a game.
fn creation(record: &mut Record, server: &Server) {
    let cases: &[(&str, &str)] = &[
        ("bad game", r#"{"game":"chess"}"#),
        (
            "bad game, long name",
            r#"{"game":"a very long name of no game at all"}"#,
        ),
        (
            "too many players, chinese",
            r#"{"game":"chinese","players":7}"#,
        ),
        (
            "too many players, japanese",
            r#"{"game":"japanese","players":4}"#,
        ),
        (
            "too many players, spanish",
            r#"{"game":"spanish","players":3}"#,
        ),
        ("no players, chinese", r#"{"game":"chinese","players":0}"#),
        ("unfinished JSON", r#"{"game":"spanish""#),
        ("unknown field", r#"{"game":"spanish","colour":1}"#),
        (
            "players out of range",
            r#"{"game":"spanish","players":300}"#,
        ),
        ("negative players", r#"{"game":"chinese","players":-1}"#),
        ("JSON of the wrong shape", "[1,2,3]"),
        ("no game", "{}"),
        (
            "turn seconds too many",
            r#"{"game":"spanish","turn_seconds":9999}"#,
        ),
        (
            "turn seconds past u32",
            r#"{"game":"spanish","turn_seconds":18446744073709551616}"#,
        ),
        (
            "one seat for two players",
            r#"{"game":"spanish","seats":[{"kind":"human"}]}"#,
        ),
        (
            "three seats for two players",
            r#"{"game":"chinese","players":2,"seats":[{"kind":"human"},{"kind":"human"},{"kind":"human"}]}"#,
        ),
        (
            "seat kind",
            r#"{"game":"spanish","seats":[{"kind":"cat"},{"kind":"human"}]}"#,
        ),
        (
            "seat kind, long",
            r#"{"game":"spanish","seats":[{"kind":"a cat that is very long indeed"},{"kind":"human"}]}"#,
        ),
        (
            "seat field",
            r#"{"game":"spanish","seats":[{"kind":"human","colour":2},{"kind":"human"}]}"#,
        ),
        (
            "level too high",
            r#"{"game":"spanish","seats":[{"kind":"engine","level":9},{"kind":"human"}]}"#,
        ),
        (
            "level zero",
            r#"{"game":"spanish","seats":[{"kind":"engine","level":0},{"kind":"human"}]}"#,
        ),
        (
            "think_ms too short",
            r#"{"game":"spanish","seats":[{"kind":"engine","think_ms":1},{"kind":"human"}]}"#,
        ),
        (
            "think_ms too long",
            r#"{"game":"spanish","seats":[{"kind":"engine","think_ms":4294967295},{"kind":"human"}]}"#,
        ),
        (
            "not a rule option",
            r#"{"game":"chinese","rules":{"Hash":4}}"#,
        ),
        (
            "no such option",
            r#"{"game":"chinese","rules":{"Colour":4}}"#,
        ),
        (
            "rule value out of range",
            r#"{"game":"chinese","rules":{"MoveLimit":-3}}"#,
        ),
        (
            "rule value not a number",
            r#"{"game":"chinese","rules":{"MoveLimit":"many"}}"#,
        ),
        (
            "rule check not a flag",
            r#"{"game":"chinese","rules":{"GoalLock":"maybe"}}"#,
        ),
        (
            "rule preset unknown",
            r#"{"game":"chinese","rules":{"Rules":"house"}}"#,
        ),
        (
            "ccerl for three players",
            r#"{"game":"chinese","players":3,"rules":{"Rules":"ccerl"}}"#,
        ),
        (
            "anti_blocking not a flag",
            r#"{"game":"chinese","anti_blocking":"yes"}"#,
        ),
        (
            "square out of range",
            r#"{"game":"spanish","position":"W:W33:B1"}"#,
        ),
        ("not a FEN", r#"{"game":"spanish","position":"hello"}"#),
        (
            "star text for the other variant",
            r#"{"game":"japanese","position":"I2 1 e9/f9,h9"}"#,
        ),
        (
            "star text unreadable",
            r#"{"game":"chinese","position":"X9 1 e9"}"#,
        ),
        (
            "star text bad cell",
            r#"{"game":"chinese","position":"I2 1 z99/f9"}"#,
        ),
    ];
    for (case, body) in cases {
        record.request(server, case, "POST", "/api/games", Some(body));
    }
    let long = format!(r#"{{"game":"spanish","position":"{}"}}"#, "W".repeat(2001));
    record.request(
        server,
        "position too long",
        "POST",
        "/api/games",
        Some(&long),
    );
    // A three-player text for two seats.
    let three = server.create(THREE_PEOPLE_STAR);
    let text = three["position"].as_str().expect("a position").to_string();
    server.ok("DELETE", &format!("/api/games/{}", id(&three)), None, 204);
    let body = json!({"game": "chinese", "players": 2, "position": text}).to_string();
    record.request(
        server,
        "three-player text for two",
        "POST",
        "/api/games",
        Some(&body),
    );
    let body = json!({"game": "chinese", "players": 3, "seats": [{"kind":"human"},{"kind":"human"},{"kind":"human"}], "position": "I2 1 e9/f9,h9"}).to_string();
    record.request(
        server,
        "two-player text for three",
        "POST",
        "/api/games",
        Some(&body),
    );
    // Bodies that are not JSON or not UTF-8.
    let raws: &[(&str, &[u8])] = &[
        ("not UTF-8", b"{\"game\":\"\xff\xfe\"}"),
        ("control bytes", b"\x00\x01\x02"),
        ("deep nesting", &[b'['; 2000]),
    ];
    for (case, body) in raws {
        record.raw(server, case, &post("/api/games", body));
    }
    let text_plain = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 17\r\nConnection: close\r\n\r\n{\"game\":\"spanish\"";
    record.raw(server, "text/plain body", text_plain);
    // Random bytes, as the hostile test sends them.
    let mut rng = fastrand::Rng::with_seed(18);
    for i in 0..12 {
        let length = rng.usize(1..64);
        let body: Vec<u8> = (0..length).map(|_| rng.u8(..)).collect();
        record.raw(
            server,
            &format!("random body {i}"),
            &post("/api/games", &body),
        );
    }
}

/// The refusals of moves in Spanish draughts.
fn spanish_moves(record: &mut Record, server: &Server) {
    let game = id(&server.create(TWO_PEOPLE));
    let path = format!("/api/games/{game}/move");
    let cases: &[(&str, &str)] = &[
        ("illegal quiet move", r#"{"move":"11-16"}"#),
        ("not a capture", r#"{"move":"11x15"}"#),
        ("no such square", r#"{"move":"99-100"}"#),
        ("square zero", r#"{"move":"0-4"}"#),
        ("malformed, no separator", r#"{"move":"1115"}"#),
        ("malformed, mixed", r#"{"move":"11-15x18"}"#),
        ("malformed, three squares", r#"{"move":"11-15-18"}"#),
        ("malformed, listed twice", r#"{"move":"11x18x15x15"}"#),
        ("empty move", r#"{"move":""}"#),
        ("blank move", r#"{"move":"   "}"#),
        ("control character", r#"{"move":"11\u0000-15"}"#),
        ("other digits", "{\"move\":\"١١-١٥\"}"),
        ("star move in draughts", r#"{"move":"e1-e2"}"#),
        ("resign as a move", r#"{"move":"resign"}"#),
        ("pass in draughts", r#"{"move":"pass"}"#),
        ("move not text", r#"{"move":11}"#),
        ("move field misspelt", r#"{"mv":"11-15"}"#),
    ];
    for (case, body) in cases {
        record.request(server, case, "POST", &path, Some(body));
    }
    let long = json!({ "move": "1".repeat(201) }).to_string();
    record.request(server, "move too long", "POST", &path, Some(&long));
    record.request(
        server,
        "nothing to undo",
        "POST",
        &format!("/api/games/{game}/undo"),
        None,
    );
    // Points.
    for (case, from) in [
        ("no such square name", "zz"),
        ("square 33", "33"),
        ("point name too long", "123456789"),
    ] {
        record.request(
            server,
            case,
            "GET",
            &format!("/api/games/{game}/moves?from={from}"),
            None,
        );
    }
    record.request(
        server,
        "moves without from",
        "GET",
        &format!("/api/games/{game}/moves"),
        None,
    );
    record.raw(
        server,
        "from not UTF-8",
        &get(&format!("/api/games/{game}/moves?from=%ff%fe")),
    );
    record.raw(
        server,
        "from twice",
        &get(&format!("/api/games/{game}/moves?from=1&from=2")),
    );
    record.raw(
        server,
        "lang twice",
        &get(&format!("/api/games/{game}/record?lang=es&lang=pt")),
    );
    // Resignations.
    let resign = format!("/api/games/{game}/resign");
    for (case, body) in [
        ("resign p0", r#"{"player":"p0"}"#),
        ("resign p9", r#"{"player":"p9"}"#),
        (
            "resign a huge seat",
            r#"{"player":"p18446744073709551617"}"#,
        ),
        ("resign a name", r#"{"player":"white"}"#),
        ("resign p3 of two", r#"{"player":"p3"}"#),
        ("resign field misspelt", r#"{"who":"p1"}"#),
    ] {
        record.request(server, case, "POST", &resign, Some(body));
    }
    // Seats and clock.
    for (case, seat, body) in [
        ("seat 3 of two", "3", r#"{"kind":"human"}"#),
        ("seat 0", "0", r#"{"kind":"human"}"#),
        (
            "seat past u64",
            "18446744073709551616",
            r#"{"kind":"human"}"#,
        ),
        ("seat not a number", "one", r#"{"kind":"human"}"#),
        ("seat of a bad kind", "1", r#"{"kind":"dog"}"#),
        (
            "seat with a bad level",
            "1",
            r#"{"kind":"engine","level":5}"#,
        ),
        (
            "seat with a bad time",
            "1",
            r#"{"kind":"engine","think_ms":10}"#,
        ),
        ("seat without a kind", "1", r#"{}"#),
    ] {
        record.request(
            server,
            case,
            "PUT",
            &format!("/api/games/{game}/seats/{seat}"),
            Some(body),
        );
    }
    let clock = format!("/api/games/{game}/clock");
    record.request(
        server,
        "clock negative",
        "PUT",
        &clock,
        Some(r#"{"turn_seconds":-1}"#),
    );
    record.request(
        server,
        "clock too long",
        "PUT",
        &clock,
        Some(r#"{"turn_seconds":601}"#),
    );
    record.request(server, "clock empty", "PUT", &clock, Some("{}"));

    // A capture is mandatory; two captures share their ends.
    let forced = id(&server.create(
        r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}],"position":"W:W9,14:B13,18,26"}"#,
    ));
    record.request(
        server,
        "capture mandatory",
        "POST",
        &format!("/api/games/{forced}/move"),
        Some(r#"{"move":"9-13"}"#),
    );
    let chains = id(&server.create(
        r#"{"game":"spanish","position":"W:W14:B18,19,26,27","seats":[{"kind":"human"},{"kind":"human"}]}"#,
    ));
    let path = format!("/api/games/{chains}/move");
    record.request(
        server,
        "ambiguous capture",
        "POST",
        &path,
        Some(r#"{"move":"14x30"}"#),
    );
    record.request(
        server,
        "wrong captures",
        "POST",
        &path,
        Some(r#"{"move":"14x30x18x27"}"#),
    );
    record.request(
        server,
        "capture not legal",
        "POST",
        &path,
        Some(r#"{"move":"14x23"}"#),
    );

    // A game over: no move, no resignation.
    let over = id(&server.create(
        r#"{"game":"spanish","position":"W:W18:B22","seats":[{"kind":"human"},{"kind":"human"}]}"#,
    ));
    server.ok(
        "POST",
        &format!("/api/games/{over}/move"),
        Some(r#"{"move":"18x27"}"#),
        200,
    );
    record.request(
        server,
        "move after the end",
        "POST",
        &format!("/api/games/{over}/move"),
        Some(r#"{"move":"27-31"}"#),
    );
    record.request(
        server,
        "resign after the end",
        "POST",
        &format!("/api/games/{over}/resign"),
        None,
    );
    record.request(
        server,
        "resign a player after the end",
        "POST",
        &format!("/api/games/{over}/resign"),
        Some(r#"{"player":"p2"}"#),
    );
}

/// The refusals of moves in Chinese checkers, and its notices of
/// resignation.
fn chinese_moves(record: &mut Record, server: &Server) {
    let state = server.create(THREE_PEOPLE_STAR);
    let game = id(&state);
    let path = format!("/api/games/{game}/move");
    let cases: &[(&str, &str)] = &[
        ("illegal star move", r#"{"move":"e1-e9"}"#),
        ("star move not a path", r#"{"move":"e1"}"#),
        ("star move bad cell", r#"{"move":"z9-e2"}"#),
        ("star move, draughts squares", r#"{"move":"11-15"}"#),
        ("star move empty", r#"{"move":""}"#),
        ("pass with moves", r#"{"move":"pass"}"#),
    ];
    for (case, body) in cases {
        record.request(server, case, "POST", &path, Some(body));
    }
    record.request(
        server,
        "no such cell name",
        "GET",
        &format!("/api/games/{game}/moves?from=zz"),
        None,
    );
    let resign = format!("/api/games/{game}/resign");
    let state = server.ok("POST", &resign, Some(r#"{"player":"p2"}"#), 200);
    record.notice("p2 resigned", &state);
    record.request(
        server,
        "resign twice",
        "POST",
        &resign,
        Some(r#"{"player":"p2"}"#),
    );
    record.request(
        server,
        "resign p4 of three",
        "POST",
        &resign,
        Some(r#"{"player":"p4"}"#),
    );
    let state = server.ok("POST", &resign, None, 200);
    record.notice("p1 resigned", &state);
    let state = server.ok("POST", &format!("/api/games/{game}/undo"), None, 200);
    record.notice("after undo", &state);

    // The engine's seat.
    let engine = id(&server.create(
        r#"{"game":"chinese","players":3,"seats":[{"kind":"human"},{"kind":"human"},{"kind":"engine","think_ms":5000}]}"#,
    ));
    record.request(
        server,
        "resign the engine's seat",
        "POST",
        &format!("/api/games/{engine}/resign"),
        Some(r#"{"player":"p3"}"#),
    );
    let thinking = id(&server.create(
        r#"{"game":"spanish","seats":[{"kind":"engine","think_ms":5000},{"kind":"human"}]}"#,
    ));
    record.request(
        server,
        "move on the engine's turn",
        "POST",
        &format!("/api/games/{thinking}/move"),
        Some(r#"{"move":"11-15"}"#),
    );
    server.ok("DELETE", &format!("/api/games/{thinking}"), None, 204);
    server.ok("DELETE", &format!("/api/games/{engine}"), None, 204);

    // A fresh game has no notice; the Japanese variant for three none.
    let japanese = server.create(r#"{"game":"japanese","players":3}"#);
    record.notice("a Japanese game", &japanese);
    server.ok(
        "DELETE",
        &format!("/api/games/{}", id(&japanese)),
        None,
        204,
    );
}

/// The refusals of ids, paths and methods.
fn paths(record: &mut Record, server: &Server) {
    let game = id(&server.create(TWO_PEOPLE));
    for (case, path) in [
        ("no such game", "/api/games/0123456789abcdef"),
        ("id not hex", "/api/games/not-an-id"),
        ("id too long", "/api/games/12345678901234567890"),
        ("no such page", "/nowhere"),
        ("no such api", "/api/nothing"),
        ("no such language file", "/i18n/fr.json"),
    ] {
        record.request(server, case, "GET", path, None);
    }
    record.request(
        server,
        "delete no such game",
        "DELETE",
        "/api/games/0123456789abcdef",
        None,
    );
    record.request(
        server,
        "undo no such game",
        "POST",
        "/api/games/0123456789abcdef/undo",
        None,
    );
    record.raw(server, "path not UTF-8", &get("/api/games/%ff%fe"));
    record.raw(server, "one byte not UTF-8", &get("/api/games/%ff"));
    record.raw(
        server,
        "method not allowed",
        format!("PATCH /api/games/{game} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    record.raw(server, "dot-dot path", &get("/../../etc/passwd"));
    let big = vec![b' '; 20_000];
    record.raw(server, "body over the limit", &post("/api/games", &big));
    let mut chunked = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".to_vec();
    chunked.extend_from_slice(b"zz\r\nhello\r\n0\r\n\r\n");
    record.raw(server, "body unreadable", &chunked);
}

/// The notices of a person's timeout, and the refusal of a move while the
/// engine plays it.
fn clock(record: &mut Record, server: &Server) {
    let game = id(&server.create(
        r#"{"game":"chinese","players":2,"turn_seconds":1,"seats":[{"kind":"human"},{"kind":"human"}]}"#,
    ));
    let state = server.wait_for(&game, "the engine playing the turn", |s| {
        s["thinking"] == true || !moves(s).is_empty()
    });
    assert_eq!(
        state["thinking"], true,
        "the timeout's search ended too soon"
    );
    record.request(
        server,
        "move while the engine plays the turn",
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"e4-e5"}"#),
    );
    record.notice("time ran out, thinking", &state);
    let state = server.wait_for(&game, "the timeout move", |s| !moves(s).is_empty());
    record.notice("time ran out, played", &state);
    server.ok("DELETE", &format!("/api/games/{game}"), None, 204);
}

/// The notice of the board's turn limit (`--max-turns 10`).
fn turn_cap(record: &mut Record, server: &Server) {
    let random = r#"{"kind":"engine","level":1,"think_ms":50}"#;
    let game = id(&server.create(&format!(
        r#"{{"game":"chinese","players":2,"rules":{{"MoveLimit":0,"NoProgressLimit":0}},"seats":[{random},{random}]}}"#
    )));
    let state = server.wait_for(&game, "the end", |s| !s["result"].is_null());
    record.notice("turn cap", &state);
    record.request(
        server,
        "move after the turn cap",
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"e1-e2"}"#),
    );
}

/// A request on its own connection with `headers` added: the status, the
/// body as JSON and the value of each cookie set (`name=value`).
fn with_headers(
    server: &Server,
    method: &str,
    path: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> (u16, Value, Vec<String>) {
    let mut all = vec![("Content-Type", "application/json")];
    all.extend_from_slice(headers);
    let reply = raw_request(server, method, path, &all, body);
    let cookies = reply
        .set_cookies()
        .iter()
        .filter_map(|value| value.split(';').next())
        .map(str::to_string)
        .collect();
    let value =
        serde_json::from_str(reply.body()).unwrap_or_else(|_| panic!("not JSON: {:?}", reply.text));
    (reply.status, value, cookies)
}

/// The refusals of groups: names, sizes, the creator's requests, seats
/// without their token, the group's game, another site's page, the
/// client's share (`--max-games-per-client 3`).
fn groups(record: &mut Record, server: &Server) {
    let mut error = |case: &str, (status, body, _): (u16, Value, Vec<String>)| {
        record.error(case, (status, body));
    };
    let post = |path: &str, body: &str, cookie: &str| {
        let headers: &[(&str, &str)] = if cookie.is_empty() {
            &[]
        } else {
            &[("Cookie", cookie)]
        };
        with_headers(server, "POST", path, body, headers)
    };
    error(
        "group: empty name",
        post(
            "/api/groups",
            r#"{"name":" ","settings":{"game":"chinese"}}"#,
            "",
        ),
    );
    error(
        "group: seven players",
        post(
            "/api/groups",
            r#"{"name":"Ana","settings":{"game":"chinese","engines":[{},{},{},{},{},{}]}}"#,
            "",
        ),
    );
    error(
        "group: no such group",
        with_headers(server, "GET", "/api/groups/0123456789abcdef", "", &[]),
    );
    let (status, created, cookies) = post(
        "/api/groups",
        r#"{"name":"Ana","settings":{"game":"spanish"}}"#,
        "",
    );
    assert_eq!(status, 201, "{created}");
    let creator = cookies.join("; ");
    let base = format!("/api/groups/{}", created["id"].as_str().expect("an id"));
    error(
        "group: start alone",
        post(&format!("{base}/next"), "", &creator),
    );
    let (status, _, _) = post(&format!("{base}/join"), r#"{"name":"Bea"}"#, "");
    assert_eq!(status, 201);
    error(
        "group: join a full group",
        post(&format!("{base}/join"), r#"{"name":"Cai"}"#, ""),
    );
    error(
        "group: next by another",
        post(&format!("{base}/next"), "", ""),
    );
    let (status, started, _) = post(&format!("{base}/next"), "", &creator);
    assert_eq!(status, 201, "{started}");
    let game = started["game"].as_str().expect("a game").to_string();
    error(
        "group: a move without the seat's token",
        post(
            &format!("/api/games/{game}/move"),
            r#"{"move":"11-15"}"#,
            "",
        ),
    );
    error(
        "group: settings during a game",
        with_headers(
            server,
            "PUT",
            &format!("{base}/settings"),
            r#"{"game":"spanish"}"#,
            &[("Cookie", &creator)],
        ),
    );
    error(
        "group: the game's clock",
        with_headers(
            server,
            "PUT",
            &format!("/api/games/{game}/clock"),
            r#"{"turn_seconds":30}"#,
            &[("Cookie", &creator)],
        ),
    );
    error(
        "group: another site's page",
        with_headers(
            server,
            "POST",
            &format!("{base}/join"),
            r#"{"name":"Eve"}"#,
            &[("Origin", "http://evil.example")],
        ),
    );
    for _ in 0..2 {
        let (status, _, _) = post(
            "/api/groups",
            r#"{"name":"Ana","settings":{"game":"chinese"}}"#,
            "",
        );
        assert_eq!(status, 201);
    }
    error(
        "group: the client's share",
        post(
            "/api/groups",
            r#"{"name":"Ana","settings":{"game":"chinese"}}"#,
            "",
        ),
    );
    error(
        "group: a seat freed by another",
        post(&format!("{base}/members/2/free"), "", ""),
    );
    error(
        "group: the seat of a member present freed",
        post(&format!("{base}/members/2/free"), "", &creator),
    );
    error(
        "group: no such member's seat freed",
        post(&format!("{base}/members/3/free"), "", &creator),
    );
}

/// Every answer, in order, from servers started for the cases.
fn answers() -> Vec<Value> {
    let mut record = Record::default();
    {
        let server = Server::start(&["--max-turns", "10"]);
        creation(&mut record, &server);
        spanish_moves(&mut record, &server);
        chinese_moves(&mut record, &server);
        paths(&mut record, &server);
        clock(&mut record, &server);
        turn_cap(&mut record, &server);
    }
    {
        let server = Server::start(&["--max-games", "1"]);
        server.create(TWO_PEOPLE);
        record.request(
            &server,
            "server full",
            "POST",
            "/api/games",
            Some(TWO_PEOPLE),
        );
    }
    {
        let server = Server::start(&["--max-games-per-client", "1"]);
        server.create(TWO_PEOPLE);
        record.request(
            &server,
            "client full",
            "POST",
            "/api/games",
            Some(TWO_PEOPLE),
        );
    }
    {
        let server = Server::start(&["--max-connections", "2", "--read-timeout-ms", "1000"]);
        record.raw(
            &server,
            "body late",
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"game\"",
        );
        let _held: Vec<TcpStream> = (0..2)
            .map(|_| open_raw(&server, b"GET / HTTP/1.1\r\n"))
            .collect();
        let start = Instant::now();
        // Every held connection is counted before the next one comes.
        std::thread::sleep(Duration::from_millis(200));
        record.raw(&server, "server busy", &get("/api/games/options"));
        assert!(
            start.elapsed() < Duration::from_millis(1000),
            "held too long"
        );
    }
    {
        let server = Server::start(&["--max-games-per-client", "3"]);
        groups(&mut record, &server);
    }
    record.entries
}

#[test]
fn every_error_and_notice_answers_as_recorded() {
    let found = answers();
    let text = serde_json::to_string_pretty(&found).expect("JSON") + "\n";
    if std::env::var_os("DAMAS_WRITE_GOLDEN").is_some() {
        std::fs::write(GOLDEN, &text).expect("the golden file is written");
        return;
    }
    let golden = std::fs::read_to_string(GOLDEN).expect("tests/data/serve_errors.json");
    let expected: Vec<Value> = serde_json::from_str(&golden).expect("the golden file is JSON");
    for (index, (found, expected)) in found.iter().zip(&expected).enumerate() {
        assert_eq!(found, expected, "answer {index} differs");
    }
    assert_eq!(found.len(), expected.len(), "the number of answers");
}
