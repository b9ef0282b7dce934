//! The deepest iteration any search thread has completed (Lazy SMP): each
//! thread offers the iterations it completes, the main thread adopts one
//! deeper than its own. Written once per iteration, so the lock is never
//! contended inside the tree.

use std::sync::Mutex;

/// The deepest completed iteration's result and its depth.
pub(crate) struct Deepest<T> {
    result: Mutex<Option<(u32, T)>>,
}

impl<T: Clone> Deepest<T> {
    /// Nothing completed yet.
    pub(crate) fn new() -> Deepest<T> {
        Deepest {
            result: Mutex::new(None),
        }
    }

    /// Records `result` of an iteration completed at `depth`, unless one
    /// at least as deep is recorded.
    pub(crate) fn offer(&self, depth: u32, result: &T) {
        let mut guard = self.result.lock().unwrap_or_else(|e| e.into_inner());
        if guard.as_ref().is_none_or(|(d, _)| depth > *d) {
            *guard = Some((depth, result.clone()));
        }
    }

    /// The deepest result if it is deeper than `depth`.
    pub(crate) fn deeper_than(&self, depth: u32) -> Option<(u32, T)> {
        let guard = self.result.lock().unwrap_or_else(|e| e.into_inner());
        guard.as_ref().filter(|(d, _)| *d > depth).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_deeper_iterations_replace() {
        let deepest = Deepest::new();
        assert_eq!(deepest.deeper_than(0), None);
        deepest.offer(3, &"three");
        deepest.offer(2, &"two");
        deepest.offer(3, &"other three");
        assert_eq!(deepest.deeper_than(2), Some((3, "three")));
        assert_eq!(deepest.deeper_than(3), None);
        deepest.offer(5, &"five");
        assert_eq!(deepest.deeper_than(3), Some((5, "five")));
    }
}
