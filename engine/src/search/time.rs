//! Time management: how long one search may run, for both games.
//!
//! A search gets a *soft* limit (do not start another iteration once it is
//! mostly used; scaled up when the best move keeps changing) and a *hard*
//! limit (abort the running iteration). `movetime` makes both equal.
//! Clock time is split over the moves to go (30 when the clock has no
//! `movestogo`), plus most of the increment, and the hard limit never
//! exceeds a fraction of the time left, so the engine cannot lose on time.
//! Every number of that rule is a named constant at the top of the module.

use std::time::{Duration, Instant};

use crate::search::SearchLimits;

/// The time budget of one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

// The parameters of the time manager. Fractions are written as a
// numerator and a denominator so that the budget stays exact `Duration`
// arithmetic.

/// Safety margin kept on the clock beyond the protocol's move overhead.
const CLOCK_RESERVE: Duration = Duration::from_millis(5);
/// Moves the clock is split over when it has no `movestogo`.
const DEFAULT_MOVES_TO_GO: u32 = 30;
/// `movestogo` is clamped to `1..=MAX_MOVES_TO_GO`: a longer control is
/// budgeted as this many moves (never a vanishing share per move).
const MAX_MOVES_TO_GO: u32 = 50;
/// The share of the increment added to each move's base budget (3/4: the
/// rest stays on the clock as a margin).
const INCREMENT_SHARE: (u32, u32) = (3, 4);
/// Hard limit as a multiple of the base budget: an unstable iteration may
/// run this far past the move's share.
const HARD_FACTOR: u32 = 4;
/// Soft limit as a fraction of the base budget (7/10): iterations are
/// usually stopped early, so the base is spent only on unstable moves.
const SOFT_SHARE: (u32, u32) = (7, 10);
/// With moves to go, the hard limit never exceeds this fraction of the
/// usable time (1/2), so the clock always holds the next moves' time.
const HARD_CAP_SHARE: (u32, u32) = (1, 2);
/// The last move before the control may use this fraction of the usable
/// time (4/5): there is no later move to keep time for.
const LAST_MOVE_CAP_SHARE: (u32, u32) = (4, 5);
/// No iteration is started past this fraction of the instability-scaled
/// soft limit: the next one takes several times the previous one.
const START_ITERATION_SHARE: f64 = 0.55;

/// `d` times the fraction `(numerator, denominator)`.
fn share(d: Duration, (numerator, denominator): (u32, u32)) -> Duration {
    d * numerator / denominator
}

impl TimeManager {
    /// The budget for `limits`, starting now. `infinite` ignores all time.
    pub(crate) fn new(limits: &SearchLimits, start: Instant) -> TimeManager {
        let (mut soft, mut hard) = (None, None);
        if !limits.infinite {
            if let Some(mt) = limits.movetime {
                soft = Some(mt);
                hard = Some(mt);
            }
            if let Some(left) = limits.time_left {
                let usable = left.saturating_sub(CLOCK_RESERVE);
                let mtg = limits
                    .moves_to_go
                    .unwrap_or(DEFAULT_MOVES_TO_GO)
                    .clamp(1, MAX_MOVES_TO_GO);
                let base = usable / mtg + share(limits.increment, INCREMENT_SHARE);
                let cap = if mtg == 1 {
                    share(usable, LAST_MOVE_CAP_SHARE)
                } else {
                    share(usable, HARD_CAP_SHARE)
                };
                let h = (base * HARD_FACTOR).min(cap);
                let s = share(base, SOFT_SHARE).min(h);
                soft = Some(soft.map_or(s, |x| x.min(s)));
                hard = Some(hard.map_or(h, |x| x.min(h)));
            }
        }
        TimeManager { start, soft, hard }
    }

    /// Whether the search runs under a time limit.
    pub(crate) fn is_timed(&self) -> bool {
        self.hard.is_some()
    }

    /// The instant of the soft limit, if any: a search that can stop at
    /// any moment (the 6-player Monte Carlo search) spends this much.
    pub(crate) fn soft_deadline(&self) -> Option<Instant> {
        self.soft.map(|s| self.start + s)
    }

    /// The instant of the hard limit, if any.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.hard.map(|h| self.start + h)
    }

    /// Whether the hard limit has passed.
    #[inline]
    pub(crate) fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether to start another iteration, given `instability` (1.0 when
    /// the best move is stable, up to about 2.5 after changes). An
    /// iteration takes several times the previous one, so none is started
    /// past about half the scaled soft limit.
    pub(crate) fn continue_iterating(&self, instability: f64) -> bool {
        match (self.soft, self.hard) {
            (Some(s), Some(h)) => {
                let target = s.mul_f64(instability).min(h);
                self.start.elapsed() < target.mul_f64(START_ITERATION_SHARE)
            }
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_is_a_fraction() {
        let limits = SearchLimits {
            time_left: Some(Duration::from_secs(10)),
            ..SearchLimits::default()
        };
        let tm = TimeManager::new(&limits, Instant::now());
        assert!(tm.hard.unwrap() <= Duration::from_secs(5));
        assert!(tm.soft.unwrap() <= tm.hard.unwrap());
        // A clock's soft limit is the move's share: a fifth of the hard one.
        assert!(tm.soft_deadline().unwrap() < tm.deadline().unwrap());
        assert!(tm.soft.unwrap() * 5 <= tm.hard.unwrap());
        let limits = SearchLimits {
            time_left: Some(Duration::from_millis(3)),
            ..SearchLimits::default()
        };
        let tm = TimeManager::new(&limits, Instant::now());
        assert_eq!(tm.hard.unwrap(), Duration::ZERO);
    }

    #[test]
    fn movetime_is_hard_and_no_limit_is_untimed() {
        let now = Instant::now();
        let limits = SearchLimits {
            movetime: Some(Duration::from_millis(100)),
            ..SearchLimits::default()
        };
        let tm = TimeManager::new(&limits, now);
        assert!(tm.is_timed());
        assert_eq!(tm.deadline(), Some(now + Duration::from_millis(100)));
        assert_eq!(tm.soft_deadline(), tm.deadline());
        let tm = TimeManager::new(&SearchLimits::default(), now);
        assert!(!tm.is_timed() && tm.deadline().is_none() && tm.continue_iterating(1.0));
        let infinite = SearchLimits {
            infinite: true,
            ..limits
        };
        assert!(!TimeManager::new(&infinite, now).is_timed());
    }
}
