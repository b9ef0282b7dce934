//! The store's storage: what it takes in from the data file at startup,
//! and how each change of a game or group reaches the file (docs/SERVE.md,
//! "Storage").

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use damas::Game;

use super::super::db::{Db, DbError};
use super::super::error::ApiError;
use super::super::group::Group;
use super::super::messages::Message;
use super::super::saved;
use super::super::session::WebGame;
use super::{lock, Entry, Shared, Store};

/// A write that failed: said once on the standard error, answered as a
/// change not stored.
pub(super) fn not_stored(what: &str, id: u64, error: &DbError) -> ApiError {
    eprintln!("damas serve: storing {what} {id:016x} failed: {error}");
    ApiError::full(Message::NotStored)
}

impl Store {
    /// Takes in every group and game of the data file; a record that no
    /// longer reads is left in the file and said on the standard error.
    /// Returns how many groups and games were taken.
    pub fn restore(&self) -> Result<(usize, usize), String> {
        let Some(db) = &self.db else {
            return Ok((0, 0));
        };
        let stored = db
            .load()
            .map_err(|e| format!("cannot read the data file: {e}"))?;
        let now = Instant::now();
        let mut groups = lock(&self.groups);
        for row in stored.groups {
            let idle = Duration::from_secs(row.idle_secs);
            match saved::restore_group(row.id, &row.record, idle, self.limits.max_think_ms, now) {
                Ok(group) => {
                    groups
                        .live
                        .insert(row.id, (Arc::new(Mutex::new(group)), row.client));
                    *groups.per_client.entry(row.client).or_default() += 1;
                }
                Err(why) => eprintln!("damas serve: group {:016x} not restored: {why}", row.id),
            }
        }
        let mut games = lock(&self.games);
        for (row, turns) in stored.games {
            let restored =
                saved::restore_game(row.id, &row.record, &turns, self.limits.max_turns, now);
            let mut session = match restored {
                Ok(session) => session,
                Err(why) => {
                    eprintln!("damas serve: game {:016x} not restored: {why}", row.id);
                    continue;
                }
            };
            session.last_access = now
                .checked_sub(Duration::from_secs(row.idle_secs))
                .unwrap_or(now);
            // A group's game shares its group's counter.
            let group = session
                .binding
                .as_ref()
                .and_then(|binding| groups.live.get(&binding.group));
            if let Some((group, _)) = group {
                session.pulse = Arc::clone(&lock(group).pulse);
            }
            games.live.insert(
                row.id,
                Entry {
                    shared: Arc::new(Mutex::new(session)),
                    client: row.client,
                },
            );
            *games.per_client.entry(row.client).or_default() += 1;
        }
        Ok((groups.live.len(), games.live.len()))
    }

    /// Stores the changes of the game behind `shared` since it was last
    /// stored: a request's answer waits for this.
    pub fn persist(&self, shared: &Shared) -> Result<(), ApiError> {
        self.store_game(&mut lock(shared))
    }

    /// Stores the changes of `session` since it was last stored: its
    /// record, and its turns past those stored (an undo or a new game cuts
    /// them back first).
    pub fn store_game(&self, session: &mut WebGame) -> Result<(), ApiError> {
        let Some(db) = &self.db else {
            return Ok(());
        };
        if session.stored_version == session.version || session.is_closed() {
            return Ok(());
        }
        let record = saved::game_record(session);
        let turns = session.game.turns();
        let kept = session.stored_turns.min(turns.len());
        let added: Vec<(usize, &str)> = turns[kept..]
            .iter()
            .map(|turn| (turn.player.index(), turn.text.as_str()))
            .collect();
        db.save_game(session.id, &record, kept, &added)
            .map_err(|e| not_stored("game", session.id, &e))?;
        session.stored_turns = turns.len();
        session.stored_version = session.version;
        Ok(())
    }

    /// Stores the group's changes since it was last stored.
    pub fn store_group(&self, group: &mut Group) -> Result<(), ApiError> {
        let Some(db) = &self.db else {
            return Ok(());
        };
        let pulse = group.pulse.value();
        if group.stored_pulse == pulse {
            return Ok(());
        }
        db.save_group(group.id, &saved::group_record(group))
            .map_err(|e| not_stored("group", group.id, &e))?;
        group.stored_pulse = pulse;
        Ok(())
    }

    /// Stores every change not stored yet (an engine's move, a member gone
    /// away); a failure is said and tried again next time.
    pub(super) fn store_all(&self, games: &[Shared]) {
        // Without a data file there is nothing to store: no lock is taken.
        if self.db.is_none() {
            return;
        }
        for shared in games {
            let _ = self.persist(shared);
        }
        for shared in self.groups() {
            let _ = self.store_group(&mut lock(&shared));
        }
    }

    /// The server stops: the data file is left whole.
    pub fn close_data(&self) {
        if let Some(Err(e)) = self.db.as_ref().map(Db::checkpoint) {
            eprintln!("damas serve: closing the data file failed: {e}");
        }
    }

    /// Removes the rows of what was dropped, and gives the freed pages
    /// back.
    pub(super) fn forget_stored(&self, games: &[u64], groups: &[u64]) {
        let Some(db) = &self.db else {
            return;
        };
        for &id in games {
            if let Err(e) = db.delete_game(id) {
                eprintln!("damas serve: removing game {id:016x} failed: {e}");
            }
        }
        for &id in groups {
            if let Err(e) = db.delete_group(id) {
                eprintln!("damas serve: removing group {id:016x} failed: {e}");
            }
        }
        if !games.is_empty() || !groups.is_empty() {
            if let Err(e) = db.reclaim() {
                eprintln!("damas serve: shrinking the data file failed: {e}");
            }
        }
    }
}
