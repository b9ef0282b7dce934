//! The CCP adapter (JumpStar's protocol of the CCERL benchmark, after
//! `ccp`): UGI's commands and lines, with Chinese checkers moves written as
//! paths of CCP cell ids (`4-15-17`), CCERL rules, and `position cells`.
//! Anything that is no path of cells (a draughts move, `pass`) passes
//! unchanged.

use damas::ccp;

use crate::command::Command;
use crate::dialect::{handle_in, identity, sink_in, Flow, Notation, Output};
use crate::host::{EventSink, Host, Request};

/// A move as a CCP client writes it (`4-15-17`) in the game's notation.
pub fn read_move(written: &str) -> String {
    ccp::path_of_ids(written).unwrap_or_else(|| written.to_string())
}

/// A move of the game's notation as a CCP client writes it.
pub fn write_move(text: &str) -> String {
    ccp::ids_of_path(text).unwrap_or_else(|| text.to_string())
}

const NOTATION: Notation = Notation {
    read: read_move,
    write: write_move,
};

/// An event sink that sends each event's lines to `out`, moves as CCP ids.
pub fn sink(out: &Output) -> EventSink {
    sink_in(out, NOTATION)
}

/// Starts speaking CCP: sets two players and the CCERL rules and returns
/// the reply to `ccp` (the engine's name and author, then `ccpok`).
pub fn hello(host: &mut Host) -> Vec<String> {
    // CCP is two-player Chinese checkers whatever `Players` said before.
    host.handle(Request::SetOption {
        name: "Players".into(),
        value: "2".into(),
    });
    host.handle(Request::SetOption {
        name: "Rules".into(),
        value: "ccerl".into(),
    });
    let mut lines = identity();
    lines.push("ccpok".to_string());
    lines
}

/// Carries out one command (anything but the handshakes), moves as CCP ids.
pub fn handle(host: &mut Host, command: Command, out: &Output) -> Flow {
    handle_in(host, command, NOTATION, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::lines_in;
    use crate::host::Event;

    #[test]
    fn moves_are_written_as_cell_ids_and_others_pass_unchanged() {
        assert_eq!(read_move("4-15-17"), "f3-f5-h5");
        assert_eq!(write_move("f3-f5-h5"), "4-15-17");
        assert_eq!(write_move("pass"), "pass");
        assert_eq!(read_move("11-15x"), "11-15x");
        assert_eq!(
            lines_in(&Event::BestMove(Some("f3-f5-h5".into())), NOTATION),
            ["bestmove 4-15-17"]
        );
        assert_eq!(
            lines_in(&Event::BestMove(Some("pass".into())), NOTATION),
            ["bestmove pass"]
        );
    }
}
