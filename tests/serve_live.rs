//! Live updates on the web board (`damas serve`): the server-sent event
//! streams of groups and games, read from raw connections, one cookie jar
//! per device.

#[path = "support/web_server.rs"]
mod web_server;

#[path = "support/devices.rs"]
mod devices;

use std::time::{Duration, Instant};

use devices::{
    legal_move, moves_in, play_a_move, str_of, two_player_group, Device, Stream, EVENT_WAIT,
};
use serde_json::{json, Value};
use web_server::{read_answer, Server, PATIENCE};

#[test]
fn a_move_from_another_device_reaches_the_group_stream() {
    let server = Server::start(&[]);
    let (mut ana, mut bea, group, game) = two_player_group(&server);
    let mut stream = ana.stream(&server, &format!("/api/groups/{group}/events"), None);
    let head = stream.head();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("text/event-stream"),
        "{head}"
    );
    // The current state at once, as this device sees it.
    let (first, state) = stream.event();
    assert_eq!(state["id"], group.as_str());
    assert_eq!(state["you"], json!([1]));
    assert_eq!(moves_in(&state), 0);
    for played in 1..=3 {
        play_a_move(&server, &mut [&mut ana, &mut bea], &game);
        let (id, state) = stream.event();
        assert!(id > first, "ids rise: {id} after {first}");
        assert_eq!(moves_in(&state), played, "{state}");
        assert_eq!(
            state["game_state"]["version"],
            server.ok("GET", &format!("/api/games/{game}"), None, 200)["version"]
        );
    }
}

#[test]
fn a_reconnecting_client_gets_exactly_what_it_missed() {
    let server = Server::start(&[]);
    let (mut ana, mut bea, group, game) = two_player_group(&server);
    let path = format!("/api/groups/{group}/events");
    let mut stream = bea.stream(&server, &path, None);
    let (first, state) = stream.event();
    assert_eq!(moves_in(&state), 0);
    drop(stream);
    // Two moves while the device is away.
    play_a_move(&server, &mut [&mut ana, &mut bea], &game);
    play_a_move(&server, &mut [&mut ana, &mut bea], &game);
    let mut stream = bea.stream(&server, &path, Some(first));
    let (caught_up, state) = stream.event();
    assert!(caught_up > first);
    assert_eq!(moves_in(&state), 2, "the current state at once");
    assert_eq!(state["you"], json!([2]));
    // Nothing more until something changes: nothing shown twice.
    assert_eq!(stream.event_within(Duration::from_millis(600)), None);
    drop(stream);
    // Up to date: a reconnection sends nothing until the next change.
    let mut stream = bea.stream(&server, &path, Some(caught_up));
    assert_eq!(stream.event_within(Duration::from_millis(600)), None);
    play_a_move(&server, &mut [&mut ana, &mut bea], &game);
    let (next, state) = stream.event();
    assert!(next > caught_up);
    assert_eq!(moves_in(&state), 3);
}

#[test]
fn a_single_device_game_streams_and_its_stream_ends_when_it_is_deleted() {
    let server = Server::start(&[]);
    let state = server.create(r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}]}"#);
    let game = str_of(&state["id"]);
    let device = Device::default();
    let mut stream = device.stream(&server, &format!("/api/games/{game}/events"), None);
    let (first, shown) = stream.event();
    assert_eq!(shown["version"], state["version"]);
    let text = legal_move(&server, &game);
    server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(&json!({ "move": text }).to_string()),
        200,
    );
    let (id, shown) = stream.event();
    assert!(id > first);
    assert_eq!(shown["moves"].as_array().expect("moves").len(), 1);
    server.ok("DELETE", &format!("/api/games/{game}"), None, 204);
    assert!(
        stream.ends_within(EVENT_WAIT),
        "the stream ends with its game"
    );
}

#[test]
fn streams_are_bounded_per_group_and_in_all() {
    // 40 connections: at most 20 streams in all, 16 for one group.
    let server = Server::start(&["--max-connections", "40"]);
    let (ana, _bea, group, _game) = two_player_group(&server);
    let path = format!("/api/groups/{group}/events");
    let mut open = Vec::new();
    for _ in 0..16 {
        let mut stream = ana.stream(&server, &path, None);
        stream.event();
        open.push(stream);
    }
    let mut refused = ana.stream(&server, &path, None);
    let (status, body) = read_answer(&mut refused.socket);
    assert_eq!(status, 429, "{body}");
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(body["code"], "too_many_streams");
    let state = server.create(r#"{"game":"spanish"}"#);
    let game_path = format!("/api/games/{}/events", str_of(&state["id"]));
    for _ in 0..4 {
        let mut stream = ana.stream(&server, &game_path, None);
        stream.event();
        open.push(stream);
    }
    let mut refused = ana.stream(&server, &game_path, None);
    let (status, body) = read_answer(&mut refused.socket);
    assert_eq!(status, 503, "{body}");
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(body["code"], "too_many_streams");
    // A stream closed gives its place back.
    open.truncate(19);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let mut stream = ana.stream(&server, &game_path, None);
        if stream.event_within(EVENT_WAIT).is_some() {
            break;
        }
        assert!(Instant::now() < deadline, "the place never came back");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn open_streams_end_at_once_when_the_server_shuts_down() {
    let mut server = Server::start(&[]);
    let (ana, _bea, group, _game) = two_player_group(&server);
    let mut streams: Vec<Stream> = (0..3)
        .map(|_| ana.stream(&server, &format!("/api/groups/{group}/events"), None))
        .collect();
    for stream in &mut streams {
        stream.event();
    }
    let (took, exited) = server.signal_and_wait(libc::SIGTERM);
    assert!(exited, "the server exits");
    assert!(took < Duration::from_secs(1), "shutdown took {took:?}");
    for stream in &mut streams {
        assert!(stream.ends_within(EVENT_WAIT), "the stream is closed");
    }
}

/// Reads `stream` until an event's data satisfies `done` (within the
/// tests' patience); that data.
fn until(stream: &mut Stream, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some((_, data)) = stream.event_within(Duration::from_millis(500)) {
            if done(&data) {
                return data;
            }
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
    }
}

fn seat_of(group_state: &Value, seat: usize) -> (String, bool) {
    let game = &group_state["game_state"];
    (
        str_of(&game["seats"][seat]["kind"]),
        game["group"]["seats"][seat]["away"]
            .as_bool()
            .expect("away"),
    )
}

#[test]
fn the_engine_plays_for_a_member_gone_until_they_come_back_or_their_seat_is_given() {
    let server = Server::start(&["--away-secs", "1"]);
    let (mut ana, mut bea, group, game) = two_player_group(&server);
    let path = format!("/api/groups/{group}/events");
    let mut watching = ana.stream(&server, &path, None);
    let mut bea_stream = bea.stream(&server, &path, None);
    bea_stream.event();
    watching.event();
    // Ana (White) opens; Bea, away, has her turn played by the engine.
    play_a_move(&server, &mut [&mut ana, &mut bea], &game);
    drop(bea_stream);
    let state = until(&mut watching, "the engine to play Bea's turn", |s| {
        moves_in(s) == 2
    });
    assert_eq!(seat_of(&state, 1), ("engine".to_string(), true));
    assert_eq!(state["members"][1]["away"], true);
    assert_eq!(state["game_state"]["notice_code"], "player_away");
    assert_eq!(state["game_state"]["notice_params"]["player"], 1);
    // No other device takes the seat.
    let seat = format!("/api/games/{game}/seats/2");
    let human = r#"{"kind":"human"}"#;
    let mut stranger = Device::default();
    for device in [&mut stranger, &mut ana] {
        let (status, body) = device.call(&server, "PUT", &seat, Some(human));
        assert_eq!(
            (status, body["code"].clone()),
            (403, json!("seat_not_yours"))
        );
    }
    let (status, body) = stranger.call(
        &server,
        "POST",
        &format!("/api/groups/{group}/join"),
        Some(r#"{"name":"Eve"}"#),
    );
    assert_eq!((status, body["code"].clone()), (409, json!("group_full")));
    // Bea is back, from the same device: her seat is hers again.
    let mut bea_stream = bea.stream(&server, &path, None);
    let state = until(&mut bea_stream, "Bea's seat back", |s| {
        seat_of(s, 1) == ("human".to_string(), false)
    });
    assert_eq!(state["you"], json!([2]));
    assert_eq!(state["game_state"]["notice_code"], "player_back");
    play_a_move(&server, &mut [&mut ana, &mut bea], &game);
    // Bea's turn waits for her: the engine does not play it.
    assert_eq!(bea_stream.event().1["game_state"]["to_move"], 1);
    std::thread::sleep(Duration::from_millis(1500));
    let state = server.ok("GET", &format!("/api/games/{game}"), None, 200);
    assert_eq!(state["moves"].as_array().expect("moves").len(), 3);
    play_a_move(&server, &mut [&mut ana, &mut bea], &game);

    // Bea leaves for good: the creator gives her seat to a newcomer.
    drop(bea_stream);
    let free = format!("/api/groups/{group}/members/2/free");
    until(&mut watching, "Bea away again", |s| {
        s["members"][1]["away"] == true
    });
    let (status, body) = bea.call(&server, "POST", &free, None);
    assert_eq!(
        (status, body["code"].clone()),
        (403, json!("not_the_creator"))
    );
    let (status, body) = ana.call(
        &server,
        "POST",
        "/api/groups/{group}/members/1/free"
            .replace("{group}", &group)
            .as_str(),
        None,
    );
    assert_eq!(
        (status, body["code"].clone()),
        (409, json!("member_present"))
    );
    let freed = ana.ok(&server, "POST", &free, None, 200);
    assert_eq!(freed["members"][1]["vacant"], true);
    let mut dan = Device::default();
    let joined = dan.ok(
        &server,
        "POST",
        &format!("/api/groups/{group}/join"),
        Some(r#"{"name":"Dan"}"#),
        201,
    );
    assert_eq!(joined["you"], json!([2]));
    assert_eq!(joined["members"][1]["name"], "Dan");
    let mut dan_stream = dan.stream(&server, &path, None);
    let state = until(&mut dan_stream, "Dan's seat", |s| {
        seat_of(s, 1) == ("human".to_string(), false)
    });
    assert_eq!(state["game_state"]["group"]["seats"][1]["name"], "Dan");
    // Bea's old cookie opens nothing now; Dan plays the seat.
    let (status, reply) = bea.call(&server, "GET", &format!("/api/groups/{group}"), None);
    assert_eq!((status, reply["you"].clone()), (200, json!([])));
    let state = server.ok("GET", &format!("/api/games/{game}"), None, 200);
    if state["to_move"] == 1 {
        play_a_move(&server, &mut [&mut ana, &mut dan], &game);
    } else {
        play_a_move(&server, &mut [&mut ana, &mut dan], &game);
        play_a_move(&server, &mut [&mut ana, &mut dan], &game);
    }
}

#[test]
fn a_member_still_away_when_the_next_game_starts_has_the_engine_play_it() {
    let server = Server::start(&["--away-secs", "1"]);
    let (mut ana, _bea, group, game) = two_player_group(&server);
    let path = format!("/api/groups/{group}/events");
    let mut watching = ana.stream(&server, &path, None);
    // Bea's device never comes: after the grace the engine has her seat.
    until(&mut watching, "Bea away", |s| {
        seat_of(s, 1) == ("engine".to_string(), true)
    });
    ana.ok(
        &server,
        "POST",
        &format!("/api/games/{game}/resign"),
        Some("{}"),
        200,
    );
    let next = ana.ok(
        &server,
        "POST",
        &format!("/api/groups/{group}/next"),
        None,
        201,
    );
    let second = str_of(&next["game"]);
    assert_ne!(second, game);
    // The seats moved round: Bea's seat of the new game goes to the engine.
    until(&mut watching, "Bea's new seat to the engine", |s| {
        s["game"] == second.as_str()
            && (0..2).any(|seat| {
                s["game_state"]["group"]["seats"][seat]["member"] == 2
                    && seat_of(s, seat) == ("engine".to_string(), true)
            })
    });
}
