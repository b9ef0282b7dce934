//! What the two dialects share: the UGI adapter ([`crate::ugi`]) and the
//! CCP adapter ([`crate::ccp`]) take the same commands to the same host
//! requests and write the same lines, and differ only in how moves are
//! written ([`Notation`]). The session ([`crate::session`]) picks the
//! adapter; this module knows none of them.

use std::sync::Arc;

use damas::ccp::{self, CellsError};

use crate::command::Command;
use crate::help;
use crate::host::{ClientMove, Event, EventSink, Host, Request, Start, BUSY};
use crate::reply;

/// Where replies go: one complete line per call, without the newline.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Whether the client asked the engine to exit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading input.
    Continue,
    /// `quit` was received: exit.
    Quit,
}

/// How an adapter reads the moves a client writes and writes the moves the
/// host reports.
#[derive(Clone, Copy)]
pub(crate) struct Notation {
    /// A move as the client wrote it, in the game's notation.
    pub read: fn(&str) -> String,
    /// A move of the game's notation as the client writes it.
    pub write: fn(&str) -> String,
}

/// The lines that report `event`, moves written by `notation`.
pub(crate) fn lines_in(event: &Event, notation: Notation) -> Vec<String> {
    match event {
        Event::Ready => vec!["readyok".to_string()],
        Event::Note(text) => vec![reply::info_string(text)],
        Event::Error(text) => vec![reply::error(text)],
        Event::Response(value) => vec![reply::response(value)],
        Event::Display(lines) => lines.clone(),
        Event::Info(info) => {
            let pv: Vec<String> = info.pv.iter().map(|mv| (notation.write)(mv)).collect();
            vec![reply::search_info(info, &pv)]
        }
        Event::BestMove(mv) => {
            let mv = mv.as_deref().map(notation.write);
            vec![reply::bestmove(mv.as_deref())]
        }
        Event::PerftRow { mv, nodes } => vec![format!("{mv} {nodes}")],
        Event::PerftDone {
            depth,
            nodes,
            time,
            nps,
        } => vec![
            format!(
                "info string perft depth {depth} nodes {nodes} time {} nps {nps}",
                time.as_millis()
            ),
            format!("nodes {nodes}"),
        ],
        Event::PerftStopped { depth, time } => vec![reply::info_string(format!(
            "perft depth {depth} stopped after {} ms",
            time.as_millis()
        ))],
    }
}

/// An event sink that sends each event's lines to `out`, moves written by
/// `notation`.
pub(crate) fn sink_in(out: &Output, notation: Notation) -> EventSink {
    let out = Arc::clone(out);
    Arc::new(move |event: Event| {
        for line in lines_in(&event, notation) {
            out(&line);
        }
    })
}

/// The `id name` and `id author` lines.
pub(crate) fn identity() -> Vec<String> {
    vec![
        format!("id name {}", reply::ENGINE_NAME),
        format!("id author {}", reply::ENGINE_AUTHOR),
    ]
}

/// Carries out `command` (anything but the handshakes, which switch
/// adapters: the session answers those), moves read by `notation`; lines
/// that are no host event (`help`) go to `out`.
pub(crate) fn handle_in(
    host: &mut Host,
    command: Command,
    notation: Notation,
    out: &Output,
) -> Flow {
    let moves = |moves: Vec<String>| -> Vec<ClientMove> {
        moves
            .into_iter()
            .map(|written| ClientMove {
                text: (notation.read)(&written),
                written,
            })
            .collect()
    };
    let request = match command {
        Command::Hello { .. } | Command::Ccp | Command::PonderHit | Command::Debug => {
            return Flow::Continue
        }
        Command::Quit => {
            host.stop();
            return Flow::Quit;
        }
        Command::Help => {
            for line in help::lines() {
                out(&line);
            }
            return Flow::Continue;
        }
        Command::PositionCells {
            cells,
            player,
            ply,
            moves: played,
        } => {
            position_cells(host, &cells, player, ply, moves(played));
            return Flow::Continue;
        }
        Command::IsReady => Request::IsReady,
        Command::SetOption { name, value } => Request::SetOption { name, value },
        Command::NewGame => Request::NewGame,
        Command::Position { fen, moves: played } => Request::Position {
            start: fen.map_or(Start::Initial, Start::Text),
            moves: moves(played),
        },
        Command::Go(params) => Request::Go(params),
        Command::Stop => Request::Stop,
        Command::Query(query) => Request::Query(query),
        Command::Display => Request::Display,
        Command::Perft(depth) => Request::Perft {
            depth,
            divide: false,
        },
        Command::Divide(depth) => Request::Perft {
            depth,
            divide: true,
        },
    };
    host.handle(request);
    Flow::Continue
}

/// `position cells <COMPACT121> player <0|1> ply <N> [moves ...]`: the
/// position of two-player Chinese checkers, then `moves`, as a
/// continuation of the current game when it reaches that position within
/// a few turns ([`Start::Continue`]), so that the game's history, which
/// the repetition rule reads, is kept.
pub(crate) fn position_cells(
    host: &mut Host,
    cells: &str,
    player: u32,
    ply: u32,
    moves: Vec<ClientMove>,
) {
    if host.is_searching() {
        return host.refuse_position(BUSY);
    }
    let spec = match host.settings().spec() {
        Ok(spec) => spec,
        Err(err) => return host.refuse_position(err),
    };
    match ccp::read_cells(&spec, cells, player, ply) {
        Ok(game) => host.handle(Request::Position {
            start: Start::Continue(Box::new(game)),
            moves,
        }),
        Err(CellsError::WrongGame) => host.refuse_position(
            "'position cells' needs two-player Chinese checkers \
             (send 'ccp' or set Rules to ccerl)",
        ),
        Err(CellsError::Invalid(err)) => host.refuse_position(err),
    }
}
