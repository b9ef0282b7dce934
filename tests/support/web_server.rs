//! Starts the real `damas serve` on a free port, for the web board's tests,
//! and talks JSON to it.

// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long a state the test waits for may take. Only a guard against
/// hangs: no test asserts speed with it.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A running server, stopped when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, no final slash.
    pub url: String,
    /// The first line the server printed.
    pub banner: String,
    /// The second: where its data is, and what it restored.
    pub data: String,
    agent: ureq::Agent,
}

impl Server {
    /// `damas serve --port 0` with two workers, small tables and `extra`
    /// arguments; waits for the URL it prints.
    pub fn start(extra: &[&str]) -> Server {
        let mut args = vec!["--workers", "2", "--hash", "4"];
        args.extend_from_slice(extra);
        Server::start_with(&args)
    }

    /// `damas serve --port 0` with exactly these arguments.
    pub fn start_with(args: &[&str]) -> Server {
        Server::spawn(Command::new(env!("CARGO_BIN_EXE_damas")), args)
    }

    /// [`Server::start`] with the limit on open files lowered to `files`.
    pub fn start_with_file_limit(files: u64, extra: &[&str]) -> Server {
        use std::os::unix::process::CommandExt;
        let mut command = Command::new(env!("CARGO_BIN_EXE_damas"));
        let limit = libc::rlimit {
            rlim_cur: files,
            rlim_max: files,
        };
        // SAFETY: between fork and exec only setrlimit runs, which is
        // async-signal-safe and touches no memory of the parent.
        unsafe {
            command.pre_exec(move || {
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        let mut args = vec!["--workers", "2", "--hash", "4"];
        args.extend_from_slice(extra);
        Server::spawn(command, &args)
    }

    /// Runs `damas serve` with `args`; its data in memory unless `args`
    /// name a `--data` file.
    fn spawn(mut command: Command, args: &[&str]) -> Server {
        command.arg("serve");
        if !args.contains(&"--port") {
            command.args(["--port", "0"]);
        }
        command.args(args);
        if !args.contains(&"--data") {
            command.args(["--data", "memory"]);
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("damas serve starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        let mut stdout = BufReader::new(stdout);
        stdout
            .read_line(&mut line)
            .expect("damas serve prints its URL");
        let mut data = String::new();
        stdout
            .read_line(&mut data)
            .expect("damas serve says where its data is");
        let start = line.find("http://").expect("a URL in the first line");
        let url = line[start..]
            .split_whitespace()
            .next()
            .expect("the URL")
            .trim_end_matches('/')
            .to_string();
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        Server {
            child,
            url,
            banner: line.trim_end().to_string(),
            data: data.trim_end().to_string(),
            agent,
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `host:port`, for raw connections.
    pub fn address(&self) -> &str {
        self.url.trim_start_matches("http://")
    }

    /// The server's resident memory in KiB (`VmRSS`), 0 when unknown.
    pub fn rss_kib(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .unwrap_or_default()
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    /// Sends `signal` and waits for the process to end (at most
    /// [`PATIENCE`]); how long it took, and whether it ended at all.
    pub fn signal_and_wait(&mut self, signal: i32) -> (Duration, bool) {
        let pid = i32::try_from(self.child.id()).expect("a pid");
        let start = Instant::now();
        // SAFETY: kill only sends a signal to the child this test started.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "the signal is sent");
        while start.elapsed() < PATIENCE {
            if let Ok(Some(_)) = self.child.try_wait() {
                return (start.elapsed(), true);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        (start.elapsed(), false)
    }

    /// Sends a request; the status and the body (JSON, or the text as a
    /// JSON string when it is not JSON).
    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
        let url = format!("{}{path}", self.url);
        let response = match (method, body) {
            ("GET", _) => self.agent.get(&url).call(),
            ("DELETE", _) => self.agent.delete(&url).call(),
            ("POST", Some(b)) => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(b),
            ("POST", None) => self.agent.post(&url).send_empty(),
            ("PUT", Some(b)) => self
                .agent
                .put(&url)
                .header("Content-Type", "application/json")
                .send(b),
            _ => panic!("unsupported request {method} {path}"),
        };
        let mut response = response.expect("the server answers");
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().expect("a text body");
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    /// A request that must succeed with `expected`; the JSON body.
    pub fn ok(&self, method: &str, path: &str, body: Option<&str>, expected: u16) -> Value {
        let (status, value) = self.request(method, path, body);
        assert_eq!(status, expected, "{method} {path}: {value}");
        value
    }

    /// Creates a game; its state.
    pub fn create(&self, body: &str) -> Value {
        self.ok("POST", "/api/games", Some(body), 201)
    }

    /// Polls the game until `done` holds for its state.
    pub fn wait_for(&self, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let state = self.ok("GET", &format!("/api/games/{id}"), None, 200);
            if done(&state) {
                return state;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "timed out waiting for {what}: {state}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The texts of the moves played.
pub fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("a move list")
        .iter()
        .map(|m| m["text"].as_str().expect("a move text").to_string())
        .collect()
}

/// The id of a game state.
pub fn id(state: &Value) -> String {
    state["id"].as_str().expect("an id").to_string()
}

/// Opens a raw connection to `server` and sends `bytes`, leaving it open
/// (a write the server cuts short, answering before it has read it all,
/// is no failure).
pub fn open_raw(server: &Server, bytes: &[u8]) -> std::net::TcpStream {
    use std::io::Write;
    let mut stream = std::net::TcpStream::connect(server.address()).expect("connects");
    stream.set_read_timeout(Some(PATIENCE)).expect("a timeout");
    let _ = stream.write_all(bytes);
    stream
}

/// What the server sent on a raw connection, read until it closed.
pub struct RawReply {
    /// The status (0 for none).
    pub status: u16,
    /// Everything received, head and body.
    pub text: String,
    /// Where the body starts in `text` (its end when there is none).
    body_at: usize,
}

impl RawReply {
    /// Reads `stream` until the server closes it.
    pub fn read(stream: &mut impl std::io::Read) -> RawReply {
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        let text = String::from_utf8_lossy(&bytes).to_string();
        let status = text
            .strip_prefix("HTTP/1.1 ")
            .and_then(|rest| rest.get(..3))
            .and_then(|code| code.parse().ok())
            .unwrap_or(0);
        let body_at = text.find("\r\n\r\n").map_or(text.len(), |at| at + 4);
        RawReply {
            status,
            text,
            body_at,
        }
    }

    /// The status line and headers.
    pub fn head(&self) -> &str {
        self.text[..self.body_at].trim_end()
    }

    /// The body.
    pub fn body(&self) -> &str {
        &self.text[self.body_at..]
    }

    /// The body as JSON, or as a JSON string when it is not JSON.
    pub fn json_or_text(&self) -> Value {
        serde_json::from_str(self.body()).unwrap_or(Value::String(self.body().to_string()))
    }

    /// The value of each `Set-Cookie` header, attributes included.
    pub fn set_cookies(&self) -> Vec<String> {
        self.head()
            .lines()
            .filter_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("set-cookie")
                    .then(|| value.trim().to_string())
            })
            .collect()
    }
}

/// One request on its own raw connection: `method path` with `headers`
/// (besides `Host`, `Content-Length` and `Connection: close`) and `body`.
pub fn raw_request(
    server: &Server,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> RawReply {
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
        server.address(),
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    RawReply::read(&mut open_raw(server, request.as_bytes()))
}

/// Reads what the server sends on a raw connection until it closes: the
/// status (0 for none) and the body.
pub fn read_answer(stream: &mut impl std::io::Read) -> (u16, String) {
    let reply = RawReply::read(stream);
    (reply.status, reply.body().to_string())
}
