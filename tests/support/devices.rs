//! Devices talking to `damas serve` over raw connections, each with its
//! cookie jar, and their event streams: for the tests of groups, live
//! updates and restarts.

// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::{ErrorKind, Read};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::web_server::{open_raw, raw_request, Server};

/// How long an event may take to arrive: a bound against hangs, not a
/// timing assertion.
pub const EVENT_WAIT: Duration = Duration::from_secs(2);

/// A device: its cookie jar.
#[derive(Default, Clone)]
pub struct Device {
    pub cookies: Vec<(String, String)>,
}

impl Device {
    pub fn jar(&self) -> String {
        let pairs: Vec<String> = self
            .cookies
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        pairs.join("; ")
    }

    /// A request on its own connection: the status and the JSON body.
    pub fn call(
        &mut self,
        server: &Server,
        method: &str,
        path: &str,
        body: Option<&str>,
    ) -> (u16, Value) {
        let body = body.unwrap_or("");
        let jar = self.jar();
        let mut headers = Vec::new();
        if !body.is_empty() {
            headers.push(("Content-Type", "application/json"));
        }
        if !self.cookies.is_empty() {
            headers.push(("Cookie", jar.as_str()));
        }
        let reply = raw_request(server, method, path, &headers, body);
        for cookie in reply.set_cookies() {
            let pair = cookie.split(';').next().expect("a pair");
            let (name, value) = pair.split_once('=').expect("name=value");
            self.cookies.retain(|(n, _)| n != name);
            self.cookies.push((name.to_string(), value.to_string()));
        }
        (reply.status, reply.json_or_text())
    }

    pub fn ok(
        &mut self,
        server: &Server,
        method: &str,
        path: &str,
        body: Option<&str>,
        status: u16,
    ) -> Value {
        let (got, value) = self.call(server, method, path, body);
        assert_eq!(got, status, "{method} {path}: {value}");
        value
    }

    /// Opens the event stream at `path`, sending `last` as
    /// `Last-Event-ID`.
    pub fn stream(&self, server: &Server, path: &str, last: Option<u64>) -> Stream {
        let mut request = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\nConnection: close\r\n",
            server.address()
        );
        if !self.cookies.is_empty() {
            request.push_str(&format!("Cookie: {}\r\n", self.jar()));
        }
        if let Some(last) = last {
            request.push_str(&format!("Last-Event-ID: {last}\r\n"));
        }
        request.push_str("\r\n");
        Stream {
            socket: open_raw(server, request.as_bytes()),
            text: String::new(),
        }
    }
}

/// An open event stream and what was read of it.
pub struct Stream {
    pub socket: TcpStream,
    text: String,
}

impl Stream {
    /// The answer's status line and headers, once they arrived.
    pub fn head(&mut self) -> String {
        let deadline = Instant::now() + EVENT_WAIT;
        while !self.text.contains("\r\n\r\n") {
            assert!(self.read_some(deadline), "no answer head: {}", self.text);
        }
        let (head, rest) = self.text.split_once("\r\n\r\n").expect("a head");
        let head = head.to_string();
        self.text = rest.to_string();
        head
    }

    /// Reads more until `deadline`; whether anything came.
    pub fn read_some(&mut self, deadline: Instant) -> bool {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        self.socket.set_read_timeout(Some(left)).expect("a timeout");
        let mut buffer = [0u8; 65536];
        match self.socket.read(&mut buffer) {
            Ok(0) => false,
            Ok(n) => {
                self.text.push_str(&String::from_utf8_lossy(&buffer[..n]));
                true
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => false,
            Err(e) => panic!("reading the stream: {e}"),
        }
    }

    /// The next event (its id and data) within `wait`, if one comes; the
    /// chunk sizes of the transfer and the keep-alive comments are
    /// skipped.
    pub fn event_within(&mut self, wait: Duration) -> Option<(u64, Value)> {
        let deadline = Instant::now() + wait;
        loop {
            while let Some((block, rest)) = self.text.split_once("\n\n") {
                let (block, rest) = (block.to_string(), rest.to_string());
                self.text = rest;
                let mut id = None;
                let mut data = None;
                for line in block.lines().map(|l| l.trim_end_matches('\r')) {
                    if let Some(value) = line.strip_prefix("id:") {
                        id = value.trim().parse::<u64>().ok();
                    } else if let Some(value) = line.strip_prefix("data:") {
                        data = Some(serde_json::from_str(value.trim()).expect("JSON data"));
                    }
                }
                if let (Some(id), Some(data)) = (id, data) {
                    return Some((id, data));
                }
            }
            if !self.read_some(deadline) {
                return None;
            }
        }
    }

    pub fn event(&mut self) -> (u64, Value) {
        self.event_within(EVENT_WAIT)
            .unwrap_or_else(|| panic!("no event within {EVENT_WAIT:?}: {}", self.text))
    }

    /// Reads until the server closes the stream (within `wait`); whether
    /// it did.
    pub fn ends_within(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            self.socket.set_read_timeout(Some(left)).expect("a timeout");
            let mut buffer = [0u8; 4096];
            match self.socket.read(&mut buffer) {
                Ok(0) => return true,
                Ok(_) => {}
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return false
                }
                Err(_) => return true,
            }
        }
    }
}

pub fn str_of(value: &Value) -> String {
    value.as_str().expect("a text").to_string()
}

/// A group of Ana (the creator) and Bea playing Spanish draughts, its
/// first game started: the devices, the group's id and the game's id.
pub fn two_player_group(server: &Server) -> (Device, Device, String, String) {
    let (mut devices, group, game) = group_playing(server, "spanish", &["Ana", "Bea"]);
    let bea = devices.pop().expect("Bea's device");
    let ana = devices.pop().expect("Ana's device");
    (ana, bea, group, game)
}

/// A group of `game` made by the first of `names`, the others joining in
/// order from devices of their own, the first turn not rotated, its first
/// game started: the devices (the creator's first), the group's id and the
/// game's id.
pub fn group_playing(server: &Server, game: &str, names: &[&str]) -> (Vec<Device>, String, String) {
    let mut devices: Vec<Device> = names.iter().map(|_| Device::default()).collect();
    let create = json!({"name": names[0], "settings": {"game": game, "rotate_first": false}});
    let created = devices[0].ok(
        server,
        "POST",
        "/api/groups",
        Some(&create.to_string()),
        201,
    );
    let group = str_of(&created["id"]);
    for (device, name) in devices[1..].iter_mut().zip(&names[1..]) {
        device.ok(
            server,
            "POST",
            &format!("/api/groups/{group}/join"),
            Some(&json!({ "name": name }).to_string()),
            201,
        );
    }
    let started = devices[0].ok(
        server,
        "POST",
        &format!("/api/groups/{group}/next"),
        None,
        201,
    );
    let game = str_of(&started["game"]);
    (devices, group, game)
}

/// Some legal move of the game `game` now: the first of its first
/// movable piece.
pub fn legal_move(server: &Server, game: &str) -> String {
    let state = server.ok("GET", &format!("/api/games/{game}"), None, 200);
    let from = str_of(&state["movable"][0]);
    let moves = server.ok(
        "GET",
        &format!("/api/games/{game}/moves?from={from}"),
        None,
        200,
    );
    str_of(&moves[0]["text"])
}

/// Plays some legal move for whoever is to move in the group's game,
/// from that member's device.
pub fn play_a_move(server: &Server, devices: &mut [&mut Device], game: &str) -> Value {
    let state = server.ok("GET", &format!("/api/games/{game}"), None, 200);
    let seat = state["to_move"].as_u64().expect("a player to move") as usize;
    let member = state["group"]["seats"][seat]["member"]
        .as_u64()
        .expect("a member") as usize;
    let text = legal_move(server, game);
    devices[member - 1].ok(
        server,
        "POST",
        &format!("/api/games/{game}/move"),
        Some(&json!({ "move": text }).to_string()),
        200,
    )
}

pub fn moves_in(group_state: &Value) -> usize {
    group_state["game_state"]["moves"]
        .as_array()
        .expect("moves")
        .len()
}
