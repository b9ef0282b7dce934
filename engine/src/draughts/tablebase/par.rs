//! Parallel maps on rayon when the `rayon` feature is on, sequential
//! otherwise.

/// `f` over `0..n`, results in order.
pub(crate) fn map_range<R: Send>(n: usize, f: impl Fn(usize) -> R + Sync + Send) -> Vec<R> {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        (0..n).into_par_iter().map(f).collect()
    }
    #[cfg(not(feature = "rayon"))]
    {
        (0..n).map(f).collect()
    }
}

/// Runs `f` on a pool of `threads` threads (0: every core); without rayon,
/// on this thread.
pub(crate) fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "rayon")]
    {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(f),
            Err(_) => f(),
        }
    }
    #[cfg(not(feature = "rayon"))]
    {
        let _ = threads;
        f()
    }
}
