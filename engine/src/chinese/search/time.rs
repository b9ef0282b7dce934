//! Time management: how long one `go` may think.

use std::time::{Duration, Instant};

use crate::search::SearchLimits;

/// When to stop: `soft` is checked between iterations (do not start a new
/// one after it), `hard` inside the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start another iteration after this instant.
    pub soft: Option<Instant>,
    /// Abort the search at this instant.
    pub hard: Option<Instant>,
}

/// The budget of a search started at `start` under `limits` (times are
/// already net of the move overhead). `infinite` and depth/nodes-only
/// searches get no deadline.
pub fn budget(limits: &SearchLimits, start: Instant) -> Budget {
    if limits.infinite {
        return Budget {
            soft: None,
            hard: None,
        };
    }
    if let Some(mt) = limits.movetime {
        // A small margin for returning the move.
        let margin = (mt / 50).min(Duration::from_millis(10));
        let hard = start + mt.saturating_sub(margin);
        return Budget {
            soft: Some(hard),
            hard: Some(hard),
        };
    }
    if let Some(left) = limits.time_left {
        let togo = limits.moves_to_go.unwrap_or(30).clamp(1, 50);
        let base = left / togo + limits.increment * 3 / 4;
        let hard = base.saturating_mul(3).min(left / 3);
        let soft = base.min(hard);
        return Budget {
            soft: Some(start + soft * 6 / 10),
            hard: Some(start + hard),
        };
    }
    Budget {
        soft: None,
        hard: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_and_clock() {
        let now = Instant::now();
        let b = budget(
            &SearchLimits {
                movetime: Some(Duration::from_millis(100)),
                ..SearchLimits::default()
            },
            now,
        );
        assert!(b.hard.unwrap() <= now + Duration::from_millis(100));
        let b = budget(
            &SearchLimits {
                time_left: Some(Duration::from_secs(60)),
                ..SearchLimits::default()
            },
            now,
        );
        assert!(b.hard.unwrap() <= now + Duration::from_secs(20));
        assert!(b.soft.unwrap() < b.hard.unwrap());
        assert_eq!(budget(&SearchLimits::default(), now).hard, None);
    }
}
