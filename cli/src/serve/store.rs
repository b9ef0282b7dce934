//! The games the server holds, the engine scheduling and the expiry of
//! idle games.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::error::ApiError;
use super::pool::{Job, Pool};
use super::session::{Seat, Session};

/// The server's limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most games held at once.
    pub max_games: usize,
    /// A game nobody asked about for this long is dropped.
    pub idle: Duration,
    /// Cap on any engine's time per move.
    pub max_think_ms: u32,
    /// Who plays a person's turn when their time runs out.
    pub timeout_seat: Seat,
}

/// A session behind its lock.
pub type Shared = Arc<Mutex<Session>>;

/// Locks a mutex even if a thread panicked while holding it: the data is
/// plain game state, still consistent between operations.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Every game and the engine pool.
pub struct Store {
    games: Mutex<HashMap<u64, Shared>>,
    pub limits: Limits,
    pub pool: Pool,
}

impl Store {
    pub fn new(limits: Limits, pool: Pool) -> Store {
        Store {
            games: Mutex::new(HashMap::new()),
            limits,
            pool,
        }
    }

    /// A fresh random game id (not a secret: the server is for one
    /// household, on the loopback by default).
    pub fn new_id(&self) -> u64 {
        loop {
            let id = fastrand::u64(1..);
            if !lock(&self.games).contains_key(&id) {
                return id;
            }
        }
    }

    /// Adds a game, refused when the server is full.
    pub fn insert(&self, session: Session) -> Result<Shared, ApiError> {
        let mut games = lock(&self.games);
        if games.len() >= self.limits.max_games {
            return Err(ApiError::full(format!(
                "the server holds {} games, its limit; try again later",
                games.len()
            )));
        }
        let id = session.id;
        let shared = Arc::new(Mutex::new(session));
        games.insert(id, Arc::clone(&shared));
        Ok(shared)
    }

    /// The game with this id (marked as used).
    pub fn get(&self, id: u64, now: Instant) -> Result<Shared, ApiError> {
        let shared = lock(&self.games)
            .get(&id)
            .cloned()
            .ok_or_else(|| ApiError::not_found("no such game (it may have expired)"))?;
        lock(&shared).last_access = now;
        Ok(shared)
    }

    /// Drops a game, stopping its search.
    pub fn remove(&self, id: u64) -> Result<(), ApiError> {
        let shared = lock(&self.games)
            .remove(&id)
            .ok_or_else(|| ApiError::not_found("no such game (it may have expired)"))?;
        lock(&shared).cancel_search();
        Ok(())
    }

    /// Drops the games idle since `now - idle`; returns the others.
    pub fn expire(&self, now: Instant) -> Vec<Shared> {
        let mut games = lock(&self.games);
        let idle = self.limits.idle;
        games.retain(|_, shared| {
            let mut session = lock(shared);
            let keep = now.saturating_duration_since(session.last_access) < idle;
            if !keep {
                session.cancel_search();
            }
            keep
        });
        games.values().cloned().collect()
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
        lock(&shared).finish_search(token, best, Instant::now());
        schedule(&store, &shared);
    });
}

/// Every `tick`: expire idle games and start the engine for people whose
/// time ran out.
pub async fn keep(store: Arc<Store>, tick: Duration) {
    let mut interval = tokio::time::interval(tick);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        for shared in store.expire(Instant::now()) {
            schedule(&store, &shared);
        }
    }
}
