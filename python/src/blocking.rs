//! Long computations (perft, divide, searches) run without the GIL, on a
//! helper thread, while the calling thread waits with the GIL released and
//! looks at Python's signals: Ctrl-C raises the computation's stop flag and
//! then the `KeyboardInterrupt`, so no count or search holds the
//! interpreter hostage.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the waiting thread looks at Python's signals.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a helper thread with the GIL released and returns its
/// result. Raises `stop` on a signal (Ctrl-C) and returns the signal's
/// exception once `work` has returned; `work` must give up soon after
/// `stop` is raised.
pub fn run_interruptible<T, F>(py: Python<'_>, stop: &AtomicBool, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let handle = scope.spawn(move || {
            // The receiver outlives the helper unless the waiting thread
            // panicked, and then the result has no reader anyway.
            let _ = sender.send(work());
        });
        let mut receiver = receiver;
        let mut interrupt: Option<PyErr> = None;
        loop {
            let (answer, back) = py.detach(move || {
                let answer = receiver.recv_timeout(SIGNAL_POLL);
                (answer, receiver)
            });
            receiver = back;
            match answer {
                Ok(value) => {
                    // The helper has sent its last word; joining only reaps it.
                    let _ = handle.join();
                    return match interrupt {
                        Some(error) => Err(error),
                        None => Ok(value),
                    };
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    // The helper panicked before sending (a library bug):
                    // report it instead of unwinding into Python.
                    let _ = handle.join();
                    return Err(PyRuntimeError::new_err(
                        "internal error in the damas library (a panic); please report it",
                    ));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if interrupt.is_none() {
                        if let Err(error) = py.check_signals() {
                            stop.store(true, Ordering::Relaxed);
                            interrupt = Some(error);
                        }
                    }
                }
            }
        }
    })
}
