//! The UGI adapter (UCI spellings accepted): commands into host requests,
//! host events into the lines UGI clients read. Moves are in the game's own
//! notation both ways. The CCP adapter ([`crate::ccp`]) shares the command
//! vocabulary and the line formats (both in the crate's `dialect` module),
//! with its own move notation.

use crate::command::Command;
use crate::dialect::{handle_in, identity, lines_in, sink_in, Flow, Notation, Output};
use crate::host::{Event, EventSink, Host};
use crate::options::declaration_lines;

/// UGI writes moves in the game's notation.
pub(crate) const NOTATION: Notation = Notation {
    read: str::to_string,
    write: str::to_string,
};

/// The lines that report `event` to a UGI client.
pub fn event_lines(event: &Event) -> Vec<String> {
    lines_in(event, NOTATION)
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

/// Carries out one UGI command (anything but the handshakes).
pub fn handle(host: &mut Host, command: Command, out: &Output) -> Flow {
    handle_in(host, command, NOTATION, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas::search::{Score, SearchInfo};
    use std::sync::Arc;
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
