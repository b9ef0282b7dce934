//! Running a child process with a bound on its time, and checking the
//! memory of the processes a test waited for.

// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::Read;
use std::process::{Child, Output};
use std::time::{Duration, Instant};

/// Waits for `child`, collecting its piped output; past `limit` it is
/// killed and the test fails.
pub fn wait_bounded(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let readers = [
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(out) = stdout.as_mut() {
                let _ = out.read_to_end(&mut text);
            }
            text
        }),
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(err) = stderr.as_mut() {
                let _ = err.read_to_end(&mut text);
            }
            text
        }),
    ];
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the child took more than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let [out, err] = readers.map(|reader| reader.join().expect("reader"));
    Output {
        status,
        stdout: out,
        stderr: err,
    }
}

/// The largest resident size of any process this test binary has waited
/// for (and of the processes they waited for) stayed under `max_kib`.
pub fn assert_children_stayed_small(max_kib: i64) {
    // SAFETY: getrusage writes only into the zeroed struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(rc, 0);
    assert!(
        usage.ru_maxrss < max_kib,
        "a child grew to {} KiB",
        usage.ru_maxrss
    );
}
