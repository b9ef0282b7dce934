//! The server's connections: its own accept loop over hyper, so that each
//! connection is bounded in number (past the cap a client is answered 503
//! and closed at once), in time (a request's header must arrive within the
//! read timeout, idle keep-alive connections included) and ends within a
//! second of a shutdown signal, whatever its clients are doing.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tower::Service;

use super::messages::Message;

/// How long the open connections get to finish after a shutdown signal
/// before they are dropped: the whole shutdown stays under a second.
const SHUTDOWN_GRACE: Duration = Duration::from_millis(500);

/// How long the loop waits after failing to accept (out of file
/// descriptors, say) before trying again, rather than spinning.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// File descriptors kept for the process itself (standard streams, the
/// listener, the runtime's own) when the cap is fitted to the limit.
const RESERVED_FDS: u64 = 32;

/// How connections are bounded.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// Connections served at once.
    pub max_connections: usize,
    /// Time a request's header may take to arrive, counted from the end of
    /// the previous request on the connection.
    pub header_timeout: Duration,
}

/// The connection cap asked for, lowered to fit the process's limit on
/// open files (a cap above it would fail clients at random instead of
/// answering them 503).
pub fn fitted_cap(asked: usize) -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given and nothing else.
    let known = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    if !known || limit.rlim_cur == libc::RLIM_INFINITY {
        return asked;
    }
    let room = limit.rlim_cur.saturating_sub(RESERVED_FDS).max(1);
    asked.min(usize::try_from(room).unwrap_or(usize::MAX))
}

/// The answer to a connection past the cap, written without waiting.
fn refusal() -> Vec<u8> {
    let body = Message::ServerBusy.error_body().to_string();
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\nretry-after: 1\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Serves `router` on `listener` until `shutdown` completes, then gives
/// the open connections [`SHUTDOWN_GRACE`] to finish and returns.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let cap = limits.max_connections.max(1);
    let permits = Arc::new(Semaphore::new(cap));
    let (stopping, stop) = watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let refusal = refusal();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(_) => {
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            // Best effort, never waiting: what the client already sent is
            // read (closing on unread bytes would reset the connection
            // before it reads the answer) and the socket buffer takes the
            // answer.
            let mut sent = [0u8; 4096];
            let _ = stream.try_read(&mut sent);
            let _ = stream.try_write(&refusal);
            continue;
        };
        let _ = stream.set_nodelay(true);
        // The client's address goes with each request, for the handlers
        // that count per client.
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            router.clone().call(request)
        });
        let connection = http.serve_connection(TokioIo::new(stream), service);
        let mut stop = stop.clone();
        tokio::spawn(async move {
            let _permit = permit;
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                () = async { let _ = stop.wait_for(|&stopping| stopping).await; } => {
                    connection.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(SHUTDOWN_GRACE, connection).await;
                }
            }
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    // Every connection gives its permit back when it ends.
    let all = u32::try_from(cap).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, permits.acquire_many(all)).await;
}
