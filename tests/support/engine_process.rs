//! Drives the real `damas` binary over pipes, for the end-to-end tests.

// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// How long any single expected reply may take before the test fails. Only
/// a guard against hangs: no test asserts speed with it.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running engine with line-based access to its stdin and stdout.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts the binary in protocol mode.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the damas binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// The process id, to read its memory use from `/proc`.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        writeln!(stdin, "{line}").expect("engine reads its input");
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes as they are.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("engine reads its input");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's input (EOF).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next output line, or `None` after `wait` with no line.
    pub fn next_line_within(&mut self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// The next output line; fails the test on a hang.
    pub fn next_line(&mut self) -> String {
        self.next_line_within(PATIENCE)
            .expect("the engine answered in time")
    }

    /// Reads lines until one satisfies `wanted`; returns all lines read,
    /// the matching one last.
    pub fn read_until(&mut self, wanted: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .next_line_within(left)
                .unwrap_or_else(|| panic!("no matching line; saw {seen:?}"));
            let done = wanted(&line);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Sends a line and returns the single reply line.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.next_line()
    }

    /// Sends `query <what>` and returns the value after `response`.
    pub fn query(&mut self, what: &str) -> String {
        let reply = self.ask(&format!("query {what}"));
        reply
            .strip_prefix("response ")
            .unwrap_or_else(|| panic!("not a response: {reply}"))
            .to_string()
    }

    /// Asserts that the engine is alive and has nothing else queued.
    pub fn assert_ready(&mut self) {
        assert_eq!(self.ask("isready"), "readyok");
    }

    /// Sends `go ...` and returns the move of `bestmove`, checking it has
    /// exactly two tokens.
    pub fn go(&mut self, limits: &str) -> String {
        self.send(&format!("go {limits}"));
        let lines = self.read_until(|l| l.starts_with("bestmove"));
        let last = lines.last().expect("bestmove line");
        let tokens: Vec<&str> = last.split_whitespace().collect();
        assert_eq!(tokens.len(), 2, "bestmove must be two tokens: {last}");
        for line in &lines[..lines.len() - 1] {
            assert!(
                line.starts_with("info "),
                "only info lines before bestmove: {line}"
            );
        }
        tokens[1].to_string()
    }

    /// Waits for the process to exit.
    pub fn wait_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
