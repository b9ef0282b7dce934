//! A change counter: bumped on every change of a game or a group, watched
//! by the event streams (docs/SERVE.md, "Live updates"). A group's games
//! share the group's counter, so that a group's stream numbers its events
//! with one rising count across its games.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// Counts a counter starts above for each millisecond since the Unix
/// epoch: a counter made later (after a restart, say) starts above every
/// event id an earlier one gave out, unless that one counted more than
/// this many changes a millisecond.
const PER_MILLISECOND: u64 = 1024;

/// The counter; its value is the id of the latest event.
pub struct Pulse(watch::Sender<u64>);

impl Pulse {
    /// A fresh counter, above every id of the counters made before it (so
    /// that a page that saw an event of the server before a restart takes
    /// the next one as news).
    pub fn new() -> Arc<Pulse> {
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0));
        // Within 2^53, so that a page's script reads it exactly.
        Arc::new(Pulse(watch::Sender::new(
            millis.saturating_mul(PER_MILLISECOND) % (1 << 53) + 1,
        )))
    }

    /// Something changed: the watchers wake.
    pub fn bump(&self) {
        self.0.send_modify(|count| *count += 1);
    }

    /// The latest event's id.
    pub fn value(&self) -> u64 {
        *self.0.borrow()
    }

    /// A watcher of the counter.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.0.subscribe()
    }
}
