//! The web board's languages and the sentences it sends, against the real
//! binary: the page in the language of `Accept-Language` or of the
//! switch's cookie, the texts files, errors and notices with their codes,
//! the records' names in a language, the seat history and date of a
//! record, the think-time cap that clamps, undo with no person at the
//! board and the start line.

#[path = "support/web_server.rs"]
mod web_server;

use serde_json::Value;
use web_server::{id, moves, Server};

/// A raw GET with extra headers: the status and the body.
fn get(server: &Server, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut request = agent.get(format!("{}{path}", server.url));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let mut response = request.call().expect("the server answers");
    let status = response.status().as_u16();
    (
        status,
        response.body_mut().read_to_string().expect("a text"),
    )
}

/// The first legal move of the player to move, as the page would find it.
fn first_move(server: &Server, state: &Value) -> String {
    let game = id(state);
    let from = state["movable"][0].as_str().expect("a movable piece");
    let moves = server.ok(
        "GET",
        &format!("/api/games/{game}/moves?from={from}"),
        None,
        200,
    );
    moves[0]["text"].as_str().expect("a move").to_string()
}

#[test]
fn the_page_speaks_the_browser_language_or_the_chosen_one() {
    let server = Server::start(&[]);
    let lang_of = |headers: &[(&str, &str)]| {
        let (status, page) = get(&server, "/", headers);
        assert_eq!(status, 200);
        let start = page.find("<html lang=\"").expect("an html tag") + 12;
        page[start..start + 2].to_string()
    };
    assert_eq!(lang_of(&[]), "en");
    assert_eq!(
        lang_of(&[("Accept-Language", "es-AR,es;q=0.9,en;q=0.5")]),
        "es"
    );
    assert_eq!(lang_of(&[("Accept-Language", "fr, pt-BR;q=0.8")]), "pt");
    assert_eq!(lang_of(&[("Accept-Language", "de, en;q=0.3")]), "en");
    assert_eq!(
        lang_of(&[("Accept-Language", "es"), ("Cookie", "damas_lang=pt")]),
        "pt"
    );
    let (status, texts) = get(&server, "/i18n/es.json", &[]);
    assert_eq!(status, 200);
    let texts: Value = serde_json::from_str(&texts).expect("JSON");
    assert_eq!(texts["toggle.legal"], "Mostrar jugadas legales");
    let (status, _) = get(&server, "/i18n/fr.json", &[]);
    assert_eq!(status, 404);
    for script in ["/i18n.js", "/moves.js", "/setup.js", "/app.js"] {
        assert_eq!(get(&server, script, &[]).0, 200, "{script}");
    }
}

#[test]
fn errors_and_notices_carry_a_code_and_the_seat() {
    let server = Server::start(&[]);
    // A capture is mandatory: 9-13 is refused with its code.
    let state = server.create(
        r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}],"position":"W:W9,14:B13,18,26"}"#,
    );
    let game = id(&state);
    let (status, error) = server.request(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"9-13"}"#),
    );
    assert_eq!(status, 400);
    assert_eq!(error["code"], "capture_mandatory", "{error}");
    assert_eq!(error["params"]["move"], "9-13");
    assert!(error["error"].as_str().unwrap().contains("mandatory"));
    let (_, error) = server.request("GET", "/api/games/00000000000000ab", None);
    assert_eq!(error["code"], "no_game");
    // An engine's seat: the player is its index, for the page's names.
    let state = server.create(
        r#"{"game":"chinese","players":3,"seats":[{"kind":"human"},{"kind":"human"},{"kind":"engine","think_ms":50}]}"#,
    );
    let game = id(&state);
    let (status, error) = server.request(
        "POST",
        &format!("/api/games/{game}/resign"),
        Some(r#"{"player":"p3"}"#),
    );
    assert_eq!(status, 409);
    assert_eq!(error["code"], "engine_seat_resign", "{error}");
    assert_eq!(error["params"]["player"], 2);
    let state = server.ok(
        "POST",
        &format!("/api/games/{game}/resign"),
        Some("{}"),
        200,
    );
    assert_eq!(state["notice"], "p1 resigned");
    assert_eq!(state["notice_code"], "resigned");
    assert_eq!(state["notice_params"]["player"], 0);
    assert_eq!(state["standings"][0]["state"], "resigned");
    assert_eq!(state["standings"][0]["place"], 3);
    assert_eq!(state["standings"][1]["state"], "playing");
    // A finished game says why by a code.
    let state = server.create(
        r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}],"position":"W:W18:B22"}"#,
    );
    let state = server.ok(
        "POST",
        &format!("/api/games/{}/move", id(&state)),
        Some(r#"{"move":"18x27"}"#),
        200,
    );
    assert_eq!(state["result"]["reason_code"], "no_pieces");
    assert_eq!(state["standings"][0]["state"], "won");
    assert_eq!(state["standings"][1]["state"], "lost");
}

#[test]
fn records_name_who_played_each_seat_in_the_language_asked() {
    let server = Server::start(&[]);
    let state = server
        .create(r#"{"game":"chinese","players":2,"seats":[{"kind":"human"},{"kind":"human"}]}"#);
    let game = id(&state);
    for _ in 0..2 {
        let state = server.ok("GET", &format!("/api/games/{game}"), None, 200);
        let mv = first_move(&server, &state);
        let body = serde_json::json!({ "move": mv }).to_string();
        server.ok("POST", &format!("/api/games/{game}/move"), Some(&body), 200);
    }
    server.ok(
        "PUT",
        &format!("/api/games/{game}/seats/1"),
        Some(r#"{"kind":"engine","level":2,"think_ms":50}"#),
        200,
    );
    server.wait_for(&game, "the engine's turn", |s| moves(s).len() >= 3);
    let (status, english) = get(&server, &format!("/api/games/{game}/record"), &[]);
    assert_eq!(status, 200);
    assert!(
        english.contains("engines=person until turn 2 then damas level 2 50 ms,person\t"),
        "{english}"
    );
    let (_, spanish) = get(&server, &format!("/api/games/{game}/record?lang=es"), &[]);
    assert!(
        spanish
            .contains("engines=persona hasta el turno 2 y después damas nivel 2 50 ms,persona\t"),
        "{spanish}"
    );
    let (_, portuguese) = get(
        &server,
        &format!("/api/games/{game}/record"),
        &[("Cookie", "damas_lang=pt")],
    );
    assert!(
        portuguese.contains("engines=pessoa até o turno 2"),
        "{portuguese}"
    );
    // A PDN carries the day it was played, and its ending in words.
    let state = server.create(
        r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}],"position":"W:W18:B22"}"#,
    );
    let game = id(&state);
    server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"18x27"}"#),
        200,
    );
    let (_, pdn) = get(&server, &format!("/api/games/{game}/record?lang=es"), &[]);
    let date = pdn
        .lines()
        .find_map(|line| line.strip_prefix("[Date \""))
        .expect("a Date tag");
    let digits: Vec<&str> = date.trim_end_matches("\"]").split('.').collect();
    assert_eq!(digits.len(), 3, "{pdn}");
    assert!(digits[0].len() == 4 && digits[0] >= "2025", "{pdn}");
    assert!(pdn.contains("[White \"persona\"]"), "{pdn}");
    assert!(
        pdn.contains("[Termination \"el perdedor se quedó sin piezas\"]"),
        "{pdn}"
    );
}

#[test]
fn a_seat_changed_back_before_it_played_leaves_no_history() {
    let server = Server::start(&[]);
    let state = server
        .create(r#"{"game":"chinese","players":2,"seats":[{"kind":"human"},{"kind":"human"}]}"#);
    let game = id(&state);
    let body = serde_json::json!({ "move": first_move(&server, &state) }).to_string();
    server.ok("POST", &format!("/api/games/{game}/move"), Some(&body), 200);
    // p1 is not to move: its seat changes hands many times at one turn.
    for _ in 0..50 {
        for kind in ["engine", "human"] {
            let seat = format!(r#"{{"kind":"{kind}","level":2,"think_ms":50}}"#);
            server.ok(
                "PUT",
                &format!("/api/games/{game}/seats/1"),
                Some(&seat),
                200,
            );
        }
    }
    let (_, record) = get(&server, &format!("/api/games/{game}/record"), &[]);
    assert!(record.contains("\tengines=person,person\t"), "{record}");
}

#[test]
fn a_think_time_past_the_cap_is_the_cap() {
    let server = Server::start(&["--max-think-ms", "300"]);
    let options = server.ok("GET", "/api/games/options", None, 200);
    assert_eq!(options["max_think_ms"], 300);
    // The defaults (the engine at 1000 ms) start, capped.
    let state = server.create(r#"{"game":"spanish"}"#);
    assert_eq!(state["seats"][1]["think_ms"], 300);
    let state = server.create(
        r#"{"game":"spanish","seats":[{"kind":"human","think_ms":1},{"kind":"engine","think_ms":3000}]}"#,
    );
    assert_eq!(state["seats"][0]["think_ms"], 50);
    assert_eq!(state["seats"][1]["think_ms"], 300);
    // A time no server allows is still refused.
    let (status, error) = server.request(
        "POST",
        "/api/games",
        Some(r#"{"game":"spanish","seats":[{"kind":"engine","think_ms":1},{"kind":"human"}]}"#),
    );
    assert_eq!(status, 400);
    assert_eq!(error["code"], "bad_think_ms");
}

#[test]
fn undo_with_no_person_takes_back_one_turn() {
    let server = Server::start(&[]);
    let state = server.create(
        r#"{"game":"chinese","players":3,"seats":[{"kind":"human"},{"kind":"engine","think_ms":50},{"kind":"engine","think_ms":50}]}"#,
    );
    let game = id(&state);
    let state = server.ok("GET", &format!("/api/games/{game}"), None, 200);
    let body = serde_json::json!({ "move": first_move(&server, &state) }).to_string();
    server.ok("POST", &format!("/api/games/{game}/move"), Some(&body), 200);
    // The person hands the seat over: only engines are left.
    server.ok(
        "PUT",
        &format!("/api/games/{game}/seats/1"),
        Some(r#"{"kind":"engine","think_ms":50}"#),
        200,
    );
    let before = server.wait_for(&game, "a dozen turns", |s| moves(s).len() >= 12);
    let undone = server.ok("POST", &format!("/api/games/{game}/undo"), None, 200);
    let (before, after) = (moves(&before).len(), moves(&undone).len());
    assert!(
        after + 1 >= before && after >= 11,
        "{before} turns, {after} after the undo"
    );
}

#[test]
fn the_start_line_counts_its_workers() {
    let one = Server::start_with(&["--workers", "1", "--hash", "4"]);
    assert!(one.banner.contains("(1 engine worker, "), "{}", one.banner);
    let two = Server::start_with(&["--workers", "2", "--hash", "4"]);
    assert!(two.banner.contains("(2 engine workers, "), "{}", two.banner);
}
