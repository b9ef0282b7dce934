//! Groups on the web board (`damas serve`): people playing together from
//! several devices, each holding its seats' tokens as cookies. Raw HTTP
//! requests carry the cookies by hand, one cookie jar per device.

#[path = "support/web_server.rs"]
mod web_server;

#[path = "support/devices.rs"]
mod devices;

use devices::{legal_move, str_of};
use serde_json::{json, Value};
use web_server::{raw_request, Server};

/// An answer: the status, the body as JSON and the cookies set.
struct Reply {
    status: u16,
    body: Value,
    set_cookies: Vec<String>,
    text: String,
}

/// One request on its own connection, with `headers` added.
fn send(
    server: &Server,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> Reply {
    let body = body.unwrap_or("");
    let mut all = headers.to_vec();
    if !body.is_empty() {
        all.insert(0, ("Content-Type", "application/json"));
    }
    let reply = raw_request(server, method, path, &all, body);
    Reply {
        status: reply.status,
        body: reply.json_or_text(),
        set_cookies: reply.set_cookies(),
        text: reply.text,
    }
}

/// A device: its cookie jar.
#[derive(Default)]
struct Device {
    cookies: Vec<(String, String)>,
}

impl Device {
    fn call(&mut self, server: &Server, method: &str, path: &str, body: Option<&str>) -> Reply {
        let jar: Vec<String> = self
            .cookies
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        let jar = jar.join("; ");
        let headers: Vec<(&str, &str)> = if jar.is_empty() {
            Vec::new()
        } else {
            vec![("Cookie", jar.as_str())]
        };
        let reply = send(server, method, path, body, &headers);
        for cookie in &reply.set_cookies {
            let pair = cookie.split(';').next().expect("a pair");
            let (name, value) = pair.split_once('=').expect("name=value");
            self.cookies.retain(|(n, _)| n != name);
            self.cookies.push((name.to_string(), value.to_string()));
        }
        reply
    }

    /// A request that must answer `status`; the body.
    fn ok(
        &mut self,
        server: &Server,
        method: &str,
        path: &str,
        body: Option<&str>,
        status: u16,
    ) -> Value {
        let reply = self.call(server, method, path, body);
        assert_eq!(reply.status, status, "{method} {path}: {}", reply.text);
        reply.body
    }

    fn tokens(&self) -> Vec<String> {
        self.cookies
            .iter()
            .map(|(_, value)| value.clone())
            .collect()
    }
}

/// A refusal: its status and code.
fn refused(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.text);
    assert_eq!(reply.body["code"], code, "{}", reply.text);
}

fn to_move(server: &Server, game: &str) -> Option<u64> {
    server.ok("GET", &format!("/api/games/{game}"), None, 200)["to_move"].as_u64()
}

fn move_body(text: &str) -> String {
    json!({ "move": text }).to_string()
}

#[test]
fn three_devices_play_a_group_game_each_with_its_own_seat() {
    let server = Server::start(&[]);
    let (mut ana, mut bea, mut cai, mut stranger) = (
        Device::default(),
        Device::default(),
        Device::default(),
        Device::default(),
    );
    let created = ana.call(
        &server,
        "POST",
        "/api/groups",
        Some(r#"{"name":"  Ana ","settings":{"game":"chinese","turn_seconds":0}}"#),
    );
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(created.set_cookies.len(), 1);
    let cookie = &created.set_cookies[0];
    for part in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(cookie.contains(part), "{cookie}");
    }
    let group = str_of(&created.body["id"]);
    let link = str_of(&created.body["link"]);
    assert_eq!(link, format!("/j/{group}"));
    assert_eq!(created.body["members"][0]["name"], "Ana");
    assert_eq!(created.body["you"], json!([1]));
    // The invitation link opens the page.
    let page = send(&server, "GET", &link, None, &[]);
    assert_eq!(page.status, 200);
    assert!(page.text.contains("<html"));

    let base = format!("/api/groups/{group}");
    let joined = bea.ok(
        &server,
        "POST",
        &format!("{base}/join"),
        Some(r#"{"name":"Bea"}"#),
        201,
    );
    assert_eq!(joined["you"], json!([2]));
    cai.ok(
        &server,
        "POST",
        &format!("{base}/join"),
        Some(r#"{"name":"Cai"}"#),
        201,
    );
    let seen = stranger.ok(&server, "GET", &base, None, 200);
    assert_eq!(seen["members"].as_array().expect("members").len(), 3);
    assert_eq!(seen["you"], json!([]));
    assert_eq!(seen["game"], Value::Null);

    // Only the creator starts the game.
    refused(
        &bea.call(&server, "POST", &format!("{base}/next"), None),
        403,
        "not_the_creator",
    );
    let started = ana.ok(&server, "POST", &format!("{base}/next"), None, 201);
    let game = str_of(&started["game"]);
    assert_eq!(started["game_state"]["players"], 3);
    let seats: Vec<Value> = started["members"]
        .as_array()
        .expect("members")
        .iter()
        .map(|m| m["seat"].clone())
        .collect();
    assert_eq!(seats, vec![json!(1), json!(2), json!(3)]);
    assert_eq!(started["game_state"]["group"]["seats"][1]["name"], "Bea");

    let play = format!("/api/games/{game}/move");
    let mut devices = [ana, bea, cai];
    for _ in 0..6 {
        let seat = to_move(&server, &game).expect("a player to move") as usize;
        let text = legal_move(&server, &game);
        // Every other device, and none, is refused that seat.
        let other = (seat + 1) % 3;
        let reply = devices[other].call(&server, "POST", &play, Some(&move_body(&text)));
        refused(&reply, 403, "seat_not_yours");
        assert_eq!(reply.body["params"]["player"], seat);
        refused(
            &stranger.call(&server, "POST", &play, Some(&move_body(&text))),
            403,
            "seat_not_yours",
        );
        devices[seat].ok(&server, "POST", &play, Some(&move_body(&text)), 200);
    }
    // A token under another member's name is no token.
    let [ana, bea, cai] = &mut devices;
    let mut forger = Device {
        cookies: vec![(format!("damas_seat_{group}_1"), bea.tokens()[0].clone())],
    };
    let seat = to_move(&server, &game).expect("to move");
    assert_eq!(seat, 0, "six turns of three players: Ana's turn");
    refused(
        &forger.call(
            &server,
            "POST",
            &play,
            Some(&move_body(&legal_move(&server, &game))),
        ),
        403,
        "seat_not_yours",
    );
    // Undo, resign and handing a seat over check the seat's token too.
    refused(
        &ana.call(&server, "POST", &format!("/api/games/{game}/undo"), None),
        403,
        "seat_not_yours",
    );
    cai.ok(
        &server,
        "POST",
        &format!("/api/games/{game}/undo"),
        None,
        200,
    );
    refused(
        &bea.call(
            &server,
            "POST",
            &format!("/api/games/{game}/resign"),
            Some(r#"{"player":"p3"}"#),
        ),
        403,
        "seat_not_yours",
    );
    refused(
        &bea.call(
            &server,
            "PUT",
            &format!("/api/games/{game}/seats/1"),
            Some(r#"{"kind":"engine"}"#),
        ),
        403,
        "seat_not_yours",
    );
    bea.ok(
        &server,
        "PUT",
        &format!("/api/games/{game}/seats/2"),
        Some(r#"{"kind":"engine","level":1,"think_ms":50}"#),
        200,
    );
    bea.ok(
        &server,
        "PUT",
        &format!("/api/games/{game}/seats/2"),
        Some(r#"{"kind":"human"}"#),
        200,
    );
    // The game's own next game, clock and removal are the group's.
    for (method, path, body) in [
        ("POST", format!("/api/games/{game}/new"), None),
        (
            "PUT",
            format!("/api/games/{game}/clock"),
            Some(r#"{"turn_seconds":30}"#),
        ),
        ("DELETE", format!("/api/games/{game}"), None),
    ] {
        refused(&ana.call(&server, method, &path, body), 403, "group_game");
    }
    // Settings: the creator's, between games only.
    let settings = r#"{"game":"chinese","turn_seconds":30}"#;
    refused(
        &bea.call(&server, "PUT", &format!("{base}/settings"), Some(settings)),
        403,
        "not_the_creator",
    );
    refused(
        &ana.call(&server, "PUT", &format!("{base}/settings"), Some(settings)),
        409,
        "between_games_only",
    );
    refused(
        &ana.call(&server, "POST", &format!("{base}/next"), None),
        409,
        "between_games_only",
    );
    // Nothing anyone is sent carries a token.
    let mut tokens = ana.tokens();
    tokens.extend(bea.tokens());
    tokens.extend(cai.tokens());
    assert_eq!(tokens.len(), 3);
    for path in [
        base.clone(),
        format!("/api/games/{game}"),
        format!("/api/games/{game}/record"),
        link.clone(),
    ] {
        for device in [&mut *ana, &mut *bea, &mut stranger] {
            let reply = device.call(&server, "GET", &path, None);
            assert_eq!(reply.status, 200, "{path}");
            for token in &tokens {
                assert!(!reply.text.contains(token.as_str()), "{path} holds a token");
                assert!(!link.contains(token.as_str()));
            }
        }
    }
    let mine = ana.ok(&server, "GET", &base, None, 200);
    assert_eq!(mine["you"], json!([1]));
}

#[test]
fn the_next_game_rotates_the_first_turn_and_the_standings_count_wins_and_draws() {
    // A draughts game reaches the board's turn limit of 10 as a draw.
    let server = Server::start(&["--max-turns", "10"]);
    let (mut ana, mut bea) = (Device::default(), Device::default());
    let created = ana.ok(
        &server,
        "POST",
        "/api/groups",
        Some(r#"{"name":"Ana","settings":{"game":"spanish"}}"#),
        201,
    );
    let base = format!("/api/groups/{}", str_of(&created["id"]));
    bea.ok(
        &server,
        "POST",
        &format!("{base}/join"),
        Some(r#"{"name":"Bea"}"#),
        201,
    );
    // A third person does not fit a draughts game.
    refused(
        &Device::default().call(
            &server,
            "POST",
            &format!("{base}/join"),
            Some(r#"{"name":"Cai"}"#),
        ),
        409,
        "group_full",
    );

    // Game 1: Ana is White and opens; she resigns, Bea wins.
    let first = ana.ok(&server, "POST", &format!("{base}/next"), None, 201);
    let game = str_of(&first["game"]);
    assert_eq!(first["members"][0]["seat"], 1);
    assert_eq!(first["game_state"]["to_move"], 0);
    refused(
        &bea.call(
            &server,
            "POST",
            &format!("/api/games/{game}/resign"),
            Some("{}"),
        ),
        403,
        "seat_not_yours",
    );
    ana.ok(
        &server,
        "POST",
        &format!("/api/games/{game}/resign"),
        Some("{}"),
        200,
    );
    let after = bea.ok(&server, "GET", &base, None, 200);
    assert_eq!(after["between_games"], true);
    assert_eq!(after["standings"][0]["name"], "Bea");
    assert_eq!(after["standings"][0]["points"], 1.0);
    assert_eq!(after["standings"][1]["points"], 0.0);

    // Between games the creator changes the settings.
    let changed = ana.ok(
        &server,
        "PUT",
        &format!("{base}/settings"),
        Some(r#"{"game":"spanish","turn_seconds":60,"show_legal_moves":false}"#),
        200,
    );
    assert_eq!(changed["settings"]["turn_seconds"], 60);
    assert_eq!(changed["settings"]["show_legal_moves"], false);

    // Game 2: the first turn rotates: Bea is White now.
    let second = ana.ok(&server, "POST", &format!("{base}/next"), None, 201);
    let game = str_of(&second["game"]);
    assert_eq!(second["members"][0]["seat"], 2);
    assert_eq!(second["members"][1]["seat"], 1);
    assert_eq!(second["game_state"]["settings"]["turn_seconds"], 60);
    assert_eq!(second["game_state"]["game_number"], 1);
    // The last game is gone.
    assert_eq!(
        server
            .request(
                "GET",
                &format!("/api/games/{}", str_of(&first["game"])),
                None
            )
            .0,
        404
    );
    let play = format!("/api/games/{game}/move");
    let mut devices = [bea, ana];
    for _ in 0..10 {
        let seat = to_move(&server, &game).expect("a player to move") as usize;
        let text = legal_move(&server, &game);
        refused(
            &devices[1 - seat].call(&server, "POST", &play, Some(&move_body(&text))),
            403,
            "seat_not_yours",
        );
        devices[seat].ok(&server, "POST", &play, Some(&move_body(&text)), 200);
    }
    let [bea, ana] = &mut devices;
    let drawn = ana.ok(&server, "GET", &base, None, 200);
    assert_eq!(drawn["game_state"]["result"]["draw"], true, "{drawn}");
    assert_eq!(drawn["standings"][0]["name"], "Bea");
    assert_eq!(drawn["standings"][0]["points"], 1.5);
    assert_eq!(drawn["standings"][0]["games"], 2);
    assert_eq!(drawn["standings"][1]["points"], 0.5);
    // Read again, a game is counted once.
    let again = bea.ok(&server, "GET", &base, None, 200);
    assert_eq!(again["standings"], drawn["standings"]);

    // Game 3: back to Ana opening.
    let third = ana.ok(&server, "POST", &format!("{base}/next"), None, 201);
    assert_eq!(third["members"][0]["seat"], 1);
    assert_eq!(third["games_played"], 3);
}

#[test]
fn the_engine_fills_the_seats_the_creator_chooses() {
    let server = Server::start(&[]);
    let mut ana = Device::default();
    let created = ana.ok(
        &server,
        "POST",
        "/api/groups",
        Some(
            r#"{"name":"Ana","settings":{"game":"chinese","engines":[{"level":1,"think_ms":50}]}}"#,
        ),
        201,
    );
    assert_eq!(created["players"], 2);
    let base = format!("/api/groups/{}", str_of(&created["id"]));
    let started = ana.ok(&server, "POST", &format!("{base}/next"), None, 201);
    let game = str_of(&started["game"]);
    assert_eq!(started["game_state"]["seats"][1]["kind"], "engine");
    assert_eq!(started["game_state"]["group"]["seats"][1], Value::Null);
    let text = legal_move(&server, &game);
    ana.ok(
        &server,
        "POST",
        &format!("/api/games/{game}/move"),
        Some(&move_body(&text)),
        200,
    );
    server.wait_for(&game, "the engine's answer", |s| {
        s["moves"].as_array().is_some_and(|m| m.len() >= 2)
    });
}

#[test]
fn bad_names_full_groups_and_other_sites_are_refused() {
    let server = Server::start(&["--max-games-per-client", "3"]);
    let mut ana = Device::default();
    for name in [
        json!(""),
        json!("   "),
        json!("a".repeat(25)),
        json!("a".repeat(5000)),
        json!("Ana\u{7}"),
        json!("line\nbreak"),
    ] {
        let body = json!({ "name": name, "settings": { "game": "chinese" } }).to_string();
        refused(
            &ana.call(&server, "POST", "/api/groups", Some(&body)),
            400,
            "bad_name",
        );
    }
    refused(
        &ana.call(
            &server,
            "POST",
            "/api/groups",
            Some(r#"{"name":"Ana","settings":{"game":"chess"}}"#),
        ),
        400,
        "bad_game",
    );
    refused(
        &ana.call(
            &server,
            "POST",
            "/api/groups",
            Some(r#"{"name":"Ana","token":"x","settings":{"game":"chinese"}}"#),
        ),
        400,
        "bad_body",
    );
    // Six players at most, people and engines.
    let engines =
        json!([{"level":1}, {"level":1}, {"level":1}, {"level":1}, {"level":1}, {"level":1}]);
    let body = json!({ "name": "Ana", "settings": { "game": "chinese", "engines": engines } });
    refused(
        &ana.call(&server, "POST", "/api/groups", Some(&body.to_string())),
        409,
        "group_players",
    );
    let engines = json!([{"level":1}, {"level":1}, {"level":1}, {"level":1}, {"level":1}]);
    let body = json!({ "name": "Ana", "settings": { "game": "chinese", "engines": engines } });
    let full = ana.ok(&server, "POST", "/api/groups", Some(&body.to_string()), 201);
    let full_base = format!("/api/groups/{}", str_of(&full["id"]));
    let reply = Device::default().call(
        &server,
        "POST",
        &format!("{full_base}/join"),
        Some(r#"{"name":"Bea"}"#),
    );
    refused(&reply, 409, "group_full");
    assert_eq!(reply.body["params"]["players"], "6");
    // One person alone is no group's game.
    let alone = ana.ok(
        &server,
        "POST",
        "/api/groups",
        Some(r#"{"name":"Ana","settings":{"game":"chinese"}}"#),
        201,
    );
    let alone_base = format!("/api/groups/{}", str_of(&alone["id"]));
    refused(
        &ana.call(&server, "POST", &format!("{alone_base}/next"), None),
        409,
        "group_players",
    );
    // A bad name to join; no such group.
    refused(
        &Device::default().call(
            &server,
            "POST",
            &format!("{alone_base}/join"),
            Some(r#"{"name":""}"#),
        ),
        400,
        "bad_name",
    );
    for path in ["/api/groups/0123456789abcdef", "/api/groups/not-an-id"] {
        refused(&ana.call(&server, "GET", path, None), 404, "no_group");
    }
    // The client's share of groups.
    ana.ok(
        &server,
        "POST",
        "/api/groups",
        Some(r#"{"name":"Ana","settings":{"game":"chinese"}}"#),
        201,
    );
    refused(
        &ana.call(
            &server,
            "POST",
            "/api/groups",
            Some(r#"{"name":"Ana","settings":{"game":"chinese"}}"#),
        ),
        429,
        "too_many_groups",
    );
    // Another site's page may not change anything; this one's may.
    let body = r#"{"name":"Bea"}"#;
    let join = format!("{alone_base}/join");
    for origin in ["http://evil.example", "null"] {
        refused(
            &send(&server, "POST", &join, Some(body), &[("Origin", origin)]),
            403,
            "cross_origin",
        );
        refused(
            &send(
                &server,
                "POST",
                "/api/games",
                Some(r#"{"game":"spanish"}"#),
                &[("Origin", origin)],
            ),
            403,
            "cross_origin",
        );
    }
    let own = format!("http://{}", server.address());
    let reply = send(&server, "POST", &join, Some(body), &[("Origin", &own)]);
    assert_eq!(reply.status, 201, "{}", reply.text);
    let reading = send(
        &server,
        "GET",
        &alone_base,
        None,
        &[("Origin", "http://evil.example")],
    );
    assert_eq!(reading.status, 200);
}

#[test]
fn a_record_names_the_members_and_an_idle_group_expires() {
    let server = Server::start(&["--idle-secs", "1", "--group-idle-secs", "1"]);
    let (mut ana, mut bea) = (Device::default(), Device::default());
    let created = ana.ok(
        &server,
        "POST",
        "/api/groups",
        Some(r#"{"name":"Ana María","settings":{"game":"spanish"}}"#),
        201,
    );
    let base = format!("/api/groups/{}", str_of(&created["id"]));
    bea.ok(
        &server,
        "POST",
        &format!("{base}/join"),
        Some(r#"{"name":"Bea"}"#),
        201,
    );
    let started = ana.ok(&server, "POST", &format!("{base}/next"), None, 201);
    let game = str_of(&started["game"]);
    let record = ana.call(&server, "GET", &format!("/api/games/{game}/record"), None);
    assert!(
        record.text.contains("[White \"Ana María\"]"),
        "{}",
        record.text
    );
    assert!(record.text.contains("[Black \"Bea\"]"), "{}", record.text);
    // Nobody asks for either for a second: both are gone.
    std::thread::sleep(std::time::Duration::from_millis(1600));
    refused(&ana.call(&server, "GET", &base, None), 404, "no_group");
}

#[test]
fn single_device_games_stay_as_they_were() {
    let server = Server::start(&[]);
    let state = server.create(r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}]}"#);
    assert!(state.get("group").is_none());
    let game = str_of(&state["id"]);
    let text = legal_move(&server, &game);
    server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(&move_body(&text)),
        200,
    );
    server.ok("POST", &format!("/api/games/{game}/undo"), None, 200);
    server.ok("POST", &format!("/api/games/{game}/new"), None, 200);
    server.ok("DELETE", &format!("/api/games/{game}"), None, 204);
}
