//! One engine process seen from the match runner: start it, talk the
//! protocol with it, and notice when it dies or hangs.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFault {
    /// The process could not be started, exited or closed its output.
    Crashed(String),
    /// No answer within the allowed time.
    Timeout(String),
}

impl std::fmt::Display for EngineFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineFault::Crashed(what) => write!(f, "crashed ({what})"),
            EngineFault::Timeout(what) => write!(f, "timed out ({what})"),
        }
    }
}

/// How long an engine may take to start up, or to answer `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(20);

/// What starts an engine: a shell command and the options to set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name (the command unless given).
    pub name: String,
    /// Shell command line.
    pub command: String,
    /// `setoption` pairs sent after the handshake.
    pub options: Vec<(String, String)>,
}

/// A running engine.
pub struct EngineClient {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineClient {
    /// Starts the engine and completes the `ugi` handshake, then sets the
    /// given options (the game options first, then the engine's own).
    pub fn start(
        spec: &EngineSpec,
        game_options: &[(String, String)],
    ) -> Result<Self, EngineFault> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {}", spec.command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|err| {
                EngineFault::Crashed(format!("cannot start '{}': {err}", spec.command))
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(EngineFault::Crashed("no pipes".into()));
        };
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut client = EngineClient {
            child,
            stdin,
            lines,
        };
        client.send("ugi")?;
        client.wait_for(|l| l == "ugiok" || l == "uciok", HANDSHAKE_TIMEOUT, "ugi")?;
        for (name, value) in game_options.iter().chain(&spec.options) {
            client.send(&format!("setoption name {name} value {value}"))?;
        }
        client.sync()?;
        Ok(client)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|err| EngineFault::Crashed(format!("writing '{line}': {err}")))
    }

    /// `isready` / `readyok`.
    pub fn sync(&mut self) -> Result<(), EngineFault> {
        self.send("isready")?;
        self.wait_for(|l| l == "readyok", HANDSHAKE_TIMEOUT, "isready")
            .map(|_| ())
    }

    /// Reads lines until one matches; returns it.
    pub fn wait_for(
        &mut self,
        wanted: impl Fn(&str) -> bool,
        limit: Duration,
        what: &str,
    ) -> Result<String, EngineFault> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if wanted(line.trim()) => return Ok(line.trim().to_string()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(EngineFault::Timeout(what.into())),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineFault::Crashed(format!("output closed during {what}")))
                }
            }
        }
    }

    /// Sends `go ...` and returns the `bestmove` word and the time taken.
    pub fn best_move(
        &mut self,
        go: &str,
        limit: Duration,
    ) -> Result<(String, Duration), EngineFault> {
        let start = Instant::now();
        self.send(go)?;
        let line = self.wait_for(|l| l.starts_with("bestmove"), limit, "go")?;
        let elapsed = start.elapsed();
        let mv = line.split_whitespace().nth(1).unwrap_or("").to_string();
        Ok((mv, elapsed))
    }
}

impl Drop for EngineClient {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
