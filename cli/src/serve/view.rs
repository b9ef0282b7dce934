//! What the page draws, as JSON: the board's points and pieces, who is to
//! move, the move list, the clock, the result and ranking, the analysis.
//! Also the move details for "show legal moves" and the game record.

use std::time::Instant;

use damas::board::{
    BoardShape, MoveAnatomy, PieceKind, PlayedTurn, PlayerStatus, Point, TurnAction,
};
use damas::options::{OptionDecl, OptionGroup, OptionValue, Options, OPTIONS};
use damas::record::GameRecord;
use damas::{AnyGame, AnyMove, EndReason, Game, Player};
use serde_json::{json, Value};

use super::lang::Lang;
use super::messages::Message;
use super::session::{Seat, SeatKind, WebGame};
use super::store::lock;

/// The whole state of a session.
pub fn state(session: &WebGame, now: Instant) -> Value {
    let game = &session.game;
    let seats: Vec<Value> = session
        .seats
        .iter()
        .map(|s| {
            json!({
                "kind": if s.kind == SeatKind::Human { "human" } else { "engine" },
                "level": s.level,
                "think_ms": s.think_ms,
            })
        })
        .collect();
    let settings = &session.settings;
    let analysis = lock(&session.analysis).clone();
    let check = |name: &str| settings.options.value(name).as_deref() == Some("true");
    let kind = settings.kind();
    let rules: serde_json::Map<String, Value> = OPTIONS
        .iter()
        .filter(|decl| decl.group == OptionGroup::Rule && decl.applies_to(kind))
        .map(|decl| (decl.name.to_string(), option_value(decl, &settings.options)))
        .collect();
    // Once per state: in draughts the turns are replayed from the start.
    let turns = game.turns();
    let names: Vec<&str> = Player::all(game.player_count())
        .map(|player| game.player_name(player))
        .collect();
    // A sentence with its code and parameters, or three nulls.
    let coded = |message: Option<Message>| match message {
        Some(message) => (
            Some(message.to_string()),
            Some(message.code().name()),
            Some(message.params()),
        ),
        None => (None, None, None),
    };
    let (notice, notice_code, notice_params) = coded(session.notice.clone());
    let (warning, warning_code, warning_params) =
        coded(settings.spec().rules_note().map(Message::from));
    let mut state = json!({
        "id": format!("{:016x}", session.id),
        "version": session.version,
        "game": kind.name(),
        "title": settings.spec().title(),
        "must_take_most": settings.spec().must_take_most(),
        "players": game.player_count(),
        "player_names": names,
        "settings": {
            "anti_blocking": check("AntiBlocking"),
            "play_to_end": check("PlayToEnd"),
            "rotate_first": settings.rotate_first,
            "turn_seconds": settings.turn_seconds,
            "rules": rules,
        },
        "warning": warning,
        "warning_code": warning_code,
        "warning_params": warning_params,
        "seats": seats,
        "game_number": session.game_number,
        "to_move": game.to_move().map(Player::index),
        "thinking": session.thinking(),
        "turn_left_ms": session.turn_left(now),
        "board": board(game),
        "movable": movable(game),
        "last": last_move(game, &turns),
        "moves": played(game, turns),
        "places": game.places(),
        "status": statuses(game),
        "standings": standings(game),
        "result": result(game),
        "analysis": analysis,
        "notice": notice,
        "notice_code": notice_code,
        "notice_params": notice_params,
        "position": game.position_text(),
        "can_undo": session.turns() > 0,
    });
    if let Some(binding) = &session.binding {
        // A group's game: who holds each seat (names only, never a token).
        let owners: Vec<Value> = binding
            .owners
            .iter()
            .map(|owner| match owner {
                Some(member) => json!({
                    "member": member,
                    "name": binding.names.get(member - 1),
                    "away": binding.away.get(member - 1).copied().unwrap_or(false),
                }),
                None => Value::Null,
            })
            .collect();
        state["group"] = json!({
            "id": format!("{:016x}", binding.group),
            "seats": owners,
        });
    }
    state
}

/// An option's value in `settings` as JSON: a check as a boolean, a spin
/// as a number, anything else as its text.
pub fn option_value(decl: &OptionDecl, settings: &Options) -> Value {
    match decl.value(settings) {
        OptionValue::Check(flag) => Value::Bool(flag),
        OptionValue::Spin(number) => Value::from(number),
        _ => Value::String(decl.value_text(settings)),
    }
}

/// Every point of the board with its piece, from [`Game::board`]: squares
/// by file and rank from the first player's bottom left (with the board's
/// `width` and `height`), star cells by their hex coordinates.
fn board(game: &AnyGame) -> Value {
    let board = game.board();
    let seat = |player: Option<Player>| player.map(Player::index);
    let points: Vec<Value> = board
        .points
        .iter()
        .enumerate()
        .map(|(index, info)| {
            let piece = Point::new(index)
                .and_then(|point| game.piece_at(point))
                .map(|piece| {
                    json!({
                        "player": piece.owner.index(),
                        "king": piece.kind == PieceKind::King,
                    })
                });
            json!({
                "name": info.name,
                "x": info.x,
                "y": info.y,
                "piece": piece,
                "home": seat(info.camp),
                "goal": seat(info.goal),
                "promotion": seat(info.promotion),
            })
        })
        .collect();
    match board.shape {
        BoardShape::Squares { width, height } => json!({
            "shape": "squares",
            "width": width,
            "height": height,
            "points": points,
        }),
        BoardShape::Star => json!({ "shape": "star", "points": points }),
    }
}

/// The names of `points`.
fn names(game: &AnyGame, points: &[Point]) -> Vec<String> {
    points.iter().map(|&point| game.point_name(point)).collect()
}

/// The points holding a piece that may move now (only those are
/// selectable: in draughts a capture is mandatory).
fn movable(game: &AnyGame) -> Vec<String> {
    names(game, &game.movable_points())
}

/// A move taken apart, by point names: its ends, every point it stands
/// on, the pieces it takes in order, and whether it promotes.
fn anatomy(game: &AnyGame, anatomy: &MoveAnatomy) -> Value {
    json!({
        "from": game.point_name(anatomy.from),
        "to": game.point_name(anatomy.to),
        "path": names(game, &anatomy.path),
        "captured": names(game, &anatomy.captured),
        "kind": anatomy.kind.to_string(),
        "promotes": anatomy.promotes,
    })
}

/// One legal move as the board marks it.
pub fn move_detail(game: &AnyGame, mv: &AnyMove) -> Value {
    let mut detail = anatomy(game, &game.anatomy(mv));
    detail["text"] = Value::String(game.move_text(mv));
    detail
}

/// The last move's path and captures, for the highlight (passes and
/// resignations leave the last move marked).
fn last_move(game: &AnyGame, turns: &[PlayedTurn]) -> Option<Value> {
    turns.iter().rev().find_map(|turn| match &turn.action {
        TurnAction::Move(mv) => Some(json!({
            "path": names(game, &mv.path),
            "captured": names(game, &mv.captured),
        })),
        TurnAction::Pass | TurnAction::Resign => None,
    })
}

/// The turns the move list shows: every turn, but a resignation that
/// ended the game by itself is told by the result, not listed (a PDN
/// move text has no word for it).
fn listed_turns(game: &AnyGame, mut turns: Vec<PlayedTurn>) -> Vec<PlayedTurn> {
    let resigned = game
        .outcome()
        .is_some_and(|o| o.reason == EndReason::Resignation);
    if resigned && turns.last().is_some_and(|t| t.action == TurnAction::Resign) {
        turns.pop();
    }
    turns
}

fn played(game: &AnyGame, turns: Vec<PlayedTurn>) -> Vec<Value> {
    listed_turns(game, turns)
        .into_iter()
        .map(|turn| json!({ "player": turn.player.index(), "text": turn.text }))
        .collect()
}

/// What each player's standing is, in words: `won`, `lost` or `draw`
/// once a two-player game is over; with one or more than two players,
/// `finished, place 2`, `resigned, place 3`, `place 4 (reason)`.
fn statuses(game: &AnyGame) -> Vec<String> {
    let outcome = game.outcome();
    let duel = game.player_count() == 2;
    game.player_statuses()
        .into_iter()
        .map(|status| match (status, &outcome) {
            (PlayerStatus::Playing, _) => "playing".to_string(),
            (_, Some(o)) if duel && o.is_draw() => "draw".to_string(),
            (status, Some(_)) if duel && status.place() == Some(1) => "won".to_string(),
            (_, Some(_)) if duel => "lost".to_string(),
            (PlayerStatus::Finished { place }, _) => format!("finished, place {place}"),
            (PlayerStatus::Resigned { place }, _) => format!("resigned, place {place}"),
            (PlayerStatus::Out { place }, Some(o)) => format!("place {place} ({})", o.reason),
            (PlayerStatus::Out { place }, None) => format!("place {place}"),
        })
        .collect()
}

/// Each player's standing for the page to put in words: `state`
/// (`playing`, `won`, `lost`, `draw`, `finished`, `resigned`, `out`) and
/// `place`.
fn standings(game: &AnyGame) -> Vec<Value> {
    let outcome = game.outcome();
    let duel = game.player_count() == 2;
    game.player_statuses()
        .into_iter()
        .map(|status| {
            let state = match (status, &outcome) {
                (PlayerStatus::Playing, _) => "playing",
                (_, Some(o)) if duel && o.is_draw() => "draw",
                (status, Some(_)) if duel && status.place() == Some(1) => "won",
                (_, Some(_)) if duel => "lost",
                (PlayerStatus::Finished { .. }, _) => "finished",
                (PlayerStatus::Resigned { .. }, _) => "resigned",
                (PlayerStatus::Out { .. }, _) => "out",
            };
            json!({ "state": state, "place": status.place() })
        })
        .collect()
}

/// The words of a game's end in `lang`, by its code and its count.
pub fn reason_text(reason: EndReason, lang: Lang) -> String {
    let plies = reason.plies().map(|p| p.to_string()).unwrap_or_default();
    lang.text(&format!("reason.{}", reason.code()), &[("plies", &plies)])
}

fn result(game: &AnyGame) -> Option<Value> {
    let outcome = game.outcome()?;
    let mut ranking: Vec<(u8, usize)> = outcome
        .places
        .iter()
        .enumerate()
        .map(|(player, &place)| (place, player))
        .collect();
    ranking.sort_unstable();
    let ranking: Vec<Value> = ranking
        .into_iter()
        .map(|(place, player)| json!({ "player": player, "place": place }))
        .collect();
    Some(json!({
        "reason": outcome.reason.to_string(),
        "reason_code": outcome.reason.code(),
        "reason_params": { "plies": outcome.reason.plies() },
        "winner": outcome.winner().map(Player::index),
        "draw": outcome.is_draw(),
        "places": outcome.places,
        "ranking": ranking,
    }))
}

/// How the record names a seat in `lang`.
fn seat_name(seat: &Seat, lang: Lang) -> String {
    match seat.kind {
        SeatKind::Human => lang.text("record.person", &[]),
        SeatKind::Engine => lang.text(
            "record.engine",
            &[
                ("level", &seat.level.to_string()),
                ("ms", &seat.think_ms.to_string()),
            ],
        ),
    }
}

/// Who played seat `index` in this game, in `lang`: its players in turn
/// when it changed hands ("person until turn 6 then damas level 4 ...").
fn seat_history(session: &WebGame, index: usize, lang: Lang) -> String {
    let mut text = String::new();
    for handover in session.handovers.iter().filter(|h| h.seat == index) {
        let until = lang.text(
            "record.until",
            &[
                ("seat", &seat_name(&handover.before, lang)),
                ("turn", &handover.turn.to_string()),
            ],
        );
        text = if text.is_empty() {
            until
        } else {
            lang.text("record.then", &[("before", &text), ("after", &until)])
        };
    }
    let now = seat_name(&session.seats[index], lang);
    if text.is_empty() {
        now
    } else {
        lang.text("record.then", &[("before", &text), ("after", &now)])
    }
}

/// The name of the member who played seat `index` of a group's game
/// throughout (a person's seat that never changed hands).
fn member_name(session: &WebGame, index: usize) -> Option<String> {
    let binding = session.binding.as_ref()?;
    let member = binding.owners.get(index).copied().flatten()?;
    let kept = session.seats[index].kind == SeatKind::Human
        && session.handovers.iter().all(|h| h.seat != index);
    kept.then(|| binding.names.get(member - 1).cloned())
        .flatten()
}

/// A PDN date (`2026.12.03`, UTC) of a time.
pub fn pdn_date(time: std::time::SystemTime) -> String {
    let days = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Days to the civil date (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The game record, in its game's format (docs/NOTATION.md), written by
/// the library; the seats and the ending named in `lang`.
pub fn record(session: &WebGame, lang: Lang) -> GameRecord {
    let game = &session.game;
    let outcome = game.outcome();
    GameRecord {
        event: "damas serve".into(),
        date: Some(pdn_date(session.started)),
        game: session.game_number as usize + 1,
        spec: game.spec(),
        seats: (0..session.seats.len())
            .map(|index| {
                member_name(session, index).unwrap_or_else(|| seat_history(session, index, lang))
            })
            .collect(),
        start: session.start.clone(),
        moves: game.turns().into_iter().map(|turn| turn.text).collect(),
        places: outcome
            .as_ref()
            .map(|o| o.places.iter().map(|&p| u32::from(p)).collect())
            .unwrap_or_default(),
        ending: outcome
            .map(|o| reason_text(o.reason, lang))
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn pdn_dates_are_civil_dates() {
        let day = |days: u64| pdn_date(UNIX_EPOCH + Duration::from_secs(days * 86_400 + 5));
        assert_eq!(day(0), "1970.01.01");
        assert_eq!(day(59), "1970.03.01");
        assert_eq!(day(11_016), "2000.02.29");
        assert_eq!(day(20_455), "2026.01.02");
    }

    #[test]
    fn every_ending_has_words_in_every_language() {
        for lang in Lang::ALL {
            for reason in [
                EndReason::NoPieces,
                EndReason::NoMoves,
                EndReason::Repetition,
                EndReason::NoProgress { plies: 40 },
                EndReason::ThreeKings { plies: 24 },
                EndReason::AllPlaced,
                EndReason::FirstFinisher,
                EndReason::MoveLimit,
                EndReason::NoProgressLimit,
                EndReason::Blocked,
                EndReason::Resignation,
                EndReason::Adjudicated,
            ] {
                let key = format!("reason.{}", reason.code());
                assert_ne!(lang.text(&key, &[]), key, "{}", lang.code());
                let text = reason_text(reason, lang);
                assert!(!text.contains('{'), "{}: {text}", lang.code());
                if let Some(plies) = reason.plies() {
                    assert!(text.contains(&plies.to_string()), "{}: {text}", lang.code());
                }
            }
        }
    }
}
