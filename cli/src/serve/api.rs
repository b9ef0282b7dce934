//! The JSON API: each handler reads and checks its request, changes one
//! session under its lock and answers the new state (docs/SERVE.md).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use damas::options::{OptionDecl, OptionGroup, OptionType, Options, OPTIONS};
use damas::{AnyGame, Game, GameKind, Player, SpecError};
use serde::Deserialize;
use serde_json::{json, Value};

use super::error::ApiError;
use super::lang;
use super::messages::Message;
use super::requests::{game_kind, game_settings, turn_seconds, RuleChoices, SeatRequest};
use super::session::{Seat, Settings, WebGame};
use super::store::{lock, schedule, Shared, Store};
use super::view;

type AppState = State<Arc<Store>>;

/// Longest move text accepted.
const MAX_MOVE_TEXT: usize = 200;
type Answer = Result<Response, ApiError>;

/// Reads a JSON body into `T`, with the parser's message on failure.
pub fn body<T: for<'de> Deserialize<'de>>(bytes: &Bytes) -> Result<T, ApiError> {
    let bytes: &[u8] = if bytes.is_empty() { b"{}" } else { bytes };
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad_request(Message::BadBody(e.to_string())))
}

pub fn game_id(text: &str) -> Result<u64, ApiError> {
    let unknown = || ApiError::not_found(Message::NoGame { expired: false });
    if text.len() > 16 {
        return Err(unknown());
    }
    u64::from_str_radix(text, 16).map_err(|_| unknown())
}

pub fn answer(shared: &Shared, status: StatusCode) -> Response {
    let state = view::state(&lock(shared), Instant::now());
    (status, Json(state)).into_response()
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    game: String,
    players: Option<u8>,
    seats: Option<Vec<SeatRequest>>,
    anti_blocking: Option<bool>,
    play_to_end: Option<bool>,
    /// Rule options by name (`{"MoveLimit": 100}`), as
    /// `GET /api/games/options` lists them.
    rules: Option<serde_json::Map<String, Value>>,
    rotate_first: Option<bool>,
    turn_seconds: Option<u32>,
    position: Option<String>,
}

/// `POST /api/games`: a new game, counted against the limits of the
/// client that asked.
pub async fn create(
    State(store): AppState,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    bytes: Bytes,
) -> Answer {
    let request: CreateRequest = body(&bytes)?;
    let kind = game_kind(&request.game)?;
    let players = request.players.unwrap_or_else(|| kind.default_players());
    if !kind.players().contains(&players) {
        return Err(ApiError::bad_request(SpecError::Players { kind, players }));
    }
    let max_think = store.limits.max_think_ms;
    let seats = match &request.seats {
        Some(seats) => {
            if seats.len() != usize::from(players) {
                return Err(ApiError::bad_request(Message::SeatCount {
                    seats: seats.len(),
                    players,
                }));
            }
            seats
                .iter()
                .map(|s| s.seat(max_think))
                .collect::<Result<Vec<_>, _>>()?
        }
        None => (0..players)
            .map(|i| if i == 0 { Seat::HUMAN } else { Seat::ENGINE })
            .map(|seat| Seat {
                think_ms: seat.think_ms.min(max_think),
                ..seat
            })
            .collect(),
    };
    let settings = Settings::new(
        game_settings(
            kind,
            players,
            RuleChoices {
                rules: request.rules.as_ref(),
                anti_blocking: request.anti_blocking,
                play_to_end: request.play_to_end,
            },
        )?,
        request.rotate_first.unwrap_or(true),
        turn_seconds(request.turn_seconds.unwrap_or(0))?,
    )?;
    let position = request.position.as_deref().filter(|t| !t.trim().is_empty());
    let session = WebGame::new(
        store.new_id(),
        settings,
        seats,
        position,
        store.limits.max_turns,
        Instant::now(),
    )?;
    let shared = store.insert(session, client.ip())?;
    schedule(&store, &shared);
    Ok(answer(&shared, StatusCode::CREATED))
}

/// `GET /api/games/{id}`.
pub async fn show(State(store): AppState, Path(id): Path<String>) -> Answer {
    let shared = store.get(game_id(&id)?, Instant::now())?;
    Ok(answer(&shared, StatusCode::OK))
}

/// Refuses a request that a group's game takes only through its group
/// (its next game, its clock, its removal).
fn not_for_groups(shared: &Shared) -> Result<(), ApiError> {
    if lock(shared).binding.is_some() {
        return Err(ApiError::forbidden(Message::GroupGame));
    }
    Ok(())
}

/// `DELETE /api/games/{id}`.
pub async fn delete(State(store): AppState, Path(id): Path<String>) -> Answer {
    let id = game_id(&id)?;
    not_for_groups(&store.get(id, Instant::now())?)?;
    store.remove(id)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

/// `POST /api/games/{id}/move`: a person's move.
pub async fn play(
    State(store): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let request: MoveRequest = body(&bytes)?;
    if request.text.len() > MAX_MOVE_TEXT {
        return Err(ApiError::bad_request(Message::LongMove(MAX_MOVE_TEXT)));
    }
    let shared = store.get(game_id(&id)?, Instant::now())?;
    {
        let mut session = lock(&shared);
        if let (Some(binding), Some(player)) = (&session.binding, session.game.to_move()) {
            binding.allow(&headers, player.index())?;
        }
        session.play(&request.text, Instant::now())?;
    }
    // Answered only once stored.
    store.persist(&shared)?;
    schedule(&store, &shared);
    Ok(answer(&shared, StatusCode::OK))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResignRequest {
    player: Option<String>,
}

/// `POST /api/games/{id}/resign`: a person's seat resigns (the player to
/// move unless `player` names another).
pub async fn resign(
    State(store): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let request: ResignRequest = body(&bytes)?;
    let shared = store.get(game_id(&id)?, Instant::now())?;
    {
        let mut session = lock(&shared);
        let player = match &request.player {
            Some(text) => text.parse::<Player>().map_err(ApiError::bad_request)?,
            None => session
                .game
                .to_move()
                .ok_or_else(|| ApiError::conflict(Message::GameOver))?,
        };
        if let Some(binding) = &session.binding {
            binding.allow(&headers, player.index())?;
        }
        session.resign(player, Instant::now())?;
    }
    // Answered only once stored.
    store.persist(&shared)?;
    schedule(&store, &shared);
    Ok(answer(&shared, StatusCode::OK))
}

/// `POST /api/games/{id}/undo`.
pub async fn undo(State(store): AppState, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    let shared = store.get(game_id(&id)?, Instant::now())?;
    {
        let mut session = lock(&shared);
        if let Some(binding) = &session.binding {
            // The turn goes back to the person who played last: theirs to
            // ask (with no person's turn to take back, the creator's).
            binding.allow(&headers, session.undo_seat().unwrap_or(usize::MAX))?;
        }
        session.undo(Instant::now())?;
    }
    // Answered only once stored.
    store.persist(&shared)?;
    schedule(&store, &shared);
    Ok(answer(&shared, StatusCode::OK))
}

/// `POST /api/games/{id}/new`: the next game at this board.
pub async fn new_game(State(store): AppState, Path(id): Path<String>) -> Answer {
    let shared = store.get(game_id(&id)?, Instant::now())?;
    not_for_groups(&shared)?;
    lock(&shared).new_game(Instant::now());
    // Answered only once stored.
    store.persist(&shared)?;
    schedule(&store, &shared);
    Ok(answer(&shared, StatusCode::OK))
}

/// `PUT /api/games/{id}/seats/{n}` (`n` from 1): hand a seat to the
/// engine or take it back.
pub async fn seat(
    State(store): AppState,
    Path((id, number)): Path<(String, String)>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let request: SeatRequest = body(&bytes)?;
    let seat = request.seat(store.limits.max_think_ms)?;
    let shared = store.get(game_id(&id)?, Instant::now())?;
    let index = number
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .ok_or_else(|| ApiError::not_found(Message::NoSuchSeat))?;
    {
        let mut session = lock(&shared);
        if let Some(binding) = &session.binding {
            binding.allow(&headers, index)?;
        }
        session.set_seat(index, seat, Instant::now())?;
    }
    // Answered only once stored.
    store.persist(&shared)?;
    schedule(&store, &shared);
    Ok(answer(&shared, StatusCode::OK))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    turn_seconds: u32,
}

/// `PUT /api/games/{id}/clock`: the time per turn (0: none).
pub async fn clock(State(store): AppState, Path(id): Path<String>, bytes: Bytes) -> Answer {
    let request: ClockRequest = body(&bytes)?;
    let seconds = turn_seconds(request.turn_seconds)?;
    let shared = store.get(game_id(&id)?, Instant::now())?;
    not_for_groups(&shared)?;
    lock(&shared).set_turn_seconds(seconds, Instant::now());
    store.persist(&shared)?;
    Ok(answer(&shared, StatusCode::OK))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FromQuery {
    from: String,
}

/// `GET /api/games/{id}/moves?from=11`: the legal moves of one piece.
pub async fn moves(
    State(store): AppState,
    Path(id): Path<String>,
    query: Result<Query<FromQuery>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let Query(query) = query.map_err(|e| ApiError::bad_request(Message::Other(e.body_text())))?;
    if query.from.len() > 8 {
        return Err(ApiError::bad_request(Message::BadPoint));
    }
    let shared = store.get(game_id(&id)?, Instant::now())?;
    let session = lock(&shared);
    let game = &session.game;
    let moves = game
        .point(&query.from)
        .map(|point| game.moves_from(point))
        .map_err(ApiError::bad_request)?;
    let details: Vec<Value> = moves.iter().map(|mv| view::move_detail(game, mv)).collect();
    Ok(Json(Value::Array(details)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LangQuery {
    lang: Option<String>,
}

/// `GET /api/games/{id}/record?lang=es`: the game record as a download,
/// its names (seats, ending) in the language asked for (else the
/// request's, docs/SERVE.md).
pub async fn record(
    State(store): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<LangQuery>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let Query(query) = query.map_err(|e| ApiError::bad_request(Message::Other(e.body_text())))?;
    let language = lang::of_request(&headers, query.lang.as_deref());
    let shared = store.get(game_id(&id)?, Instant::now())?;
    let session = lock(&shared);
    let record = view::record(&session, language);
    let name = format!("damas.{}", record.extension());
    let text = record.text();
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// `GET /api/games/options`: what the setup form offers: every game (name,
/// title, player counts, seat names, the rule options that apply) and the
/// rule options of the library's table (name, type, bounds, default,
/// help, games) and the cap on the engine's time per move.
pub async fn game_options(State(store): AppState) -> Response {
    let games: Vec<Value> = GameKind::ALL
        .into_iter()
        .map(|kind| {
            let range = kind.players();
            let most = *range.end();
            let settings = Options {
                game: kind,
                players: most,
                ..Options::default()
            };
            let names: Vec<&str> = settings
                .spec()
                .map(|spec| {
                    let game = AnyGame::new(&spec);
                    Player::all(usize::from(most))
                        .map(|player| game.player_name(player))
                        .collect()
                })
                .unwrap_or_default();
            let rules: Vec<&str> = rule_options()
                .filter(|decl| decl.applies_to(kind))
                .map(|decl| decl.name)
                .collect();
            json!({
                "name": kind.name(),
                "title": kind.title(),
                "players": {
                    "min": range.start(),
                    "max": most,
                    "default": kind.default_players(),
                },
                "player_names": names,
                "rules": rules,
            })
        })
        .collect();
    let defaults = Options::default();
    let rules: Vec<Value> = rule_options()
        .map(|decl| {
            let mut entry = json!({
                "name": decl.name,
                "help": decl.help,
                "default": view::option_value(decl, &defaults),
                "games": decl.games.iter().map(|kind| kind.name()).collect::<Vec<_>>(),
            });
            match decl.kind {
                OptionType::Check => entry["type"] = json!("check"),
                OptionType::Spin { min, max } => {
                    entry["type"] = json!("spin");
                    entry["min"] = json!(min);
                    entry["max"] = json!(max);
                }
                OptionType::Combo(values) => {
                    entry["type"] = json!("combo");
                    entry["values"] = json!(values);
                }
                OptionType::Text => entry["type"] = json!("text"),
            }
            entry
        })
        .collect();
    Json(json!({
        "games": games,
        "rules": rules,
        "max_think_ms": store.limits.max_think_ms,
    }))
    .into_response()
}

/// The rule options the setup form offers: the switches, limits and
/// choices of the option table (its presets are the protocol's shorthand).
fn rule_options() -> impl Iterator<Item = &'static OptionDecl> {
    // `Rules` is a preset of the others; a choice such as `Variant` is a
    // select of its values.
    OPTIONS.iter().filter(|decl| {
        decl.group == OptionGroup::Rule
            && match decl.kind {
                OptionType::Check | OptionType::Spin { .. } => true,
                OptionType::Combo(_) => decl.name != "Rules",
                OptionType::Text => false,
            }
    })
}

/// Anything else.
pub async fn not_found() -> ApiError {
    ApiError::no_page()
}
