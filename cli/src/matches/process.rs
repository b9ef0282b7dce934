//! An engine process that cannot hurt the runner, whatever protocol it
//! speaks: started without a shell in a process group of its own, its
//! output read in bounded lines (lossy UTF-8) through a bounded queue, its
//! input written with a timeout, the last lines of its stderr kept, and
//! its whole group killed when it is dropped.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::lines::{read_line_bounded, Read};

/// Longest line kept from an engine; the rest of a longer line is dropped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Lines of output queued before the reader stops reading (and so the
/// engine blocks on its own writes): memory stays bounded whatever it
/// prints.
const QUEUE_LINES: usize = 1024;
/// How many of the last stderr lines are kept for the report, and how
/// long each may be.
const STDERR_LINES: usize = 5;
const STDERR_LINE_CHARS: usize = 200;
/// How long one write to the engine may block before it counts as not
/// reading its input.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long an engine has to exit after `quit` before its group is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);
/// How often a wait looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

/// How an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFault {
    /// The process could not be started, exited or closed its output.
    Crashed(String),
    /// No answer within the allowed time.
    Timeout(String),
    /// It stopped reading its input.
    Deaf(String),
    /// It refused something the runner was told to send (an option):
    /// the match cannot go on as asked. Holds the engine's line.
    Refused(String),
    /// It answered with an error line where a move was expected (for
    /// example, it refused the position). Holds the engine's line.
    Answered(String),
    /// The runner was interrupted (SIGINT/SIGTERM) while waiting.
    Interrupted,
}

impl std::fmt::Display for EngineFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineFault::Crashed(what) => write!(f, "crashed ({what})"),
            EngineFault::Timeout(what) => write!(f, "timed out ({what})"),
            EngineFault::Deaf(what) => write!(f, "stopped reading its input ({what})"),
            EngineFault::Refused(line) => write!(f, "refused: {line}"),
            EngineFault::Answered(line) => write!(f, "answered '{line}'"),
            EngineFault::Interrupted => write!(f, "interrupted"),
        }
    }
}

/// The program and arguments of an engine command line, split as a
/// POSIX shell would (quotes and backslashes; no variables, globs or
/// pipes: no shell runs).
pub fn split_command(command: &str) -> Result<Vec<String>, String> {
    let words = shell_words::split(command).map_err(|err| format!("engine '{command}': {err}"))?;
    if words.is_empty() {
        return Err("an empty --engine command".into());
    }
    Ok(words)
}

/// The file a program name runs: a path as given, or the first match on
/// `PATH`; an error says whether it is missing or not executable.
pub fn resolve_program(program: &str) -> Result<PathBuf, String> {
    let executable = |path: &Path| {
        path.metadata()
            .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        let path = PathBuf::from(program);
        return match path.metadata() {
            Err(err) => Err(format!("engine '{program}': {err}")),
            Ok(meta) if !meta.is_file() => Err(format!("engine '{program}': not a file")),
            Ok(_) if !executable(&path) => Err(format!("engine '{program}': not executable")),
            Ok(_) => Ok(path),
        };
    }
    let search = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&search)
        .map(|dir| dir.join(program))
        .find(|path| executable(path))
        .ok_or_else(|| format!("engine '{program}': not found on PATH (or not executable)"))
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    lines: Receiver<String>,
    to_engine: Option<SyncSender<String>>,
    written: Receiver<io::Result<()>>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Disconnected once the stderr reader has seen the end of stderr.
    stderr_closed: Receiver<()>,
    /// The group was killed and the child reaped: its id may belong to
    /// another process now and must not be signalled again.
    ended: bool,
}

impl EngineProcess {
    /// Starts `words[0]` with the other words as arguments, in a new
    /// process group.
    pub fn spawn(words: &[String]) -> Result<EngineProcess, EngineFault> {
        let Some((program, args)) = words.split_first() else {
            return Err(EngineFault::Crashed("empty command".into()));
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group: the runner's terminal signals do not reach it,
            // and the whole group (a wrapper's children too) can be ended.
            .process_group(0)
            .spawn()
            .map_err(|err| EngineFault::Crashed(format!("cannot start '{program}': {err}")))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            kill_group(&mut child);
            return Err(EngineFault::Crashed("no pipes".into()));
        };
        let (line_sender, lines) = mpsc::sync_channel(QUEUE_LINES);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(line) = read_bounded_line(&mut reader) {
                if line_sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_LINES)));
        let tail = Arc::clone(&stderr_tail);
        let (stderr_open, stderr_closed) = mpsc::sync_channel::<()>(0);
        std::thread::spawn(move || {
            // Dropped at the end of stderr: `crashed` waits for it.
            let _open = stderr_open;
            let mut reader = BufReader::new(stderr);
            while let Some(line) = read_bounded_line(&mut reader) {
                let line: String = line.chars().take(STDERR_LINE_CHARS).collect();
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        });
        // One line in flight at a time: `send` waits for each write.
        let (to_engine, from_runner) = mpsc::sync_channel::<String>(1);
        let (written_sender, written) = mpsc::sync_channel(1);
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for line in from_runner {
                let result = stdin
                    .write_all(line.as_bytes())
                    .and_then(|()| stdin.write_all(b"\n"))
                    .and_then(|()| stdin.flush());
                let failed = result.is_err();
                if written_sender.send(result).is_err() || failed {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            child,
            lines,
            to_engine: Some(to_engine),
            written,
            stderr_tail,
            stderr_closed,
            ended: false,
        })
    }

    /// Writes one line; fails if the engine has not taken it within
    /// [`WRITE_TIMEOUT`].
    pub fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        let short: String = line.chars().take(40).collect();
        let handed_over = self
            .to_engine
            .as_ref()
            .is_some_and(|sender| sender.send(line.to_string()).is_ok());
        if !handed_over {
            return Err(self.crashed(&format!("writing '{short}'")));
        }
        match self.written.recv_timeout(WRITE_TIMEOUT) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(err)) => Err(self.crashed(&format!("writing '{short}': {err}"))),
            Err(RecvTimeoutError::Timeout) => {
                // The writer is stuck in a write; nothing more is sent.
                self.to_engine = None;
                Err(EngineFault::Deaf(format!(
                    "writing '{short}' blocked for {} s",
                    WRITE_TIMEOUT.as_secs()
                )))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed(&format!("writing '{short}'"))),
        }
    }

    /// The next line of output before `deadline`. The deadline holds
    /// however many lines the engine prints: every line is checked
    /// against it. `interrupt` is polled while waiting.
    pub fn next_line(
        &mut self,
        deadline: Instant,
        interrupt: &AtomicBool,
        what: &str,
    ) -> Result<String, EngineFault> {
        loop {
            if interrupt.load(Ordering::Relaxed) {
                return Err(EngineFault::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineFault::Timeout(what.into()));
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crashed(&format!("output closed during {what}")))
                }
            }
        }
    }

    /// A crash report: what happened, the exit status if the process has
    /// ended, and the last lines of its stderr.
    pub fn crashed(&mut self, what: &str) -> EngineFault {
        // The reader may see the end of output a moment before the exit.
        let mut status = None;
        for _ in 0..if self.ended { 0 } else { 10 } {
            status = exit_status_without_reaping(&self.child);
            if status.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut text = what.to_string();
        if let Some(status) = status {
            text.push_str(&format!("; {status}"));
            // The last stderr lines may still be on their way to the
            // reader; a grandchild holding stderr open costs at most this.
            let _ = self.stderr_closed.recv_timeout(Duration::from_millis(500));
        }
        let tail = self.stderr_tail();
        if !tail.is_empty() {
            text.push_str(&format!("; stderr: {}", tail.join(" | ")));
        }
        EngineFault::Crashed(text)
    }

    /// The last lines the engine wrote on stderr.
    pub fn stderr_tail(&self) -> Vec<String> {
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        tail.iter().cloned().collect()
    }

    /// Asks the engine to end (the protocol's word for it), then ends its
    /// group whatever it does.
    pub fn close(&mut self, quit: Option<&str>) {
        if self.ended {
            return;
        }
        if let (Some(sender), Some(word)) = (self.to_engine.take(), quit) {
            // Never blocks: a deaf engine is not waited for.
            let _ = sender.try_send(word.to_string());
            let deadline = Instant::now() + QUIT_GRACE;
            while Instant::now() < deadline && exit_status_without_reaping(&self.child).is_none() {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        kill_group(&mut self.child);
        self.ended = true;
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.close(None);
    }
}

/// Kills the child's whole process group, then reaps the child. The group
/// is killed before the child is reaped, so its id cannot have been
/// reused by then.
fn kill_group(child: &mut Child) {
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: killpg takes plain integers and has no memory effects;
        // the group is the child's own (process_group(0) made it leader),
        // and the unreaped child keeps the id from being reused.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// `exited with status 3` or `killed by signal 9` once the child has
/// ended, without reaping it (so its group id stays reserved for
/// [`kill_group`]).
fn exit_status_without_reaping(child: &Child) -> Option<String> {
    let pid = libc::id_t::try_from(child.id()).ok()?;
    // SAFETY: siginfo_t is plain data for which all-zero is valid; waitid
    // only writes into it. WNOWAIT leaves the child unreaped.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let rc = unsafe {
        libc::waitid(
            libc::P_PID,
            pid,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    // SAFETY: after a successful waitid the pid and status fields are set
    // (the pid stays 0 while the child runs).
    let (found, code, status) = unsafe { (info.si_pid(), info.si_code, info.si_status()) };
    if rc != 0 || found == 0 {
        return None;
    }
    Some(if code == libc::CLD_EXITED {
        format!("exited with status {status}")
    } else {
        format!("killed by signal {status}")
    })
}

/// Reads one line of at most [`MAX_LINE_BYTES`] (the rest of a longer line
/// is dropped, so a line without end costs no memory), decoded as lossy
/// UTF-8 without its line end; `None` at the end of output or on an error.
fn read_bounded_line(reader: &mut impl BufRead) -> Option<String> {
    let mut buffer = Vec::new();
    match read_line_bounded(reader, &mut buffer, MAX_LINE_BYTES) {
        Ok(Read::End) | Err(_) => None,
        Ok(Read::Line) => Some(String::from_utf8_lossy(&buffer).into_owned()),
        Ok(Read::TooLong(_)) => {
            buffer.truncate(MAX_LINE_BYTES);
            Some(String::from_utf8_lossy(&buffer).into_owned())
        }
    }
}

/// Drains a reader to its end (used by tests to feed fake output).
#[cfg(test)]
fn all_lines(bytes: &[u8]) -> Vec<String> {
    let mut reader = BufReader::with_capacity(7, bytes);
    std::iter::from_fn(|| read_bounded_line(&mut reader)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        split_command(text).expect("valid command")
    }

    #[test]
    fn lines_are_bounded_lossy_and_split_at_any_buffer_size() {
        let mut bytes = b"bestmove 11-15\r\ninfo \xff\xfe x\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'y', MAX_LINE_BYTES * 3));
        bytes.extend_from_slice(b"\nlast");
        let lines = all_lines(&bytes);
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], "bestmove 11-15");
        assert_eq!(lines[1], "info \u{fffd}\u{fffd} x");
        assert_eq!(lines[2].len(), MAX_LINE_BYTES);
        assert_eq!(lines[3], "last");
    }

    #[test]
    fn commands_split_like_a_shell_and_programs_are_checked() {
        assert_eq!(
            words("bash 'my engine.sh' --x=\"a b\""),
            ["bash", "my engine.sh", "--x=a b"]
        );
        assert!(split_command("engine 'open").is_err());
        assert!(split_command("   ").is_err());
        assert!(resolve_program("sh").is_ok());
        let missing = resolve_program("/nonexistent/engine").expect_err("missing");
        assert!(missing.contains("No such file"), "{missing}");
        let plain = std::env::temp_dir().join(format!("damas-plain-{}", std::process::id()));
        std::fs::write(&plain, "not a program").expect("temp file");
        std::fs::set_permissions(&plain, std::fs::Permissions::from_mode(0o644)).expect("mode");
        let not_exec = resolve_program(plain.to_str().expect("utf-8")).expect_err("plain file");
        let _ = std::fs::remove_file(&plain);
        assert!(not_exec.ends_with("not executable"), "{not_exec}");
        assert!(resolve_program("/").is_err());
        assert!(resolve_program("no-such-engine-anywhere").is_err());
    }

    #[test]
    fn a_deaf_engine_times_out_writes_instead_of_hanging() {
        let mut engine = EngineProcess::spawn(&words("sleep 30")).expect("starts");
        let start = Instant::now();
        let big = "x".repeat(1 << 20);
        let fault = engine.send(&big).expect_err("nobody reads");
        assert!(matches!(fault, EngineFault::Deaf(_)), "{fault}");
        assert!(start.elapsed() < WRITE_TIMEOUT + Duration::from_secs(5));
        drop(engine);
    }

    #[test]
    fn a_crash_reports_status_and_stderr() {
        let mut engine = EngineProcess::spawn(&words(
            "sh -c 'echo starting >&2; echo \"bad thing\" >&2; exit 7'",
        ))
        .expect("starts");
        let fault = engine
            .next_line(
                Instant::now() + Duration::from_secs(10),
                &AtomicBool::new(false),
                "ugi",
            )
            .expect_err("no output");
        let text = fault.to_string();
        assert!(text.contains("exited with status 7"), "{text}");
        assert!(text.contains("stderr: starting | bad thing"), "{text}");
    }

    #[test]
    fn the_deadline_holds_against_a_flood() {
        let mut engine = EngineProcess::spawn(&words("yes info depth 1")).expect("starts");
        let interrupt = AtomicBool::new(false);
        let deadline = Instant::now() + Duration::from_millis(300);
        let mut lines = 0u64;
        let fault = loop {
            match engine.next_line(deadline, &interrupt, "go") {
                Ok(_) => lines += 1,
                Err(fault) => break fault,
            }
        };
        assert!(lines > 0);
        assert_eq!(fault, EngineFault::Timeout("go".into()));
        assert!(Instant::now() < deadline + Duration::from_secs(2));
    }
}
