//! Live updates: `GET /api/groups/{id}/events` and `GET
//! /api/games/{id}/events` as server-sent events. Each event carries the
//! whole state (the group's JSON with its game's, or the game's) and, as
//! its id, the value of the change counter ([`Pulse`]) it was read at; a
//! client that reconnects with `Last-Event-ID` is sent the state at once
//! if anything changed since, and nothing otherwise. The streams are
//! bounded in number and end when their group or game is gone or the
//! server shuts down (docs/SERVE.md, "Live updates").
//!
//! [`Pulse`]: super::pulse::Pulse

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use tokio::sync::watch;

use super::api;
use super::error::ApiError;
use super::group_api;
use super::store::{lock, Store, StreamSlot};
use super::view;

/// Interval of the keep-alive comments, so that proxies keep idle
/// streams open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How often a quiet stream looks whether its group or game is still
/// there (and marks it used: a page watching keeps it from expiring).
const CHECK: Duration = Duration::from_secs(5);

type AppState = State<Arc<Store>>;

/// What a stream follows.
enum Source {
    /// A group, for the device holding these headers (its cookies say
    /// which members it plays for).
    Group(u64, HeaderMap),
    Game(u64),
}

/// A stream's state between events.
struct Feed {
    store: Arc<Store>,
    source: Source,
    changes: watch::Receiver<u64>,
    closing: watch::Receiver<bool>,
    /// The id of the last event sent (or the client's `Last-Event-ID`).
    sent: Option<u64>,
    _slot: StreamSlot,
    _presence: Option<Presence>,
}

/// The members a group's stream holds present while it is open (the away
/// rule, docs/SERVE.md).
struct Presence {
    store: Arc<Store>,
    group: u64,
    members: Vec<usize>,
}

impl Drop for Presence {
    fn drop(&mut self) {
        group_api::leave(&self.store, self.group, &self.members);
    }
}

impl Feed {
    /// The state to send; `None` once the group or game is gone.
    fn snapshot(&self) -> Option<Value> {
        match &self.source {
            Source::Group(id, headers) => group_api::snapshot(&self.store, *id, headers),
            Source::Game(id) => {
                let now = Instant::now();
                let shared = self.store.get(*id, now).ok()?;
                let state = view::state(&lock(&shared), now);
                Some(state)
            }
        }
    }

    /// The next event, or `None` when the stream ends.
    async fn next(mut self) -> Option<(Result<Event, Infallible>, Feed)> {
        loop {
            if *self.closing.borrow() {
                return None;
            }
            let current = *self.changes.borrow_and_update();
            if self.sent.is_none_or(|sent| sent < current) {
                let data = self.snapshot()?;
                self.sent = Some(current);
                let event = Event::default()
                    .id(current.to_string())
                    .data(data.to_string());
                return Some((Ok(event), self));
            }
            tokio::select! {
                changed = self.changes.changed() => {
                    // The counter's owners are all gone: so is the source.
                    changed.ok()?;
                }
                _ = self.closing.changed() => {}
                () = tokio::time::sleep(CHECK) => {
                    self.snapshot()?;
                }
            }
        }
    }
}

/// The client's `Last-Event-ID`, if it is one of ours and not ahead of
/// the counter (a counter of an earlier server is ignored).
fn last_event_id(headers: &HeaderMap, current: u64) -> Option<u64> {
    headers
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.trim().parse::<u64>().ok())
        .filter(|&id| id <= current)
}

fn stream(feed: Feed) -> Response {
    let events = futures_util::stream::unfold(feed, Feed::next);
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response()
}

/// `GET /api/groups/{id}/events`: the group's live updates.
pub async fn group(
    State(store): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id = group_api::group_id(&id)?;
    let shared = store.group(id, Instant::now())?;
    let changes = lock(&shared).pulse.watch();
    let slot = store.open_stream(true, id)?;
    let sent = last_event_id(&headers, *changes.borrow());
    let presence = Presence {
        store: Arc::clone(&store),
        group: id,
        members: group_api::arrive(&store, id, &headers),
    };
    let feed = Feed {
        closing: store.closing(),
        store,
        source: Source::Group(id, headers),
        changes,
        sent,
        _slot: slot,
        _presence: Some(presence),
    };
    Ok(stream(feed))
}

/// `GET /api/games/{id}/events`: the game's live updates.
pub async fn game(
    State(store): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id = api::game_id(&id)?;
    let shared = store.get(id, Instant::now())?;
    let changes = lock(&shared).pulse.watch();
    let slot = store.open_stream(false, id)?;
    let sent = last_event_id(&headers, *changes.borrow());
    let feed = Feed {
        closing: store.closing(),
        store,
        source: Source::Game(id),
        changes,
        sent,
        _slot: slot,
        _presence: None,
    };
    Ok(stream(feed))
}
