//! The web board's API for a board of any game: the games and rule options
//! the setup form offers, rule options by name, the board's size and rows,
//! a capture chain's whole path and a duel's standings, against the real
//! binary.

#[path = "support/web_server.rs"]
mod web_server;

use web_server::{id, moves, Server};

#[test]
fn the_setup_form_reads_the_games_and_rule_options_from_the_server() {
    let server = Server::start(&[]);
    let setup = server.ok("GET", "/api/games/options", None, 200);
    let games = setup["games"].as_array().expect("a game list");
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["spanish", "chinese", "japanese"]);
    assert_eq!(games[0]["title"], "Spanish draughts");
    assert_eq!(
        games[0]["players"],
        serde_json::json!({"min": 2, "max": 2, "default": 2})
    );
    assert_eq!(
        games[0]["player_names"],
        serde_json::json!(["White", "Black"])
    );
    // Draughts offers its variant, every playable one, as a select.
    assert_eq!(games[0]["rules"], serde_json::json!(["Variant"]));
    assert_eq!(games[1]["players"]["max"], 6);
    assert_eq!(games[1]["player_names"].as_array().unwrap().len(), 6);
    assert_eq!(games[2]["players"]["max"], 3);
    let rules = setup["rules"].as_array().expect("rule options");
    let anti = rules
        .iter()
        .find(|r| r["name"] == "AntiBlocking")
        .expect("AntiBlocking listed");
    assert_eq!(anti["type"], "check");
    assert_eq!(anti["default"], true);
    assert!(!anti["help"].as_str().unwrap().is_empty());
    let limit = rules
        .iter()
        .find(|r| r["name"] == "MoveLimit")
        .expect("MoveLimit listed");
    assert_eq!(limit["type"], "spin");
    assert!(rules.iter().any(|r| r["name"] == "PlayToEnd"));
    let variant = rules
        .iter()
        .find(|r| r["name"] == "Variant")
        .expect("Variant listed");
    assert_eq!(variant["type"], "combo");
    assert_eq!(variant["default"], "spanish");
    let playable: Vec<&str> = damas::spanish::Variant::IMPLEMENTED
        .iter()
        .map(|v| v.name())
        .collect();
    assert_eq!(variant["values"], serde_json::json!(playable));
    assert!(
        rules.iter().all(|r| r["name"] != "Rules"),
        "presets stay out"
    );
    assert!(games[1]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .any(|name| name == "PlayToEnd"));

    // A game started with rule options by name plays by them.
    let state = server.create(
        r#"{"game":"chinese","players":3,"rules":{"GoalLock":true,"MoveLimit":100,"PlayToEnd":false}}"#,
    );
    assert_eq!(state["settings"]["rules"]["GoalLock"], true);
    assert_eq!(state["settings"]["rules"]["MoveLimit"], 100);
    assert_eq!(state["settings"]["play_to_end"], false);
    let position = state["position"].as_str().unwrap();
    assert!(
        position.contains("limit=100") && position.contains("lock=1"),
        "{position}"
    );
    assert_eq!(
        state["player_names"],
        serde_json::json!(["Red", "Blue", "Green"])
    );
    assert_eq!(state["title"], "Chinese checkers");
    // A draughts variant is its title: the variant's, not Spanish draughts.
    let russian = server.create(r#"{"game":"spanish","rules":{"Variant":"russian"}}"#);
    assert_eq!(russian["title"], "Russian draughts");
    assert_eq!(russian["settings"]["rules"]["Variant"], "russian");
    let (status, error) = server.request(
        "POST",
        "/api/games",
        Some(r#"{"game":"chinese","rules":{"Hash":4}}"#),
    );
    assert_eq!(status, 400);
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .contains("not a rule option"),
        "{error}"
    );
    let (status, error) = server.request(
        "POST",
        "/api/games",
        Some(r#"{"game":"chinese","rules":{"MoveLimit":-3}}"#),
    );
    assert_eq!(status, 400, "{error}");
    // The CCERL preset is a two-player game, as the protocol says.
    let (status, error) = server.request(
        "POST",
        "/api/games",
        Some(r#"{"game":"chinese","players":3,"rules":{"Rules":"ccerl"}}"#),
    );
    assert_eq!(status, 400, "{error}");
    assert!(
        error["error"].as_str().unwrap().contains("Players is 3"),
        "{error}"
    );
    let duel = server.create(r#"{"game":"chinese","players":2,"rules":{"Rules":"ccerl"}}"#);
    assert_eq!(duel["settings"]["rules"]["Rules"], "ccerl", "{duel}");

    // The board tells its shape and size.
    let spanish = server.create(r#"{"game":"spanish"}"#);
    assert_eq!(spanish["board"]["shape"], "squares");
    assert_eq!(spanish["board"]["width"], 8);
    assert_eq!(spanish["board"]["height"], 8);
    assert_eq!(
        spanish["player_names"],
        serde_json::json!(["White", "Black"])
    );
    let square_29 = spanish["board"]["points"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "29")
        .unwrap()
        .clone();
    assert_eq!(square_29["promotion"], 0, "{square_29}");
}

#[test]
fn a_capture_chain_shows_its_whole_path() {
    let server = Server::start(&[]);
    let state = server.create(
        r#"{"game":"spanish","position":"W:W14:B18,19,26,27","seats":[{"kind":"human"},{"kind":"human"}]}"#,
    );
    let game = id(&state);
    let from_14 = server.ok(
        "GET",
        &format!("/api/games/{game}/moves?from=14"),
        None,
        200,
    );
    let chain = from_14
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["text"] == "14x30x19x27")
        .expect("the chain over 19 and 27")
        .clone();
    assert_eq!(chain["path"], serde_json::json!(["14", "23", "30"]));
    assert_eq!(chain["captured"], serde_json::json!(["19", "27"]));
    let after = server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"14x30x19x27"}"#),
        200,
    );
    assert_eq!(after["last"]["path"], serde_json::json!(["14", "23", "30"]));
    assert_eq!(after["last"]["captured"], serde_json::json!(["19", "27"]));
}

#[test]
fn standings_read_won_and_lost_in_a_duel() {
    let server = Server::start(&[]);
    let state = server.create(
        r#"{"game":"spanish","position":"W:W18:B22","seats":[{"kind":"human"},{"kind":"human"}]}"#,
    );
    let over = server.ok(
        "POST",
        &format!("/api/games/{}/move", id(&state)),
        Some(r#"{"move":"18x27"}"#),
        200,
    );
    assert_eq!(over["status"], serde_json::json!(["won", "lost"]));
    // A resignation that ends a duel is told by the result, not listed.
    let state = server.create(r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}]}"#);
    let game = id(&state);
    server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"11-15"}"#),
        200,
    );
    let resigned = server.ok("POST", &format!("/api/games/{game}/resign"), None, 200);
    assert_eq!(resigned["status"], serde_json::json!(["won", "lost"]));
    assert_eq!(moves(&resigned), ["11-15"]);
    assert_eq!(resigned["result"]["winner"], 0);
}
