//! The CCP adapter (JumpStar's protocol of the CCERL benchmark, after
//! `ccp`): UGI's commands and lines, with Chinese checkers moves written as
//! paths of CCP cell ids (`4-15-17`), CCERL rules, and `position cells`.
//! Anything that is no path of cells (a draughts move, `pass`) passes
//! unchanged.

use damas::ccp::{self as notation, CellsError};

use crate::command::Command;
use crate::host::{ClientMove, EventSink, Host, Request, Start};
use crate::session::{Flow, Output};
use crate::ugi::{self, Notation};

/// A move as a CCP client writes it (`4-15-17`) in the game's notation.
pub fn read_move(written: &str) -> String {
    notation::path_of_ids(written).unwrap_or_else(|| written.to_string())
}

/// A move of the game's notation as a CCP client writes it.
pub fn write_move(text: &str) -> String {
    notation::ids_of_path(text).unwrap_or_else(|| text.to_string())
}

const NOTATION: Notation = Notation {
    read: read_move,
    write: write_move,
};

/// An event sink that sends each event's lines to `out`, moves as CCP ids.
pub fn sink(out: &Output) -> EventSink {
    ugi::sink_in(out, NOTATION)
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
    let mut lines = ugi::identity();
    lines.push("ccpok".to_string());
    lines
}

/// Carries out one command (anything but the handshakes), moves as CCP ids.
pub fn handle(host: &mut Host, command: Command, out: &Output) -> Flow {
    ugi::handle_in(host, command, NOTATION, out)
}

/// `position cells <COMPACT121> player <0|1> ply <N> [moves ...]`: the
/// position of two-player Chinese checkers, then `moves`.
pub(crate) fn position_cells(
    host: &mut Host,
    cells: &str,
    player: u32,
    ply: u32,
    moves: Vec<ClientMove>,
) {
    if host.is_searching() {
        return host.refuse_position(crate::host::BUSY);
    }
    let spec = match host.settings().spec() {
        Ok(spec) => spec,
        Err(err) => return host.refuse_position(err),
    };
    match notation::read_cells(&spec, cells, player, ply) {
        Ok(game) => host.handle(Request::Position {
            start: Start::Game(Box::new(game)),
            moves,
        }),
        Err(CellsError::WrongGame) => host.refuse_position(
            "'position cells' needs two-player Chinese checkers \
             (send 'ccp' or set Rules to ccerl)",
        ),
        Err(CellsError::Invalid(err)) => host.refuse_position(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Event;

    #[test]
    fn moves_are_written_as_cell_ids_and_others_pass_unchanged() {
        assert_eq!(read_move("4-15-17"), "f3-f5-h5");
        assert_eq!(write_move("f3-f5-h5"), "4-15-17");
        assert_eq!(write_move("pass"), "pass");
        assert_eq!(read_move("11-15x"), "11-15x");
        assert_eq!(
            ugi::lines_in(&Event::BestMove(Some("f3-f5-h5".into())), NOTATION),
            ["bestmove 4-15-17"]
        );
        assert_eq!(
            ugi::lines_in(&Event::BestMove(Some("pass".into())), NOTATION),
            ["bestmove pass"]
        );
    }
}
