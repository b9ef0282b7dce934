//! The server's sentences for people (errors and notices) as stable codes
//! with their parameters, so that the page says them in its language: an
//! error answers `{"error": "<English sentence>", "code": "...", "params":
//! {...}}`, a state carries `notice_code` and `notice_params` beside its
//! `notice`. A player named in a sentence (`p2`) becomes the parameter
//! `player` (its seat index), which the page writes as the seat's name.
//! A sentence this table does not know is code `other`: the page shows
//! the English sentence.

use serde_json::{json, Map, Value};

/// The code and parameters of one of the server's sentences.
pub fn classify(message: &str) -> (&'static str, Map<String, Value>) {
    let mut params = Map::new();
    let code = code(message, &mut params);
    if code == "other" {
        params.insert("detail".into(), json!(message));
    }
    (code, params)
}

/// A seat name (`p3`) as its index.
fn player(text: &str) -> Option<usize> {
    text.strip_prefix('p')?
        .parse::<usize>()
        .ok()?
        .checked_sub(1)
}

fn code(message: &str, params: &mut Map<String, Value>) -> &'static str {
    let mut put = |name: &str, value: Value| {
        params.insert(name.into(), value);
    };
    // Exact sentences.
    match message {
        "no such game" | "no such game (it may have expired)" => return "no_game",
        "no such page" => return "no_page",
        "no such seat" => return "no_seat",
        "the game is over" => return "game_over",
        "nothing to take back" => return "nothing_to_undo",
        "resign with the resign request" => return "resign_request",
        "move text longer than 200 characters" => return "long_move",
        "not a square or cell name" => return "bad_point",
        "the engine is not available" => return "engine_unavailable",
        _ => {}
    }
    if let Some(detail) = message.strip_prefix("bad request body: ") {
        put("detail", json!(detail));
        return "bad_body";
    }
    if let Some(rest) = message.strip_prefix("no seat p") {
        put("seat", json!(rest));
        return "no_seat";
    }
    if let Some(detail) = message.strip_prefix("invalid position: ") {
        put("detail", json!(detail));
        return "bad_position";
    }
    if message.starts_with("position text longer than ") {
        return "long_position";
    }
    if message.starts_with("the server holds ") {
        return "server_full";
    }
    if let Some((name, rest)) = message.split_once(' ') {
        if let Some(index) = player(name) {
            put("player", json!(index));
            match rest {
                "is played by the engine" => return "engine_seat",
                "is played by the engine; take the seat back first" => return "engine_seat_resign",
                "is not at this board" => return "no_player",
                "is not playing" => return "not_playing",
                "resigned" => return "resigned",
                _ => {}
            }
        }
    }
    if let Some((name, rest)) = message.split_once("'s time ") {
        if let Some(index) = player(name) {
            put("player", json!(index));
            match rest {
                "ran out: the engine played" => return "timeout",
                "is up: the engine is playing this turn" => return "time_up",
                _ => {}
            }
        }
    }
    if let Some(rest) = message.strip_prefix("the game reached ") {
        let turns: String = rest.chars().take_while(char::is_ascii_digit).collect();
        put("turns", json!(turns));
        return if rest.ends_with("the board's limit: a draw") {
            "turn_cap"
        } else {
            "turn_limit"
        };
    }
    if message.starts_with("Rules ccerl is two-player Chinese checkers") {
        return "ccerl_players";
    }
    if message.starts_with("this address holds ") {
        return "client_full";
    }
    if message.starts_with("the server has as many connections as it may") {
        return "server_busy";
    }
    if message.starts_with("the body is over ") {
        return "body_too_large";
    }
    if message == "the request body could not be read" {
        return "body_unreadable";
    }
    if message.starts_with("the request body did not arrive within ") {
        return "body_timeout";
    }
    if let Some(rest) = message.strip_prefix("the Japanese variant is for 2-3 players; with ") {
        let players = rest.split(' ').next().unwrap_or_default();
        put("players", json!(players));
        return "japanese_fallback";
    }
    if message.starts_with("seat kind '") {
        return "bad_seat_kind";
    }
    if message.starts_with("level ") {
        return "bad_level";
    }
    if message.starts_with("think_ms ") {
        return "bad_think_ms";
    }
    if message.starts_with("turn_seconds ") {
        return "bad_turn_seconds";
    }
    if message.starts_with("game '") {
        return "bad_game";
    }
    if message.contains(" seats given for ") || message.contains(" players but ") {
        return "seat_count";
    }
    if message.contains(" is played by ") && message.contains(" players, not ") {
        return "bad_players";
    }
    if message.ends_with(" is not a rule option") || message.starts_with("option '") {
        return "bad_rule";
    }
    // The games' refusals of a move (Game::play_text).
    if let Some(rest) = message.strip_prefix("illegal move ") {
        let (text, hint) = rest.split_once(": ").unwrap_or((rest, ""));
        put("move", json!(text.trim_matches('\'')));
        return match hint {
            "a capture is mandatory" => "capture_mandatory",
            "that move does not capture" => "not_a_capture",
            "no legal capture takes exactly those pieces" => "wrong_captures",
            _ => "illegal_move",
        };
    }
    if message.starts_with("ambiguous move ") {
        return "ambiguous_move";
    }
    if message.starts_with("malformed move ")
        || message.starts_with("not a move")
        || message == "empty move"
        || message.contains(" is not a square")
        || message.starts_with("not a cell of the star")
    {
        return "not_a_move";
    }
    "other"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sentence_has_its_code_and_players_their_index() {
        let cases: &[(&str, &str, Value)] = &[
            ("no such game (it may have expired)", "no_game", json!({})),
            (
                "p2 is played by the engine",
                "engine_seat",
                json!({"player": 1}),
            ),
            (
                "p1's time ran out: the engine played",
                "timeout",
                json!({"player": 0}),
            ),
            (
                "p3's time is up: the engine is playing this turn",
                "time_up",
                json!({"player": 2}),
            ),
            ("p4 resigned", "resigned", json!({"player": 3})),
            (
                "illegal move '9-13': a capture is mandatory",
                "capture_mandatory",
                json!({"move": "9-13"}),
            ),
            (
                "illegal move e1-e9",
                "illegal_move",
                json!({"move": "e1-e9"}),
            ),
            (
                "the server holds 5 games, its limit; try again later",
                "server_full",
                json!({}),
            ),
            ("think_ms 1 is not in 50-300", "bad_think_ms", json!({})),
            (
                "invalid position: square 33 out of range in white pieces (1-32)",
                "bad_position",
                json!({"detail": "square 33 out of range in white pieces (1-32)"}),
            ),
            (
                "the game reached 3000 turns",
                "turn_limit",
                json!({"turns": "3000"}),
            ),
            (
                "the game reached 3000 turns, the board's limit: a draw",
                "turn_cap",
                json!({"turns": "3000"}),
            ),
            (
                "this address holds 50 games, the limit for one client; delete one first",
                "client_full",
                json!({}),
            ),
            (
                "the server has as many connections as it may; try again later",
                "server_busy",
                json!({}),
            ),
            ("the body is over 16 KiB", "body_too_large", json!({})),
            (
                "Rules ccerl is two-player Chinese checkers, but Players is 3; set Players to 2 first",
                "ccerl_players",
                json!({}),
            ),
            (
                "the request body did not arrive within 100 ms",
                "body_timeout",
                json!({}),
            ),
            (
                "Spanish draughts is played by 2 players, not 3",
                "bad_players",
                json!({}),
            ),
            ("'Foo' is not a rule option", "bad_rule", json!({})),
        ];
        for (message, code, params) in cases {
            let (found, found_params) = classify(message);
            assert_eq!(found, *code, "{message}");
            assert_eq!(&Value::Object(found_params), params, "{message}");
        }
        let (code, params) = classify("something new");
        assert_eq!(code, "other");
        assert_eq!(params["detail"], "something new");
    }

    /// Every kind of sentence with its code and parameters, as the server
    /// has answered them (tests/data/serve_messages.json).
    #[test]
    fn every_sentence_answers_as_recorded() {
        let rows: Vec<Value> =
            serde_json::from_str(include_str!("../../../tests/data/serve_messages.json"))
                .expect("JSON");
        assert!(rows.len() > 50);
        for row in rows {
            let message = row["error"].as_str().expect("a sentence");
            let (code, params) = classify(message);
            assert_eq!(code, row["code"], "{message}");
            assert_eq!(Value::Object(params), row["params"], "{message}");
        }
    }

    #[test]
    fn every_code_is_translated() {
        let english: Map<String, Value> =
            serde_json::from_str(include_str!("assets/i18n/en.json")).expect("JSON");
        let source = include_str!("messages.rs");
        let codes: Vec<&str> = source
            .split("return \"")
            .skip(1)
            .chain(source.split("=> \"").skip(1))
            .filter_map(|part| part.split_once('"').map(|(code, _)| code))
            .filter(|code| code.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            .chain(["other"])
            .collect();
        assert!(codes.len() > 30, "{codes:?}");
        for code in codes {
            let key = format!("error.{code}");
            assert!(english.contains_key(&key), "en.json lacks {key}");
        }
    }
}
