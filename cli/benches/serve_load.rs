//! Load benchmark of `damas serve`: 50 games at once whose seats are all
//! engines at 100 ms per move keep the engine workers busy, while one
//! client measures the latency of requests that need no engine (the state,
//! the legal moves of a piece, a person's move and its undo). Run with
//! `cargo bench -p damas-cli --bench serve_load`; figures in
//! docs/PERFORMANCE.md, "The web board under load".

#[path = "../../tests/support/web_server.rs"]
mod web_server;

use std::time::{Duration, Instant};

use web_server::{id, moves, Server};

const GAMES: usize = 50;
const MEASURE: Duration = Duration::from_secs(20);

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn main() {
    // cargo bench passes `--bench`; nothing else is read.
    let workers = std::env::var("DAMAS_SERVE_WORKERS").unwrap_or_else(|_| "2".into());
    // The games all come from this one client, past the default per-client
    // share.
    let server = Server::start_with(&[
        "--workers",
        &workers,
        "--hash",
        "16",
        "--max-games-per-client",
        "100",
    ]);
    let engine = r#"{"kind":"engine","think_ms":100}"#;
    let games: Vec<String> = (0..GAMES)
        .map(|i| {
            let body = match i % 3 {
                0 => format!(r#"{{"game":"spanish","seats":[{engine},{engine}]}}"#),
                1 => format!(r#"{{"game":"chinese","players":2,"seats":[{engine},{engine}]}}"#),
                _ => format!(
                    r#"{{"game":"chinese","players":3,"seats":[{engine},{engine},{engine}]}}"#
                ),
            };
            id(&server.create(&body))
        })
        .collect();
    // A person's game beside them, for the moves and undos.
    let person =
        id(&server.create(r#"{"game":"spanish","seats":[{"kind":"human"},{"kind":"human"}]}"#));
    std::thread::sleep(Duration::from_secs(2));
    let mut latencies: Vec<(&str, Vec<Duration>)> = vec![
        ("GET state of an engine game", Vec::new()),
        ("GET moves of a piece", Vec::new()),
        ("POST move + POST undo (each)", Vec::new()),
    ];
    let start = Instant::now();
    let mut round = 0usize;
    while start.elapsed() < MEASURE {
        let game = &games[round % GAMES];
        let t = Instant::now();
        server.ok("GET", &format!("/api/games/{game}"), None, 200);
        latencies[0].1.push(t.elapsed());
        let t = Instant::now();
        server.ok(
            "GET",
            &format!("/api/games/{person}/moves?from=11"),
            None,
            200,
        );
        latencies[1].1.push(t.elapsed());
        let t = Instant::now();
        server.ok(
            "POST",
            &format!("/api/games/{person}/move"),
            Some(r#"{"move":"11-15"}"#),
            200,
        );
        latencies[2].1.push(t.elapsed());
        let t = Instant::now();
        server.ok("POST", &format!("/api/games/{person}/undo"), None, 200);
        latencies[2].1.push(t.elapsed());
        round += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
    let elapsed = start.elapsed();
    let engine_moves: usize = games
        .iter()
        .map(|g| moves(&server.ok("GET", &format!("/api/games/{g}"), None, 200)).len())
        .sum();
    println!(
        "{GAMES} engine games (100 ms per move, {workers} workers) for {:.1} s after a 2 s start; {engine_moves} engine moves in all",
        elapsed.as_secs_f64() + 2.0
    );
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", server.pid())).unwrap_or_default();
    if let Some(rss) = status.lines().find(|l| l.starts_with("VmRSS")) {
        println!("server memory: {}", rss.trim_start_matches("VmRSS:").trim());
    }
    println!("request                         count    p50      p90      p99      max");
    for (name, samples) in &mut latencies {
        samples.sort_unstable();
        println!(
            "{name:<30} {:>6} {:>7.2}ms {:>7.2}ms {:>7.2}ms {:>7.2}ms",
            samples.len(),
            percentile(samples, 0.5).as_secs_f64() * 1e3,
            percentile(samples, 0.9).as_secs_f64() * 1e3,
            percentile(samples, 0.99).as_secs_f64() * 1e3,
            samples.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
        );
    }
}
