//! `damas serve`: the web board. An HTTP server (axum on tokio) serving a
//! single page (embedded HTML, CSS, JavaScript; the boards are SVG drawn
//! by the script) and a JSON API over the library's games. Engine searches
//! run on a fixed pool of worker threads off the async runtime; the
//! connections are bounded in number and time. The API, the limits and the
//! choices made are in docs/SERVE.md.

use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderMap};
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post, put};
use axum::Router;
use clap::Args;

mod api;
mod away;
mod connections;
mod db;
mod error;
mod events;
mod group;
mod group_api;
mod lang;
mod layers;
mod messages;
mod pool;
mod pulse;
mod requests;
mod saved;
mod session;
mod store;
mod tokens;
mod view;

use connections::ConnectionLimits;
use session::Seat;
use store::{Limits, Store};

/// Arguments of `damas serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default: the board has no
    /// accounts; give 0.0.0.0 to open it to the network).
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// Port (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Engine worker threads: searches running at once (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=64))]
    workers: u16,
    /// Transposition table of each worker, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=1024))]
    hash: u16,
    /// Most games held at once (removed games whose search is still
    /// stopping included).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_games: u32,
    /// Most games held at once for one client address.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_games_per_client: u32,
    /// Longest game in turns: the referee then ends it as a draw, whatever
    /// the rule limits (at most 3000).
    #[arg(long, default_value_t = session::MAX_TURNS, value_parser = clap::value_parser!(u32).range(10..=i64::from(session::MAX_TURNS)))]
    max_turns: u32,
    /// Connections served at once (lowered to fit the limit on open
    /// files); past it a client is answered 503.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    max_connections: u32,
    /// Milliseconds a request's header, and then its body, may take to
    /// arrive (an idle keep-alive connection is closed after as long).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(100..=600_000))]
    read_timeout_ms: u32,
    /// Seconds after which a game nobody looked at is dropped.
    #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u32).range(1..=604_800))]
    idle_secs: u32,
    /// Seconds after which a group nobody used is dropped, with its game
    /// (a week by default).
    #[arg(long, default_value_t = 604_800, value_parser = clap::value_parser!(u32).range(1..=31_536_000))]
    group_idle_secs: u32,
    /// Where groups, games and their moves are kept across restarts: an
    /// SQLite file, made when missing (default:
    /// $XDG_DATA_HOME/damas/serve.sqlite, or ~/.local/share/damas/), or
    /// `memory` to keep nothing past the process.
    #[arg(long, value_name = "PATH|memory")]
    data: Option<std::path::PathBuf>,
    /// Cap on any engine's time per move, in milliseconds.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(100..=60_000))]
    max_think_ms: u32,
    /// Seconds a group member's device may be gone (no live stream open,
    /// no request) before the engine plays their seat; theirs again from
    /// their next turn once they are back.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=3600))]
    away_secs: u32,
}

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const I18N_JS: &str = include_str!("assets/i18n.js");
const MOVES_JS: &str = include_str!("assets/moves.js");
const SETUP_JS: &str = include_str!("assets/setup.js");
const GROUP_JS: &str = include_str!("assets/group.js");
const APP_CSS: &str = include_str!("assets/app.css");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// The routes, over `store`; a request's body must arrive within
/// `read_timeout`.
fn router(store: Arc<Store>, read_timeout: Duration) -> Router {
    let page = |headers: HeaderMap| async move { Html(lang::page(INDEX_HTML, &headers)) };
    let script = |text: &'static str| {
        get(move || async move {
            (
                [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                text,
            )
        })
    };
    Router::new()
        .route("/", get(page))
        .route("/g/{id}", get(page))
        .route("/j/{id}", get(page))
        .route(
            "/app.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    APP_JS,
                )
            }),
        )
        .route("/i18n.js", script(I18N_JS))
        .route("/moves.js", script(MOVES_JS))
        .route("/setup.js", script(SETUP_JS))
        .route("/group.js", script(GROUP_JS))
        .route("/i18n/{file}", get(lang::texts))
        .route(
            "/app.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS) }),
        )
        .route(
            "/favicon.svg",
            get(|| async { ([(header::CONTENT_TYPE, "image/svg+xml")], FAVICON_SVG) }),
        )
        .route("/api/games", post(api::create))
        .route("/api/games/options", get(api::game_options))
        .route("/api/games/{id}", get(api::show).delete(api::delete))
        .route("/api/games/{id}/move", post(api::play))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/new", post(api::new_game))
        .route("/api/games/{id}/seats/{n}", put(api::seat))
        .route("/api/games/{id}/clock", put(api::clock))
        .route("/api/games/{id}/moves", get(api::moves))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/events", get(events::game))
        .route("/api/groups", post(group_api::create))
        .route("/api/groups/{id}", get(group_api::show))
        .route("/api/groups/{id}/join", post(group_api::join))
        .route("/api/groups/{id}/settings", put(group_api::change_settings))
        .route("/api/groups/{id}/next", post(group_api::next))
        .route("/api/groups/{id}/events", get(events::group))
        .route("/api/groups/{id}/members/{n}/free", post(group_api::free))
        .fallback(|| async { api::not_found().await.into_response() })
        .layer(DefaultBodyLimit::max(layers::MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            read_timeout,
            layers::read_body,
        ))
        .layer(axum::middleware::from_fn(layers::cross_origin))
        .layer(axum::middleware::map_response(layers::json_errors))
        .with_state(store)
}

/// Runs the server until interrupted.
pub fn run(args: &ServeArgs) -> Result<(), crate::output::Failure> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = match args.workers {
        0 => cores,
        n => usize::from(n),
    };
    let pool = pool::Pool::start(workers, usize::from(args.hash))
        .map_err(|e| format!("cannot start the engine workers: {e}"))?;
    let max_connections = connections::fitted_cap(args.max_connections as usize);
    let limits = Limits {
        // Streams hold their connection: half the connections at most, so
        // that the pages' requests always find room.
        max_streams: (max_connections / 2).max(1),
        away: Duration::from_secs(u64::from(args.away_secs)),
        max_games: args.max_games as usize,
        max_games_per_client: args.max_games_per_client as usize,
        max_turns: args.max_turns,
        idle: Duration::from_secs(u64::from(args.idle_secs)),
        group_idle: Duration::from_secs(u64::from(args.group_idle_secs)),
        max_think_ms: args.max_think_ms,
        timeout_seat: Seat {
            think_ms: 500,
            ..Seat::ENGINE
        },
    };
    let read_timeout = Duration::from_millis(u64::from(args.read_timeout_ms));
    let connection_limits = ConnectionLimits {
        max_connections,
        header_timeout: read_timeout,
    };
    let db = match data_file(args.data.as_deref())? {
        Some(path) => Some(db::Db::open(&path)?),
        None => None,
    };
    let store = Arc::new(Store::new(limits, pool, db));
    let (groups, games) = store.restore()?;
    let kept = match args.data.as_deref() {
        Some(path) if path.as_os_str() == "memory" => "data in memory only".to_string(),
        _ => format!("{groups} groups and {games} games restored"),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores.clamp(1, 4))
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let served = runtime.block_on({
        let store = Arc::clone(&store);
        async move {
        let address = SocketAddr::new(args.host, args.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let bound = listener
            .local_addr()
            .map_err(|e| format!("cannot read the address: {e}"))?;
        let host = match bound.ip() {
            ip if ip.is_unspecified() => "127.0.0.1".to_string(),
            std::net::IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        let interrupted = interrupted()?;
        let closing = Arc::clone(&store);
        // The event streams end first, so that their connections close
        // at once.
        let shutdown = async move {
            interrupted.await;
            closing.close_streams();
        };
        // A closed standard output is no reason to stop serving.
        let mut out = std::io::stdout().lock();
        let workers = store.pool.workers();
        let _ = writeln!(
            out,
            "damas serve: open http://{host}:{}/ ({workers} engine worker{}, at most {} connections)",
            bound.port(),
            if workers == 1 { "" } else { "s" },
            connection_limits.max_connections
        )
        .and_then(|()| writeln!(out, "damas serve: {kept}"))
        .and_then(|()| out.flush());
        drop(out);
        tokio::spawn(store::keep(Arc::clone(&store), Duration::from_millis(200)));
        tokio::spawn(away::keep(Arc::clone(&store), Duration::from_millis(200)));
        connections::serve(
            listener,
            router(store, read_timeout),
            connection_limits,
            shutdown,
        )
        .await;
        Ok::<(), String>(())
        }
    });
    // Tasks still parked (a connection past its grace, the keeper) are
    // dropped, not awaited; the engine threads end with the process.
    runtime.shutdown_timeout(Duration::from_millis(100));
    store.close_data();
    served.map_err(crate::output::Failure::from)
}

/// The data file `--data` names (`None`: `memory`), its directory made
/// when it is the default one.
fn data_file(given: Option<&std::path::Path>) -> Result<Option<std::path::PathBuf>, String> {
    if let Some(path) = given {
        return Ok((path.as_os_str() != "memory").then(|| path.to_path_buf()));
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|dir| !dir.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| std::path::Path::new(&home).join(".local/share")))
        .ok_or("no --data given, and neither XDG_DATA_HOME nor HOME is set: give --data PATH or --data memory")?;
    let dir = base.join("damas");
    std::fs::create_dir_all(&dir).map_err(|e| {
        format!(
            "cannot make {}: {e} (give --data PATH or --data memory)",
            dir.display()
        )
    })?;
    Ok(Some(dir.join("serve.sqlite")))
}

/// Completes on the first SIGINT (Ctrl-C) or SIGTERM; the handlers are
/// installed before it returns, so a signal sent once the address is
/// printed is never missed.
fn interrupted() -> Result<impl std::future::Future<Output = ()>, String> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt =
        signal(SignalKind::interrupt()).map_err(|e| format!("cannot catch SIGINT: {e}"))?;
    let mut terminate =
        signal(SignalKind::terminate()).map_err(|e| format!("cannot catch SIGTERM: {e}"))?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}
