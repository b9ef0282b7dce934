//! A change counter: bumped on every change of a game or a group, watched
//! by the event streams (docs/SERVE.md, "Live updates"). A group's games
//! share the group's counter, so that a group's stream numbers its events
//! with one rising count across its games.

use std::sync::Arc;

use tokio::sync::watch;

/// The counter; its value is the id of the latest event.
pub struct Pulse(watch::Sender<u64>);

impl Pulse {
    /// A fresh counter at 1.
    pub fn new() -> Arc<Pulse> {
        Arc::new(Pulse(watch::Sender::new(1)))
    }

    /// Something changed: the watchers wake.
    pub fn bump(&self) {
        self.0.send_modify(|count| *count += 1);
    }

    /// A watcher of the counter.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.0.subscribe()
    }
}
