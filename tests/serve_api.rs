//! The web board's JSON API (`damas serve`): games played through it, the
//! site settings, bad requests and expiry, against the real binary.

#[path = "support/web_server.rs"]
mod web_server;

use std::time::Duration;

use serde_json::Value;
use web_server::{id, moves, Server};

const TWO_PEOPLE_STAR: &str =
    r#"{"game":"chinese","players":2,"seats":[{"kind":"human"},{"kind":"human"}]}"#;

fn texts(list: &Value, key: &str) -> Vec<String> {
    list.as_array()
        .expect("an array")
        .iter()
        .map(|m| m[key].as_str().expect("a string").to_string())
        .collect()
}

#[test]
fn a_spanish_game_against_the_engine_with_undo_and_record() {
    let server = Server::start(&[]);
    let state = server.create(
        r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"engine","think_ms":100}]}"#,
    );
    let game = id(&state);
    assert_eq!(state["to_move"], 0);
    assert_eq!(state["position"], "W:W1-12:B21-32");
    // Only the front men may move at the start.
    let mut movable: Vec<&str> = state["movable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    movable.sort_unstable();
    assert_eq!(movable, ["10", "11", "12", "9"]);
    let from_11 = server.ok(
        "GET",
        &format!("/api/games/{game}/moves?from=11"),
        None,
        200,
    );
    let mut targets = texts(&from_11, "text");
    targets.sort();
    assert_eq!(targets, ["11-14", "11-15"]);
    assert!(from_11
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["kind"] == "step"));

    server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"11-15"}"#),
        200,
    );
    let answered = server.wait_for(&game, "the engine's answer", |s| s["to_move"] == 0);
    let played = moves(&answered);
    assert_eq!(played.len(), 2, "{answered}");
    assert_eq!(played[0], "11-15");
    // The engine seat opens from the book: a book move, no search.
    let after = damas::spanish::Position::from_fen("B:W1-10,12,15:B21-32").expect("a FEN");
    let book: Vec<String> = damas::spanish::Book::builtin()
        .moves(&after)
        .iter()
        .map(|m| damas::spanish::long_text(&m.mv))
        .collect();
    assert!(book.contains(&played[1]), "{} not in {book:?}", played[1]);
    assert_eq!(answered["analysis"]["depth"], 0, "{answered}");
    assert_eq!(answered["analysis"]["nodes"], 0, "{answered}");

    let (status, record) = server.request("GET", &format!("/api/games/{game}/record"), None);
    assert_eq!(status, 200);
    let record = record.as_str().expect("a text record").to_string();
    assert!(record.contains("[GameType \"24\"]"), "{record}");
    assert!(record.contains("[Result \"*\"]"), "{record}");
    assert!(
        record.contains(&format!("1. 11-15 {} *", played[1])),
        "{record}"
    );

    // Undo takes back the engine's answer and the person's move.
    let undone = server.ok("POST", &format!("/api/games/{game}/undo"), None, 200);
    assert!(moves(&undone).is_empty(), "{undone}");
    assert_eq!(undone["to_move"], 0);
    assert_eq!(undone["can_undo"], false);
    let (status, _) = server.request("POST", &format!("/api/games/{game}/undo"), None);
    assert_eq!(status, 409);
}

#[test]
fn a_near_final_spanish_position_ends_with_the_reason_and_a_pdn_result() {
    let server = Server::start(&[]);
    let state = server.create(
        r#"{"game":"spanish","position":"W:W18:B22","seats":[{"kind":"human"},{"kind":"human"}]}"#,
    );
    let game = id(&state);
    let from_18 = server.ok(
        "GET",
        &format!("/api/games/{game}/moves?from=18"),
        None,
        200,
    );
    assert_eq!(from_18[0]["text"], "18x27");
    assert_eq!(from_18[0]["kind"], "capture");
    assert_eq!(from_18[0]["captured"][0], "22");
    let over = server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"18x27"}"#),
        200,
    );
    assert_eq!(over["to_move"], Value::Null);
    assert_eq!(over["result"]["reason"], "the loser has no pieces");
    assert_eq!(over["result"]["winner"], 0);
    assert_eq!(over["result"]["places"], serde_json::json!([1, 2]));
    let (_, record) = server.request("GET", &format!("/api/games/{game}/record"), None);
    let record = record.as_str().unwrap().to_string();
    assert!(record.contains("[FEN \"W:W18:B22\"]"), "{record}");
    assert!(
        record.contains("[Termination \"the loser has no pieces\"]"),
        "{record}"
    );
    assert!(record.contains("1. 18x27 1-0"), "{record}");
}

#[test]
fn captures_sharing_from_and_to_are_told_apart_and_promote() {
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
    let mut options = texts(&from_14, "text");
    options.sort();
    assert_eq!(options, ["14x30x18x26", "14x30x19x27"]);
    assert!(from_14
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["promotes"] == true));
    // The short form is ambiguous: refused with the long forms named.
    let (status, error) = server.request(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"14x30"}"#),
    );
    assert_eq!(status, 400);
    assert!(
        error["error"].as_str().unwrap().contains("14x30x18x26"),
        "{error}"
    );
    let after = server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"14x30x19x27"}"#),
        200,
    );
    let square_30 = after["board"]["points"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "30")
        .unwrap()
        .clone();
    assert_eq!(square_30["piece"]["king"], true, "{square_30}");
    assert_eq!(moves(&after), ["14x30x19x27"]);
}

#[test]
fn chinese_moves_tell_steps_from_chain_ends_and_people_share_the_device() {
    let server = Server::start(&[]);
    let state = server.create(
        r#"{"game":"chinese","players":3,"seats":[{"kind":"human"},{"kind":"human"},{"kind":"human"}]}"#,
    );
    let game = id(&state);
    let e4 = server.ok(
        "GET",
        &format!("/api/games/{game}/moves?from=e4"),
        None,
        200,
    );
    assert_eq!(texts(&e4, "text"), ["e4-e5", "e4-f5"]);
    assert!(e4.as_array().unwrap().iter().all(|m| m["kind"] == "step"));
    let e3 = server.ok(
        "GET",
        &format!("/api/games/{game}/moves?from=e3"),
        None,
        200,
    );
    assert_eq!(texts(&e3, "text"), ["e3-e5", "e3-g5"]);
    assert!(e3.as_array().unwrap().iter().all(|m| m["kind"] == "jump"));
    // Three people take turns on one page.
    let mut last = state;
    for turn in 0..3 {
        assert_eq!(last["to_move"], turn);
        let from = last["movable"][0].as_str().unwrap().to_string();
        let options = server.ok(
            "GET",
            &format!("/api/games/{game}/moves?from={from}"),
            None,
            200,
        );
        let text = options[0]["text"].as_str().unwrap().to_string();
        last = server.ok(
            "POST",
            &format!("/api/games/{game}/move"),
            Some(&format!(r#"{{"move":"{text}"}}"#)),
            200,
        );
    }
    assert_eq!(moves(&last).len(), 3);
    assert_eq!(last["to_move"], 0);
    // p2 resigns: the game goes on for the others.
    let resigned = server.ok(
        "POST",
        &format!("/api/games/{game}/resign"),
        Some(r#"{"player":"p2"}"#),
        200,
    );
    assert_eq!(resigned["status"][1], "resigned, place 3");
    assert_eq!(resigned["result"], Value::Null);
    let (_, record) = server.request("GET", &format!("/api/games/{game}/record"), None);
    let record = record.as_str().unwrap().to_string();
    let fields: Vec<&str> = record.trim_end().split('\t').collect();
    assert_eq!(fields[0], "game=1");
    assert_eq!(fields[1], "type=chinese");
    assert_eq!(fields[2], "players=3");
    assert_eq!(fields[3], "engines=person,person,person");
    assert_eq!(fields[4], "start=startpos");
    assert!(
        fields[5].starts_with("moves=") && fields[5].ends_with(" resign"),
        "{record}"
    );
}

#[test]
fn the_next_game_rotates_the_first_turn() {
    let server = Server::start(&[]);
    let state = server.create(
        r#"{"game":"chinese","players":3,"seats":[{"kind":"human"},{"kind":"human"},{"kind":"human"}]}"#,
    );
    let game = id(&state);
    let next = server.ok("POST", &format!("/api/games/{game}/new"), None, 200);
    assert_eq!(next["game_number"], 1);
    assert_eq!(next["to_move"], 1);
    let (_, record) = server.request("GET", &format!("/api/games/{game}/record"), None);
    assert!(record.as_str().unwrap().contains("start=I3 2 "), "{record}");
    let third = server.ok("POST", &format!("/api/games/{game}/new"), None, 200);
    assert_eq!(third["to_move"], 2);

    let fixed = server.create(
        r#"{"game":"chinese","players":3,"rotate_first":false,"seats":[{"kind":"human"},{"kind":"human"},{"kind":"human"}]}"#,
    );
    let next = server.ok("POST", &format!("/api/games/{}/new", id(&fixed)), None, 200);
    assert_eq!(next["to_move"], 0);

    // Spanish draughts: White always opens, so the seats change colour.
    let spanish = server.create(
        r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"engine","think_ms":100}]}"#,
    );
    let next = server.ok(
        "POST",
        &format!("/api/games/{}/new", id(&spanish)),
        None,
        200,
    );
    assert_eq!(next["seats"][0]["kind"], "engine");
    assert_eq!(next["seats"][1]["kind"], "human");
}

/// The fields of a Chinese checkers record line, by key.
fn line_fields(record: &str) -> std::collections::HashMap<String, String> {
    record
        .trim_end()
        .split('\t')
        .map(|field| {
            let (key, value) = field.split_once('=').expect("key=value");
            (key.to_string(), value.to_string())
        })
        .collect()
}

#[test]
fn exported_records_read_back_with_the_library() {
    use damas::chinese::Rules;
    use damas::{AnyGame, Game, GameSpec};

    let server = Server::start(&[]);
    // Spanish draughts against the engine, then the person resigns: the
    // PDN reads back through damas::pdn move for move, to the same
    // position, with the result of the resignation.
    let state = server.create(
        r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"engine","level":2,"think_ms":50}]}"#,
    );
    let game = id(&state);
    let mut last = state;
    for _ in 0..4 {
        let from = last["movable"][0]
            .as_str()
            .expect("a movable piece")
            .to_string();
        let options = server.ok(
            "GET",
            &format!("/api/games/{game}/moves?from={from}"),
            None,
            200,
        );
        let text = options[0]["text"].as_str().expect("a move").to_string();
        server.ok(
            "POST",
            &format!("/api/games/{game}/move"),
            Some(&format!(r#"{{"move":"{text}"}}"#)),
            200,
        );
        last = server.wait_for(&game, "the engine's answer", |s| s["to_move"] == 0);
    }
    let over = server.ok("POST", &format!("/api/games/{game}/resign"), None, 200);
    assert_eq!(over["result"]["winner"], 1, "{over}");
    let (_, record) = server.request("GET", &format!("/api/games/{game}/record"), None);
    let record = record.as_str().expect("a text record").to_string();
    let games = damas::pdn::read_games(&record).expect("the record reads");
    assert_eq!(games.len(), 1, "{record}");
    assert_eq!(games[0].moves(), &moves(&over)[..], "{record}");
    assert_eq!(games[0].moves().len(), 8);
    assert_eq!(games[0].result(), Some("0-1"));
    assert_eq!(games[0].tag("Result"), Some("0-1"));
    assert_eq!(games[0].tag("White"), Some("person"));
    assert_eq!(games[0].tag("Black"), Some("damas level 2 50 ms"));
    let replayed = games[0].replay().expect("every move legal");
    assert_eq!(replayed.position_text(), over["position"].as_str().unwrap());

    // From a position with Black to move: the move text opens with `1...`.
    let state = server.create(
        r#"{"game":"spanish","position":"B:W18,K3:BK30,22","seats":[{"kind":"human"},{"kind":"human"}]}"#,
    );
    let game = id(&state);
    let after = server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"{"move":"22x13"}"#),
        200,
    );
    let (_, record) = server.request("GET", &format!("/api/games/{game}/record"), None);
    let record = record.as_str().unwrap().to_string();
    assert!(record.contains("\n1... 22x13 *\n"), "{record}");
    let games = damas::pdn::read_games(&record).expect("the record reads");
    assert_eq!(games[0].tag("FEN"), Some("B:WK3,18:B22,K30"));
    assert_eq!(games[0].result(), Some("*"));
    let replayed = games[0].replay().expect("every move legal");
    assert_eq!(replayed.position_text(), "W:WK3:B13,K30");
    assert_eq!(after["position"], "W:WK3:B13,K30");

    // Chinese checkers, the second game at a board of three (p2 opens):
    // the line's start and moves replay with the library to the position
    // the board shows.
    let state = server.create(
        r#"{"game":"chinese","players":3,"seats":[{"kind":"human"},{"kind":"human"},{"kind":"human"}]}"#,
    );
    let game = id(&state);
    let mut last = server.ok("POST", &format!("/api/games/{game}/new"), None, 200);
    for _ in 0..4 {
        let from = last["movable"][0].as_str().unwrap().to_string();
        let options = server.ok(
            "GET",
            &format!("/api/games/{game}/moves?from={from}"),
            None,
            200,
        );
        let text = options[options.as_array().unwrap().len() - 1]["text"]
            .as_str()
            .unwrap()
            .to_string();
        last = server.ok(
            "POST",
            &format!("/api/games/{game}/move"),
            Some(&format!(r#"{{"move":"{text}"}}"#)),
            200,
        );
    }
    let (_, record) = server.request("GET", &format!("/api/games/{game}/record"), None);
    let fields = line_fields(record.as_str().unwrap());
    assert_eq!(fields["game"], "2");
    assert_ne!(fields["start"], "startpos");
    let spec = GameSpec::Chinese(Rules {
        players: 3,
        ..Rules::default()
    });
    let mut replay = AnyGame::from_text(&spec, &fields["start"]).expect("the start reads");
    assert_eq!(replay.to_move().map(|p| p.index()), Some(1));
    let played: Vec<&str> = fields["moves"].split(' ').collect();
    assert_eq!(played.len(), 4);
    for text in played {
        replay.play_text(text).expect("a legal move");
    }
    assert_eq!(replay.position_text(), last["position"].as_str().unwrap());
}

#[test]
fn a_seat_handed_to_the_engine_plays_and_can_be_taken_back() {
    let server = Server::start(&[]);
    let state = server.create(TWO_PEOPLE_STAR);
    let game = id(&state);
    server.ok(
        "PUT",
        &format!("/api/games/{game}/seats/1"),
        Some(r#"{"kind":"engine","think_ms":100}"#),
        200,
    );
    let played = server.wait_for(&game, "the engine's move for p1", |s| s["to_move"] == 1);
    assert_eq!(moves(&played).len(), 1);
    let back = server.ok(
        "PUT",
        &format!("/api/games/{game}/seats/1"),
        Some(r#"{"kind":"human"}"#),
        200,
    );
    assert_eq!(back["seats"][0]["kind"], "human");
    // p2 moves; p1 is a person again, so nothing is played for it.
    let from = back["movable"][0].as_str().unwrap().to_string();
    let options = server.ok(
        "GET",
        &format!("/api/games/{game}/moves?from={from}"),
        None,
        200,
    );
    let text = options[0]["text"].as_str().unwrap().to_string();
    server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(&format!(r#"{{"move":"{text}"}}"#)),
        200,
    );
    std::thread::sleep(Duration::from_millis(400));
    let later = server.ok("GET", &format!("/api/games/{game}"), None, 200);
    assert_eq!(moves(&later).len(), 2);
    assert_eq!(later["to_move"], 0);
    assert_eq!(later["thinking"], false);
}

#[test]
fn on_a_timeout_the_engine_plays_for_the_person() {
    let server = Server::start(&[]);
    let state = server.create(
        r#"{"game":"chinese","players":2,"turn_seconds":1,"seats":[{"kind":"human"},{"kind":"human"}]}"#,
    );
    let game = id(&state);
    assert!(state["turn_left_ms"].as_u64().unwrap() <= 1000);
    let after = server.wait_for(&game, "the timeout move", |s| !moves(s).is_empty());
    assert_eq!(moves(&after).len(), 1);
    assert_eq!(after["notice"], "p1's time ran out: the engine played");
    assert_eq!(after["seats"][0]["kind"], "human");
}

#[test]
fn japanese_and_solitaire_games_start_and_positions_load() {
    let server = Server::start(&[]);
    let japanese = server.create(r#"{"game":"japanese","players":3}"#);
    assert_eq!(japanese["players"], 3);
    assert!(japanese["position"].as_str().unwrap().starts_with("J3 1 "));
    let solitaire = server.create(r#"{"game":"chinese","players":1}"#);
    assert_eq!(solitaire["seats"].as_array().unwrap().len(), 1);
    let loaded = server.create(
        r#"{"game":"chinese","position":"I2 1 e9/f9,h9","seats":[{"kind":"human"},{"kind":"human"}]}"#,
    );
    assert!(loaded["position"]
        .as_str()
        .unwrap()
        .starts_with("I2 1 e9/f9,h9 "));
    let (_, record) = server.request("GET", &format!("/api/games/{}/record", id(&loaded)), None);
    assert!(
        record.as_str().unwrap().contains("\tstart=I2 1 e9/f9,h9 "),
        "{record}"
    );
}

#[test]
fn many_engine_games_run_at_once() {
    let server = Server::start(&[]);
    let games: Vec<String> = (0..12)
        .map(|i| {
            let body = if i % 2 == 0 {
                r#"{"game":"spanish","seats":[{"kind":"engine","think_ms":50,"level":4},{"kind":"engine","think_ms":50,"level":2}]}"#
            } else {
                r#"{"game":"chinese","players":3,"seats":[{"kind":"engine","think_ms":50},{"kind":"engine","think_ms":50},{"kind":"engine","think_ms":50}]}"#
            };
            id(&server.create(body))
        })
        .collect();
    for game in &games {
        server.wait_for(game, "three engine moves", |s| moves(s).len() >= 3);
    }
}
