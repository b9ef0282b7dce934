//! The groups' API: create a group, join it, read it, change its settings
//! and start its next game (docs/SERVE.md, "Groups"). A group's game is an
//! ordinary game of the store whose seats are bound to the members; its
//! moves go through the games' API, which checks the seat tokens.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use damas::options::{OptionGroup, OPTIONS};
use damas::Game;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::api;
use super::error::ApiError;
use super::group::{self, Group, Member};
use super::messages::Message;
use super::pulse::Pulse;
use super::requests::{check_players, game_settings, group_settings, RuleChoices, SettingsRequest};
use super::session::{Settings, WebGame};
use super::store::{lock, schedule, SharedGroup, Store};
use super::tokens;
use super::view;

type AppState = State<Arc<Store>>;
type Answer = Result<Response, ApiError>;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    name: String,
    settings: SettingsRequest,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    name: String,
}

pub fn group_id(text: &str) -> Result<u64, ApiError> {
    if text.len() > 16 {
        return Err(ApiError::not_found(Message::NoGroup));
    }
    u64::from_str_radix(text, 16).map_err(|_| ApiError::not_found(Message::NoGroup))
}

/// Counts the last game into the standings once it is over.
fn settle(store: &Store, group: &mut Group) {
    let Some(game) = group.game.filter(|_| !group.counted) else {
        return;
    };
    let Ok(shared) = store.get(game, Instant::now()) else {
        return;
    };
    let finished = {
        let session = lock(&shared);
        session.game.outcome().map(|outcome| {
            let owners = session
                .binding
                .as_ref()
                .map(|b| b.owners.clone())
                .unwrap_or_default();
            (outcome.places, owners)
        })
    };
    if let Some((places, owners)) = finished {
        group.count(&places, &owners);
    }
}

/// Whether the group is between games: none begun, the last one over or
/// gone.
fn between_games(store: &Store, group: &Group) -> bool {
    group.game.is_none_or(|game| {
        store
            .get(game, Instant::now())
            .map_or(true, |shared| lock(&shared).game.is_over())
    })
}

/// The members (from 1) whose token this request holds.
fn yours(headers: &HeaderMap, group: &Group) -> Vec<usize> {
    tokens::members_held(headers, group.id, &group.tokens())
}

/// The creator's requests: refused (403) without the creator's token.
fn creator_only(headers: &HeaderMap, group: &Group) -> Result<(), ApiError> {
    if yours(headers, group).contains(&1) {
        Ok(())
    } else {
        Err(ApiError::forbidden(Message::NotTheCreator))
    }
}

/// The group as JSON: no token, only names (see docs/SERVE.md).
fn view(store: &Store, group: &Group, you: &[usize]) -> Value {
    let now = Instant::now();
    let (state, owners) = match group.game.and_then(|game| store.get(game, now).ok()) {
        Some(shared) => {
            let session = lock(&shared);
            let owners = session
                .binding
                .as_ref()
                .map(|b| b.owners.clone())
                .unwrap_or_default();
            (view::state(&session, now), owners)
        }
        None => (Value::Null, Vec::new()),
    };
    let over = state.is_null() || state["result"] != Value::Null;
    let members: Vec<Value> = group
        .members
        .iter()
        .enumerate()
        .map(|(index, member)| {
            let number = index + 1;
            let seat = owners.iter().position(|&o| o == Some(number));
            json!({
                "member": number,
                "name": member.name,
                "creator": number == 1,
                "seat": seat.map(|s| s + 1),
                "points": f64::from(member.half_points) / 2.0,
                "games": member.games,
                "away": member.away,
                "vacant": member.vacant,
            })
        })
        .collect();
    let mut standings: Vec<&Value> = members.iter().collect();
    standings.sort_by(|a, b| {
        b["points"]
            .as_f64()
            .partial_cmp(&a["points"].as_f64())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let standings: Vec<Value> = standings
        .into_iter()
        .map(|m| json!({ "member": m["member"], "name": m["name"], "points": m["points"], "games": m["games"] }))
        .collect();
    let settings = &group.settings;
    let check = |name: &str| settings.options.value(name).as_deref() == Some("true");
    let rules: Map<String, Value> = OPTIONS
        .iter()
        .filter(|decl| decl.group == OptionGroup::Rule && decl.applies_to(settings.kind))
        .map(|decl| {
            (
                decl.name.to_string(),
                view::option_value(decl, &settings.options),
            )
        })
        .collect();
    let engines: Vec<Value> = settings
        .engines
        .iter()
        .map(|seat| json!({ "level": seat.level, "think_ms": seat.think_ms }))
        .collect();
    let id = format!("{:016x}", group.id);
    let (min, max) = group::player_range(settings.kind);
    json!({
        "id": id,
        "link": format!("/j/{id}"),
        "members": members,
        "players": group.players(),
        "min_players": min,
        "max_players": max,
        "settings": {
            "game": settings.kind.name(),
            "engines": engines,
            "anti_blocking": check("AntiBlocking"),
            "play_to_end": check("PlayToEnd"),
            "rotate_first": settings.rotate_first,
            "show_legal_moves": settings.show_legal_moves,
            "turn_seconds": settings.turn_seconds,
            "rules": rules,
        },
        "standings": standings,
        "games_played": group.games_played,
        "game": group.game.map(|game| format!("{game:016x}")),
        "game_state": state,
        "between_games": over,
        "you": you,
    })
}

/// The answer of a group request: the group, and the cookie of a member
/// just made.
fn answer(
    store: &Store,
    group: &Group,
    you: &[usize],
    status: StatusCode,
    cookie: Option<(usize, &str)>,
) -> Response {
    let body = Json(view(store, group, you));
    match cookie.and_then(|(member, token)| tokens::set_cookie(group.id, member, token)) {
        Some(header) => (status, [header], body).into_response(),
        None => (status, body).into_response(),
    }
}

/// `POST /api/groups`: a new group, its creator its first member.
pub async fn create(
    State(store): AppState,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    bytes: Bytes,
) -> Answer {
    let request: CreateRequest = api::body(&bytes)?;
    let name = group::name(&request.name)?;
    let settings = group_settings(request.settings, 1, store.limits.max_think_ms)?;
    let token = tokens::fresh()?;
    let group = Group {
        id: store.new_group_id(),
        members: vec![Member::new(name, token.clone(), Instant::now())],
        settings,
        game: None,
        games_played: 0,
        counted: true,
        last_access: Instant::now(),
        pulse: Pulse::new(),
        stored_pulse: 0,
    };
    let shared = store.insert_group(group, client.ip())?;
    let group = lock(&shared);
    Ok(answer(
        &store,
        &group,
        &[1],
        StatusCode::CREATED,
        Some((1, &token)),
    ))
}

/// The group as the event stream of a device holding `headers` sends
/// it (the last game counted once over); `None` once the group is gone.
pub fn snapshot(store: &Store, id: u64, headers: &HeaderMap) -> Option<Value> {
    let shared = store.group(id, Instant::now()).ok()?;
    let mut group = lock(&shared);
    settle(store, &mut group);
    let you = yours(headers, &group);
    Some(view(store, &group, &you))
}

fn get_group(store: &Store, id: &str) -> Result<SharedGroup, ApiError> {
    store.group(group_id(id)?, Instant::now())
}

/// `GET /api/groups/{id}`: the group, for anyone with the link.
pub async fn show(State(store): AppState, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    let shared = get_group(&store, &id)?;
    let mut group = lock(&shared);
    settle(&store, &mut group);
    let you = yours(&headers, &group);
    group.seen(&you, Instant::now());
    Ok(answer(&store, &group, &you, StatusCode::OK, None))
}

/// A device holding `headers` opened a stream of group `id`: the members
/// it holds are here while it stays open (see [`leave`]).
pub fn arrive(store: &Store, id: u64, headers: &HeaderMap) -> Vec<usize> {
    let Some(shared) = store.peek_group(id) else {
        return Vec::new();
    };
    let mut group = lock(&shared);
    let you = yours(headers, &group);
    let now = Instant::now();
    group.seen(&you, now);
    for &member in &you {
        group.members[member - 1].streams += 1;
    }
    you
}

/// The stream [`arrive`] counted is closed: the grace time starts.
pub fn leave(store: &Store, id: u64, members: &[usize]) {
    let Some(shared) = store.peek_group(id) else {
        return;
    };
    let mut group = lock(&shared);
    let now = Instant::now();
    group.seen(members, now);
    for &member in members {
        if let Some(member) = group.members.get_mut(member - 1) {
            member.streams = member.streams.saturating_sub(1);
        }
    }
}

/// `POST /api/groups/{id}/members/{n}/free`: the creator frees the seat
/// of member `n`, away (left and not back): no device may come back to
/// it, and the next person to join takes it.
pub async fn free(
    State(store): AppState,
    Path((id, member)): Path<(String, String)>,
    headers: HeaderMap,
) -> Answer {
    let shared = get_group(&store, &id)?;
    let mut group = lock(&shared);
    creator_only(&headers, &group)?;
    let count = group.members.len();
    let member = member
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=count).contains(n))
        .ok_or_else(|| ApiError::not_found(Message::NoSuchSeat))?;
    if !group.members[member - 1].away {
        return Err(ApiError::conflict(Message::MemberPresent(member)));
    }
    // A token no device holds: the old one opens nothing now.
    let token = tokens::fresh()?;
    if let Some(shared) = group.game.and_then(|game| store.peek(game)) {
        let mut session = lock(&shared);
        if let Some(binding) = &mut session.binding {
            if let Some(slot) = binding.tokens.get_mut(member - 1) {
                slot.clone_from(&token);
            }
        }
        session.bump();
    }
    let freed = &mut group.members[member - 1];
    freed.token = token;
    freed.vacant = true;
    freed.streams = 0;
    group.pulse.bump();
    if let Some(shared) = group.game.and_then(|game| store.peek(game)) {
        store.persist(&shared)?;
    }
    store.store_group(&mut group)?;
    let you = yours(&headers, &group);
    Ok(answer(&store, &group, &you, StatusCode::OK, None))
}

/// `POST /api/groups/{id}/join`: a person takes a free seat (from the
/// next game on).
pub async fn join(
    State(store): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let request: JoinRequest = api::body(&bytes)?;
    let name = group::name(&request.name)?;
    let shared = get_group(&store, &id)?;
    let mut group = lock(&shared);
    let (_, max) = group::player_range(group.settings.kind);
    let token = tokens::fresh()?;
    let now = Instant::now();
    let member = match group.members.iter().position(|m| m.vacant) {
        // A seat the creator freed: the newcomer takes it, in the game in
        // play too (from their next turn).
        Some(index) => {
            let mut newcomer = Member::new(name.clone(), token.clone(), now);
            newcomer.away = true;
            group.members[index] = newcomer;
            if let Some(shared) = group.game.and_then(|game| store.peek(game)) {
                let mut session = lock(&shared);
                if let Some(binding) = &mut session.binding {
                    if let Some(slot) = binding.tokens.get_mut(index) {
                        slot.clone_from(&token);
                    }
                    if let Some(slot) = binding.names.get_mut(index) {
                        *slot = name;
                    }
                }
                session.bump();
            }
            index + 1
        }
        None if group.players() >= usize::from(max) => {
            return Err(ApiError::conflict(Message::GroupFull(usize::from(max))));
        }
        None => {
            group.members.push(Member::new(name, token.clone(), now));
            group.members.len()
        }
    };
    group.pulse.bump();
    if let Some(shared) = group.game.and_then(|game| store.peek(game)) {
        store.persist(&shared)?;
    }
    // The token is handed out only once it is stored.
    store.store_group(&mut group)?;
    let mut you = yours(&headers, &group);
    you.push(member);
    Ok(answer(
        &store,
        &group,
        &you,
        StatusCode::CREATED,
        Some((member, &token)),
    ))
}

/// `PUT /api/groups/{id}/settings`: the creator's new settings, between
/// games.
pub async fn change_settings(
    State(store): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let request: SettingsRequest = api::body(&bytes)?;
    let shared = get_group(&store, &id)?;
    let mut group = lock(&shared);
    creator_only(&headers, &group)?;
    if !between_games(&store, &group) {
        return Err(ApiError::conflict(Message::BetweenGamesOnly));
    }
    settle(&store, &mut group);
    group.settings = group_settings(request, group.members.len(), store.limits.max_think_ms)?;
    group.pulse.bump();
    store.store_group(&mut group)?;
    let you = yours(&headers, &group);
    Ok(answer(&store, &group, &you, StatusCode::OK, None))
}

/// `POST /api/groups/{id}/next`: the creator starts the group's next game
/// (the first, or the one after a game ended), the first turn rotated.
pub async fn next(
    State(store): AppState,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer {
    let shared = get_group(&store, &id)?;
    let mut group = lock(&shared);
    creator_only(&headers, &group)?;
    if !between_games(&store, &group) {
        return Err(ApiError::conflict(Message::BetweenGamesOnly));
    }
    settle(&store, &mut group);
    let kind = group.settings.kind;
    let players = group.players();
    check_players(kind, players)?;
    let count = u8::try_from(players).unwrap_or(u8::MAX);
    let choices = RuleChoices {
        rules: Some(&group.settings.rules),
        anti_blocking: group.settings.anti_blocking,
        play_to_end: group.settings.play_to_end,
    };
    let settings = Settings::new(
        game_settings(kind, count, choices)?,
        group.settings.rotate_first,
        group.settings.turn_seconds,
    )?;
    let now = Instant::now();
    let (seats, binding) = group.seating();
    let mut session = WebGame::new(
        store.new_id(),
        settings,
        seats,
        None,
        store.limits.max_turns,
        now,
    )?;
    session.binding = Some(binding);
    session.pulse = Arc::clone(&group.pulse);
    session.open_as(group.games_played, now);
    let game = session.id;
    let started = store.insert(session, client.ip())?;
    if let Some(old) = group.game.replace(game) {
        // The last game is counted; its place is freed.
        let _ = store.remove(old);
    }
    group.games_played = group.games_played.saturating_add(1);
    group.counted = false;
    group.pulse.bump();
    store.store_group(&mut group)?;
    schedule(&store, &started);
    let you = yours(&headers, &group);
    Ok(answer(&store, &group, &you, StatusCode::CREATED, None))
}
