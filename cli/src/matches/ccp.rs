//! The CCP dialogue (JumpStar's protocol, the CCERL benchmark) for the
//! match runner: CCP engines are sent the position itself, as the
//! 121-character compact board, and answer hop paths of cell ids.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use damas::AnyGame;

use super::process::{EngineFault, EngineProcess};
use super::ugi::{is_error, set_options, sync};
use super::wire::{Protocol, TimeControl, Turn};

/// The CCP protocol.
pub struct Ccp;

impl Protocol for Ccp {
    /// `ccp`, then `isready` (CCP engines answer `ccpok`, `id` or
    /// `protocol` lines in no fixed form, so `readyok` is what is waited
    /// for), then the engine's own options. The game options are not sent:
    /// `ccp` itself sets the CCERL rules, which the runner checked the
    /// match plays.
    fn start(
        &mut self,
        engine: &mut EngineProcess,
        _game_options: &[(String, String)],
        own_options: &[(String, String)],
        interrupt: &AtomicBool,
    ) -> Result<(), EngineFault> {
        engine.send("ccp")?;
        if let Some(error) = sync(engine, interrupt)? {
            return Err(EngineFault::Refused(format!("ccp: {error}")));
        }
        set_options(engine, own_options, interrupt)
    }

    fn best_move(
        &mut self,
        engine: &mut EngineProcess,
        turn: &Turn<'_>,
        deadline: Instant,
        interrupt: &AtomicBool,
    ) -> Result<String, EngineFault> {
        engine.send(&position_command(turn.game, turn.seat)?)?;
        engine.send(&go_command(turn.control, turn.clocks))?;
        loop {
            let line = engine.next_line(deadline, interrupt, "go")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => return Ok(move_of_ids(words.next().unwrap_or(""))),
                _ if is_error(&line) => return Err(EngineFault::Answered(line.trim().into())),
                _ => {}
            }
        }
    }

    fn quit_line(&self) -> &'static str {
        "quit"
    }
}

/// `position cells <COMPACT121> player <0|1> ply <N>` for the referee's
/// game (a two-player Chinese checkers game: the runner refuses CCP
/// engines for any other).
fn position_command(game: &AnyGame, seat: usize) -> Result<String, EngineFault> {
    let Some((cells, ply)) = damas::ccp::cells(game) else {
        return Err(EngineFault::Crashed(
            "CCP engines play only Chinese checkers".into(),
        ));
    };
    Ok(format!("position cells {cells} player {seat} ply {ply}"))
}

/// The `go` line; CCP's `w` is player 0.
fn go_command(control: TimeControl, clocks: &[Duration]) -> String {
    match (control, clocks) {
        (TimeControl::Clock { inc, .. }, [first, second]) => format!(
            "go wtime {} btime {} winc {i} binc {i}",
            first.as_millis(),
            second.as_millis(),
            i = inc.as_millis()
        ),
        (TimeControl::Clock { .. }, _) => "go infinite".to_string(),
        (TimeControl::MoveTime(time), _) => format!("go movetime {}", time.as_millis()),
        (TimeControl::Depth(depth), _) => format!("go depth {depth}"),
        (TimeControl::Nodes(nodes), _) => format!("go nodes {nodes}"),
    }
}

/// An engine's `bestmove` word (ids joined by `-` or `,`) in Damas's
/// notation; a word that names no cells is passed on as written, for the
/// referee to refuse as an illegal move.
fn move_of_ids(word: &str) -> String {
    let path = word.replace(',', "-");
    if !path.contains('-') {
        // One id (or `0000`, `(none)`) is no move.
        return word.to_string();
    }
    damas::ccp::path_of_ids(&path).unwrap_or_else(|| word.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas::options::Options;
    use damas::Game;

    #[test]
    fn positions_are_the_compact_board_and_the_ply() {
        let mut settings = Options::default();
        settings.set("Game", "chinese").unwrap();
        settings.set("Rules", "ccerl").unwrap();
        let mut game = AnyGame::new(&settings.spec().unwrap());
        game.play_text("e4-e5").unwrap();
        let line = position_command(&game, 1).unwrap();
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[..2], ["position", "cells"]);
        assert_eq!(words[3..], ["player", "1", "ply", "1"]);
        let cells = words[2].as_bytes();
        assert_eq!(cells.len(), 121);
        let id = |name: &str| -> usize {
            let id = damas::ccp::ids_of_path(name).unwrap();
            id.parse().unwrap()
        };
        assert_eq!(
            (id("e4"), cells[id("e4")], cells[id("e5")]),
            (6, b'.', b'0')
        );
        assert_eq!(cells.iter().filter(|&&c| c == b'1').count(), 10);
    }

    #[test]
    fn answers_in_ids_become_paths() {
        assert_eq!(move_of_ids("4-15-17"), "f3-f5-h5");
        assert_eq!(move_of_ids("4,15"), "f3-f5");
        assert_eq!(move_of_ids("0000"), "0000");
        assert_eq!(move_of_ids("4-999"), "4-999");
    }

    #[test]
    fn clocks_go_as_white_and_black() {
        let control = TimeControl::Clock {
            base: Duration::from_secs(1),
            inc: Duration::from_millis(10),
        };
        let clocks = [Duration::from_millis(900), Duration::from_millis(800)];
        assert_eq!(
            go_command(control, &clocks),
            "go wtime 900 btime 800 winc 10 binc 10"
        );
        assert_eq!(
            go_command(TimeControl::MoveTime(Duration::from_millis(50)), &clocks),
            "go movetime 50"
        );
    }
}
