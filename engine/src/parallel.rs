//! The parallel part of both games' perft: counting a frontier of
//! positions on a local thread pool.

#[cfg(feature = "rayon")]
use rayon::prelude::*;

/// The sum of `count` over `frontier`, on `threads` threads of a local
/// rayon pool (0: every core); `None` when any count gave up (its stop flag
/// was raised). Without the `rayon` feature, or if the pool cannot be
/// built, the frontier is counted on the calling thread.
pub(crate) fn sum_counts<P: Sync>(
    frontier: &[P],
    threads: usize,
    count: impl Fn(&P) -> Option<u64> + Sync,
) -> Option<u64> {
    #[cfg(feature = "rayon")]
    if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        return pool.install(|| frontier.par_iter().map(&count).sum());
    }
    let _ = threads;
    frontier.iter().map(count).sum()
}
