//! The UGI adapter (UCI spellings accepted): commands into host requests,
//! host events into the lines UGI clients read. Moves are in the game's own
//! notation both ways. The CCP adapter ([`crate::ccp`]) shares the command
//! vocabulary and the line formats, with its own move notation.

use std::sync::Arc;

use crate::command::Command;
use crate::host::{ClientMove, Event, EventSink, Host, Request};
use crate::options::declaration_lines;
use crate::reply;
use crate::session::{Flow, Output};

/// How an adapter reads the moves a client writes and writes the moves the
/// host reports.
#[derive(Clone, Copy)]
pub(crate) struct Notation {
    /// A move as the client wrote it, in the game's notation.
    pub read: fn(&str) -> String,
    /// A move of the game's notation as the client writes it.
    pub write: fn(&str) -> String,
}

/// UGI writes moves in the game's notation.
pub(crate) const NOTATION: Notation = Notation {
    read: str::to_string,
    write: str::to_string,
};

/// The lines that report `event` to a UGI client.
pub fn event_lines(event: &Event) -> Vec<String> {
    lines_in(event, NOTATION)
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

/// An event sink that sends each event's UGI lines to `out`.
pub fn sink(out: &Output) -> EventSink {
    sink_in(out, NOTATION)
}

/// The reply to `ugi` (or `uci`): the engine's name and author, the options
/// with the current values as defaults, and `ugiok` (`uciok`).
pub fn hello(host: &Host, uci: bool) -> Vec<String> {
    let mut lines = identity();
    lines.extend(declaration_lines(host.settings()));
    lines.push(if uci { "uciok" } else { "ugiok" }.to_string());
    lines
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
            for line in crate::help::lines() {
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
            crate::ccp::position_cells(host, &cells, player, ply, moves(played));
            return Flow::Continue;
        }
        Command::IsReady => Request::IsReady,
        Command::SetOption { name, value } => Request::SetOption { name, value },
        Command::NewGame => Request::NewGame,
        Command::Position { fen, moves: played } => Request::Position {
            start: fen.map_or(crate::host::Start::Initial, crate::host::Start::Text),
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

/// Carries out one UGI command (anything but the handshakes).
pub fn handle(host: &mut Host, command: Command, out: &Output) -> Flow {
    handle_in(host, command, NOTATION, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas::search::{Score, SearchInfo};
    use std::time::Duration;

    #[test]
    fn events_become_ugi_lines() {
        assert_eq!(event_lines(&Event::Ready), ["readyok"]);
        assert_eq!(
            event_lines(&Event::Error("bad\rthing".into())),
            ["info string error bad\\rthing"]
        );
        assert_eq!(
            event_lines(&Event::Note("rules".into())),
            ["info string rules"]
        );
        assert_eq!(
            event_lines(&Event::Response("p1win".into())),
            ["response p1win"]
        );
        assert_eq!(event_lines(&Event::BestMove(None)), ["bestmove (none)"]);
        assert_eq!(
            event_lines(&Event::BestMove(Some("f3-f5-h5".into()))),
            ["bestmove f3-f5-h5"]
        );
        let info = SearchInfo {
            depth: 2,
            seldepth: 3,
            score: Score::Centi(12),
            nodes: 100,
            time: Duration::from_millis(10),
            hashfull: None,
            tbhits: None,
            pv: vec!["11-15".to_string(), "22-18".to_string()],
        };
        assert_eq!(
            event_lines(&Event::Info(info)),
            ["info depth 2 seldepth 3 score cp 12 nodes 100 nps 10000 time 10 pv 11-15 22-18"]
        );
    }

    #[test]
    fn perft_events_become_ugi_lines() {
        assert_eq!(
            event_lines(&Event::PerftRow {
                mv: "11-15".into(),
                nodes: 7
            }),
            ["11-15 7"]
        );
        assert_eq!(
            event_lines(&Event::PerftDone {
                depth: 3,
                nodes: 343,
                time: Duration::from_millis(2),
                nps: 171_500
            }),
            [
                "info string perft depth 3 nodes 343 time 2 nps 171500",
                "nodes 343"
            ]
        );
        assert_eq!(
            event_lines(&Event::PerftStopped {
                depth: 9,
                time: Duration::from_millis(40)
            }),
            ["info string perft depth 9 stopped after 40 ms"]
        );
    }

    #[test]
    fn hello_ends_with_the_dialect_word() {
        let host = Host::new(Arc::new(|_| {}));
        let ugi = hello(&host, false);
        assert!(ugi[0].starts_with("id name Damas "), "{ugi:?}");
        assert_eq!(ugi.last().map(String::as_str), Some("ugiok"));
        assert_eq!(hello(&host, true).last().map(String::as_str), Some("uciok"));
    }
}
