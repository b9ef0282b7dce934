//! The games the server holds, the engine scheduling and the expiry of
//! idle games.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use damas::Game;
use tokio::sync::{oneshot, watch};

use super::db::Db;
use super::error::ApiError;
use super::group::Group;
use super::messages::Message;
use super::pool::{Job, Pool};
use super::saved;
use super::session::{Seat, WebGame};

mod persist;

use persist::not_stored;

/// The server's limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most games held at once.
    pub max_games: usize,
    /// Most games held at once for one client address.
    pub max_games_per_client: usize,
    /// A game nobody asked about for this long is dropped.
    pub idle: Duration,
    /// A group (and its game) nobody used for this long is dropped.
    pub group_idle: Duration,
    /// Cap on any engine's time per move.
    pub max_think_ms: u32,
    /// Longest game, in turns.
    pub max_turns: u32,
    /// Who plays a person's turn when their time runs out.
    pub timeout_seat: Seat,
    /// Most event streams open at once.
    pub max_streams: usize,
    /// How long a group member's device may be gone (no stream, no
    /// request) before the engine plays their seat.
    pub away: Duration,
}

/// Most event streams open at once for one group or game.
pub const MAX_STREAMS_PER_SOURCE: usize = 16;

/// The event streams open: in all and for each group (`true`) or game.
#[derive(Default)]
struct Streams {
    total: usize,
    per_source: HashMap<(bool, u64), usize>,
}

/// An open event stream's place in the count, given back when it is
/// dropped.
pub struct StreamSlot {
    store: Arc<Store>,
    key: (bool, u64),
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut streams = lock(&self.store.streams);
        streams.total = streams.total.saturating_sub(1);
        if let Some(count) = streams.per_source.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                streams.per_source.remove(&self.key);
            }
        }
    }
}

/// A session behind its lock.
pub type Shared = Arc<Mutex<WebGame>>;

/// Locks a mutex even if a thread panicked while holding it: the data is
/// plain game state, still consistent between operations.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A game held, and the client that made it.
struct Entry {
    shared: Shared,
    client: IpAddr,
}

/// The games held: those in play, and those removed (deleted or expired)
/// whose stopped search has not yet come back from the pool. Both count
/// against the limits, so that deleting games in a loop cannot pile up
/// searches and memory past them.
#[derive(Default)]
struct Games {
    live: HashMap<u64, Entry>,
    removed: HashMap<u64, Entry>,
    per_client: HashMap<IpAddr, usize>,
}

impl Games {
    fn held(&self) -> usize {
        self.live.len() + self.removed.len()
    }

    /// Closes a game taken out of `live`: kept among the removed until its
    /// search comes back, freed now otherwise.
    fn close(&mut self, id: u64, entry: Entry) {
        if lock(&entry.shared).close() {
            self.removed.insert(id, entry);
        } else {
            self.release(&entry);
        }
    }

    fn release(&mut self, entry: &Entry) {
        if let Some(count) = self.per_client.get_mut(&entry.client) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.per_client.remove(&entry.client);
            }
        }
    }
}

/// A group behind its lock. Lock order: a group, then the games map, then
/// a game; never a group while holding a game.
pub type SharedGroup = Arc<Mutex<Group>>;

/// The groups held, and the client that made each; bounded like the
/// games (`--max-games` in all, `--max-games-per-client` for one client).
#[derive(Default)]
struct Groups {
    live: HashMap<u64, (SharedGroup, IpAddr)>,
    per_client: HashMap<IpAddr, usize>,
}

/// Every game and group, and the engine pool.
pub struct Store {
    games: Mutex<Games>,
    groups: Mutex<Groups>,
    streams: Mutex<Streams>,
    /// Set when the server shuts down: the event streams end.
    closing: watch::Sender<bool>,
    /// The data file; `None` with `--data memory`.
    db: Option<Db>,
    pub limits: Limits,
    pub pool: Pool,
}

impl Store {
    /// A store over `db` (`None`: nothing is kept past the process).
    pub fn new(limits: Limits, pool: Pool, db: Option<Db>) -> Store {
        Store {
            games: Mutex::new(Games::default()),
            groups: Mutex::new(Groups::default()),
            streams: Mutex::new(Streams::default()),
            closing: watch::Sender::new(false),
            db,
            limits,
            pool,
        }
    }

    /// A place for one more event stream of the group (`group`) or game
    /// `id`, refused past [`MAX_STREAMS_PER_SOURCE`] for it or
    /// [`Limits::max_streams`] in all.
    pub fn open_stream(self: &Arc<Self>, group: bool, id: u64) -> Result<StreamSlot, ApiError> {
        let mut streams = lock(&self.streams);
        if streams.total >= self.limits.max_streams {
            return Err(ApiError::full(Message::TooManyStreams {
                open: streams.total,
                one: false,
            }));
        }
        let key = (group, id);
        let open = streams.per_source.get(&key).copied().unwrap_or(0);
        if open >= MAX_STREAMS_PER_SOURCE {
            return Err(ApiError::too_many(Message::TooManyStreams {
                open,
                one: true,
            }));
        }
        streams.total += 1;
        *streams.per_source.entry(key).or_default() += 1;
        Ok(StreamSlot {
            store: Arc::clone(self),
            key,
        })
    }

    /// Whether the server is shutting down, watched.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// The server shuts down: every event stream ends.
    pub fn close_streams(&self) {
        self.closing.send_replace(true);
    }

    /// A fresh random game id (not a secret: the server is for one
    /// household, on the loopback by default).
    pub fn new_id(&self) -> u64 {
        loop {
            let id = fastrand::u64(1..);
            let games = lock(&self.games);
            if !games.live.contains_key(&id) && !games.removed.contains_key(&id) {
                return id;
            }
        }
    }

    /// A fresh random group id (not a secret: the invitation link carries
    /// it; the seats are the tokens').
    pub fn new_group_id(&self) -> u64 {
        loop {
            let id = fastrand::u64(1..);
            if !lock(&self.groups).live.contains_key(&id) {
                return id;
            }
        }
    }

    /// Adds a group made by `client`, refused when the server or the client
    /// holds as many as it may.
    pub fn insert_group(&self, group: Group, client: IpAddr) -> Result<SharedGroup, ApiError> {
        let mut groups = lock(&self.groups);
        let held = groups.live.len();
        if held >= self.limits.max_games {
            return Err(ApiError::full(Message::TooManyGroups {
                held,
                client: false,
            }));
        }
        let mine = groups.per_client.get(&client).copied().unwrap_or(0);
        if mine >= self.limits.max_games_per_client {
            return Err(ApiError::too_many(Message::TooManyGroups {
                held: mine,
                client: true,
            }));
        }
        let id = group.id;
        let mut group = group;
        if let Some(db) = &self.db {
            db.insert_group(id, client, &saved::group_record(&group))
                .map_err(|e| not_stored("group", id, &e))?;
            group.stored_pulse = group.pulse.value();
        }
        let shared = Arc::new(Mutex::new(group));
        groups.live.insert(id, (Arc::clone(&shared), client));
        *groups.per_client.entry(client).or_default() += 1;
        Ok(shared)
    }

    /// The group with this id (marked as used).
    pub fn group(&self, id: u64, now: Instant) -> Result<SharedGroup, ApiError> {
        let shared = lock(&self.groups)
            .live
            .get(&id)
            .map(|(shared, _)| Arc::clone(shared))
            .ok_or_else(|| ApiError::not_found(Message::NoGroup))?;
        lock(&shared).last_access = now;
        Ok(shared)
    }

    /// The group with this id, not marked as used.
    pub fn peek_group(&self, id: u64) -> Option<SharedGroup> {
        lock(&self.groups)
            .live
            .get(&id)
            .map(|(shared, _)| Arc::clone(shared))
    }

    /// Every group held.
    pub fn groups(&self) -> Vec<SharedGroup> {
        lock(&self.groups)
            .live
            .values()
            .map(|(shared, _)| Arc::clone(shared))
            .collect()
    }

    /// The game with this id, not marked as used.
    pub fn peek(&self, id: u64) -> Option<Shared> {
        lock(&self.games)
            .live
            .get(&id)
            .map(|entry| Arc::clone(&entry.shared))
    }

    /// Whether the game `id` is held (not removed nor expired).
    pub fn is_live(&self, id: u64) -> bool {
        lock(&self.games).live.contains_key(&id)
    }

    /// Drops the groups idle since `now - group_idle` whose game is gone
    /// too.
    pub fn expire_groups(&self, now: Instant) {
        let idle = self.limits.group_idle;
        let candidates: Vec<(u64, SharedGroup)> = lock(&self.groups)
            .live
            .iter()
            .map(|(&id, (shared, _))| (id, Arc::clone(shared)))
            .collect();
        let mut dropped = Vec::new();
        for (id, shared) in candidates {
            let expired = {
                let group = lock(&shared);
                now.saturating_duration_since(group.last_access) >= idle
                    && group.game.is_none_or(|game| !self.is_live(game))
            };
            if expired {
                let mut groups = lock(&self.groups);
                if let Some((_, client)) = groups.live.remove(&id) {
                    dropped.push(id);
                    if let Some(count) = groups.per_client.get_mut(&client) {
                        *count = count.saturating_sub(1);
                        if *count == 0 {
                            groups.per_client.remove(&client);
                        }
                    }
                }
            }
        }
        self.forget_stored(&[], &dropped);
    }

    /// Adds a game made by `client`, refused when the server or the
    /// client holds as many as it may.
    pub fn insert(&self, session: WebGame, client: IpAddr) -> Result<Shared, ApiError> {
        let mut games = lock(&self.games);
        if games.held() >= self.limits.max_games {
            return Err(ApiError::full(Message::ServerFull(games.held())));
        }
        let mine = games.per_client.get(&client).copied().unwrap_or(0);
        if mine >= self.limits.max_games_per_client {
            return Err(ApiError::too_many(Message::ClientFull(mine)));
        }
        let id = session.id;
        let mut session = session;
        if let Some(db) = &self.db {
            let turns = session.game.turns();
            let played: Vec<(usize, &str)> = turns
                .iter()
                .map(|turn| (turn.player.index(), turn.text.as_str()))
                .collect();
            db.insert_game(id, client, &saved::game_record(&session), &played)
                .map_err(|e| not_stored("game", id, &e))?;
            session.stored_turns = turns.len();
            session.stored_version = session.version;
        }
        let shared = Arc::new(Mutex::new(session));
        games.live.insert(
            id,
            Entry {
                shared: Arc::clone(&shared),
                client,
            },
        );
        *games.per_client.entry(client).or_default() += 1;
        Ok(shared)
    }

    /// The game with this id (marked as used).
    pub fn get(&self, id: u64, now: Instant) -> Result<Shared, ApiError> {
        let shared = lock(&self.games)
            .live
            .get(&id)
            .map(|entry| Arc::clone(&entry.shared))
            .ok_or_else(|| ApiError::not_found(Message::NoGame { expired: true }))?;
        lock(&shared).last_access = now;
        Ok(shared)
    }

    /// Drops a game, stopping its search.
    pub fn remove(&self, id: u64) -> Result<(), ApiError> {
        let mut games = lock(&self.games);
        let entry = games
            .live
            .remove(&id)
            .ok_or_else(|| ApiError::not_found(Message::NoGame { expired: true }))?;
        games.close(id, entry);
        drop(games);
        self.forget_stored(&[id], &[]);
        Ok(())
    }

    /// The stopped search of the removed game `id` came back: the game is
    /// gone.
    fn forget(&self, id: u64) {
        let mut games = lock(&self.games);
        if let Some(entry) = games.removed.remove(&id) {
            games.release(&entry);
        }
    }

    /// Drops the games idle since `now - idle` (a group's game: since
    /// `now - group_idle`); returns the others.
    pub fn expire(&self, now: Instant) -> Vec<Shared> {
        let mut games = lock(&self.games);
        let expired: Vec<u64> = games
            .live
            .iter()
            .filter(|(_, entry)| {
                let session = lock(&entry.shared);
                let idle = if session.binding.is_some() {
                    self.limits.group_idle
                } else {
                    self.limits.idle
                };
                now.saturating_duration_since(session.last_access) >= idle
            })
            .map(|(&id, _)| id)
            .collect();
        for &id in &expired {
            if let Some(entry) = games.live.remove(&id) {
                games.close(id, entry);
            }
        }
        let live = games
            .live
            .values()
            .map(|entry| Arc::clone(&entry.shared))
            .collect();
        drop(games);
        self.forget_stored(&expired, &[]);
        live
    }
}

/// Starts the engine's turn for `shared` if it is the engine's to play,
/// and plays the answer when it comes (then looks again, for the next
/// engine seat).
pub fn schedule(store: &Arc<Store>, shared: &Shared) {
    let now = Instant::now();
    let (order, game_id) = {
        let mut session = lock(shared);
        let order = session.begin_search(now, store.limits.timeout_seat, store.limits.max_think_ms);
        (order, session.id)
    };
    let Some(order) = order else { return };
    let (reply, answer) = oneshot::channel();
    let token = order.token;
    let job = Job {
        game_id,
        game: order.game,
        limits: order.limits,
        options: order.options,
        stop: order.stop,
        analysis: order.analysis,
        reply,
    };
    if !store.pool.submit(job) {
        lock(shared).search_failed(token);
        return;
    }
    let store = Arc::clone(store);
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        // A dropped sender (a stopped job) is an answer of no move.
        let best = answer.await.ok().flatten();
        let (closed, pending) = {
            let mut session = lock(&shared);
            let pending = session.answered();
            if !session.is_closed() {
                session.finish_search(token, best, Instant::now());
                // A failure is said, and tried again by the keeper.
                let _ = store.store_game(&mut session);
            }
            (session.is_closed(), pending)
        };
        if !closed {
            schedule(&store, &shared);
        } else if !pending {
            store.forget(game_id);
        }
    });
}

/// Every `tick`: expire idle games and start the engine for people whose
/// time ran out.
pub async fn keep(store: Arc<Store>, tick: Duration) {
    let mut interval = tokio::time::interval(tick);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        let now = Instant::now();
        let live = store.expire(now);
        store.store_all(&live);
        for shared in live {
            schedule(&store, &shared);
        }
        store.expire_groups(now);
    }
}
