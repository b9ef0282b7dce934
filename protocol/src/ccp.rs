//! The CCP adapter (JumpStar's protocol of the CCERL benchmark, after
//! `ccp`): UGI's commands and lines, with Chinese checkers moves written as
//! paths of CCP cell ids (`4-15-17`), CCERL rules, and `position cells`,
//! which continues the game when the game reaches its position within two
//! turns (the history kept for the repetition rule; [`Start::Continue`]).
//! Anything that is no path of cells (a draughts move, `pass`) passes
//! unchanged.
//!
//! [`Start::Continue`]: crate::host::Start::Continue

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
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use damas::{AnyGame, EndReason, Game};

    use super::*;
    use crate::command;
    use crate::dialect::lines_in;
    use crate::host::Event;

    /// A host spoken to in CCP (after `ccp`), with the lines it writes.
    struct Client {
        host: Host,
        out: Output,
        lines: Arc<Mutex<Vec<String>>>,
    }

    impl Client {
        fn new() -> Client {
            let lines = Arc::new(Mutex::new(Vec::new()));
            let written = Arc::clone(&lines);
            let out: Output = Arc::new(move |line: &str| {
                written.lock().expect("lines").push(line.to_string());
            });
            let mut host = Host::new(sink(&out));
            assert_eq!(hello(&mut host).last().map(String::as_str), Some("ccpok"));
            Client { host, out, lines }
        }

        fn send(&mut self, line: &str) {
            let command = command::parse(line).expect("parses").expect("a command");
            handle(&mut self.host, command, &self.out);
            let start = Instant::now();
            while self.host.is_searching() {
                assert!(start.elapsed() < Duration::from_secs(60), "{line}");
                std::thread::sleep(Duration::from_millis(5));
            }
        }

        /// Sends `game`'s position as `position cells`, with `ply` as the
        /// plies played.
        fn send_cells(&mut self, game: &AnyGame, ply: u32) {
            let (cells, _) = damas::ccp::cells(game).expect("Chinese checkers");
            let player = game.to_move().expect("a player to move").index();
            self.send(&format!("position cells {cells} player {player} ply {ply}"));
        }

        fn errors(&self) -> Vec<String> {
            let lines = self.lines.lock().expect("lines");
            lines
                .iter()
                .filter(|l| l.starts_with("info string error"))
                .cloned()
                .collect()
        }

        /// The referee's game: the start of the rules `ccp` set.
        fn start(&self) -> AnyGame {
            AnyGame::new(&self.host.settings().spec().expect("CCERL"))
        }
    }

    fn play(game: &mut AnyGame, moves: &[&str]) {
        for mv in moves {
            game.play_text(mv).expect("legal");
        }
    }

    #[test]
    fn position_cells_continues_the_game_so_a_third_occurrence_is_seen() {
        let mut client = Client::new();
        let mut referee = client.start();
        client.send_cells(&referee, 0);
        client.send("go depth 1");
        assert!(client
            .lines
            .lock()
            .expect("lines")
            .iter()
            .any(|l| l.starts_with("bestmove ")));
        // The engine's reply and the rival's move (any reply: the referee
        // may play another move than the engine's), then both back, twice:
        // the start is seen twice, then the position after e4-e5 m14-m13.
        let plies: [&[&str]; 4] = [
            &["e4-e5", "m14-m13"],
            &["e5-e4", "m13-m14"],
            &["e4-e5", "m14-m13"],
            &["e5-e4"],
        ];
        for (turn, moves) in plies.iter().enumerate() {
            play(&mut referee, moves);
            client.send_cells(&referee, referee.turn_count() as u32);
            let game = client.host.game();
            assert!(damas::same_position(game, &referee), "turn {turn}");
            assert_eq!(game.turn_count(), referee.turn_count(), "turn {turn}");
        }
        assert_eq!(client.host.game().turn_count(), 7);
        // m13-m14 would bring the start back a third time: a draw, which
        // the engine knows only from the history.
        let mut third = client.host.game().clone();
        play(&mut third, &["m13-m14"]);
        assert_eq!(
            third.outcome().map(|o| o.reason),
            Some(EndReason::Repetition)
        );
        // The same position again (a client sending it twice), and with a
        // ply count of its own: the game goes on from its history.
        client.send_cells(&referee, 7);
        client.send_cells(&referee, 40);
        assert_eq!(client.host.game().turn_count(), 7);
        // A referee that does not count repetitions plays on from the third
        // occurrence: the engine takes the bare position and moves.
        let (cells, _) = damas::ccp::cells(&third).expect("cells");
        client.send(&format!("position cells {cells} player 0 ply 8"));
        assert_eq!(client.host.game().turn_count(), 0);
        assert!(!client.host.game().is_over());
        client.send("go depth 1");
        let lines = client.lines.lock().expect("lines").clone();
        assert_ne!(lines.last().map(String::as_str), Some("bestmove (none)"));
        assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));
        assert_eq!(client.errors(), Vec::<String>::new());
    }

    #[test]
    fn position_cells_with_moves_continues_to_the_position_they_reach() {
        let mut client = Client::new();
        let mut referee = client.start();
        play(&mut referee, &["e4-e5", "m14-m13"]);
        client.send_cells(&referee, 2);
        let (cells, _) = damas::ccp::cells(&referee).expect("cells");
        let ids = |moves: &[&str]| {
            moves
                .iter()
                .map(|m| write_move(m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        // The same base and two moves: two turns on from the game.
        client.send(&format!(
            "position cells {cells} player 0 ply 2 moves {}",
            ids(&["e5-e4", "m13-m14"])
        ));
        assert_eq!(client.host.game().turn_count(), 4);
        // The old base (two turns back) and four moves: the base is behind
        // the game, but the position the moves reach is two turns on.
        let more = ["e5-e4", "m13-m14", "e4-e5", "m14-m13"];
        client.send(&format!(
            "position cells {cells} player 0 ply 2 moves {}",
            ids(&more)
        ));
        play(&mut referee, &more);
        assert_eq!(client.host.game().turn_count(), 6);
        assert!(damas::same_position(client.host.game(), &referee));
        // The current position and three moves: the base is reached at
        // once and the moves are played on the game.
        let (cells, _) = damas::ccp::cells(&referee).expect("cells");
        let three = ["h4-h5", "l14-l13", "f4-f5"];
        client.send(&format!(
            "position cells {cells} player 0 ply 6 moves {}",
            ids(&three)
        ));
        play(&mut referee, &three);
        assert_eq!(client.host.game().turn_count(), 9);
        assert!(damas::same_position(client.host.game(), &referee));
        assert_eq!(client.errors(), Vec::<String>::new());
    }

    #[test]
    fn an_unrelated_position_or_a_new_game_starts_afresh() {
        let mut client = Client::new();
        let mut referee = client.start();
        play(&mut referee, &["e4-e5", "m14-m13"]);
        client.send_cells(&referee, 2);
        assert_eq!(client.host.game().turn_count(), 2);
        // Three turns on is too far: the bare position.
        play(&mut referee, &["h4-h5", "l14-l13", "f4-f5"]);
        client.send_cells(&referee, 5);
        assert_eq!(client.host.game().turn_count(), 0);
        assert!(damas::same_position(client.host.game(), &referee));
        // Back at the start of a new game: not reachable, so bare too.
        let start = client.start();
        client.send_cells(&start, 0);
        assert_eq!(client.host.game().turn_count(), 0);
        assert!(damas::same_position(client.host.game(), &start));
        // `ucinewgame` forgets the game; a position a turn from the start
        // then continues the new game.
        client.send_cells(&referee, 5);
        client.send("ucinewgame");
        let mut first = client.start();
        play(&mut first, &["e4-e5"]);
        client.send_cells(&first, 1);
        assert_eq!(client.host.game().turn_count(), 1);
        assert_eq!(client.errors(), Vec::<String>::new());
    }

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
