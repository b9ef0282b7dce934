//! The UGI dialogue (docs/PROTOCOL.md) for the match runner.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::process::{EngineFault, EngineProcess};
use super::wire::{Protocol, TimeControl, Turn};

/// How long an engine may take to start up, or to answer `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The UGI protocol.
pub struct Ugi;

/// Whether an engine's line reports an error (`info string error ...`).
pub fn is_error(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next() == Some("info") && words.next() == Some("string") && words.next() == Some("error")
}

/// `isready`, then every line up to `readyok`; the first error line on
/// the way is returned (CCP engines answer `isready` the same way).
pub fn sync(
    engine: &mut EngineProcess,
    interrupt: &AtomicBool,
) -> Result<Option<String>, EngineFault> {
    engine.send("isready")?;
    let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
    let mut error = None;
    loop {
        let line = engine.next_line(deadline, interrupt, "isready")?;
        let line = line.trim();
        if line == "readyok" {
            return Ok(error);
        }
        if is_error(line) && error.is_none() {
            error = Some(line.to_string());
        }
    }
}

/// Each option as `setoption` + `isready`, so that a refusal is pinned on
/// the option that caused it ([`EngineFault::Refused`] with the engine's
/// line).
pub fn set_options<'a>(
    engine: &mut EngineProcess,
    options: impl IntoIterator<Item = &'a (String, String)>,
    interrupt: &AtomicBool,
) -> Result<(), EngineFault> {
    for (name, value) in options {
        engine.send(&format!("setoption name {name} value {value}"))?;
        if let Some(error) = sync(engine, interrupt)? {
            return Err(EngineFault::Refused(format!(
                "setoption name {name} value {value}: {error}"
            )));
        }
    }
    Ok(())
}

impl Protocol for Ugi {
    fn start(
        &mut self,
        engine: &mut EngineProcess,
        game_options: &[(String, String)],
        own_options: &[(String, String)],
        interrupt: &AtomicBool,
    ) -> Result<(), EngineFault> {
        engine.send("ugi")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = engine.next_line(deadline, interrupt, "ugi")?;
            if matches!(line.trim(), "ugiok" | "uciok") {
                break;
            }
        }
        set_options(engine, game_options.iter().chain(own_options), interrupt)?;
        engine.send("uginewgame")?;
        match sync(engine, interrupt)? {
            Some(error) => Err(EngineFault::Refused(format!("uginewgame: {error}"))),
            None => Ok(()),
        }
    }

    fn best_move(
        &mut self,
        engine: &mut EngineProcess,
        turn: &Turn<'_>,
        deadline: Instant,
        interrupt: &AtomicBool,
    ) -> Result<String, EngineFault> {
        engine.send(&position_command(turn.start, turn.moves))?;
        engine.send(&go_command(turn.control, turn.clocks))?;
        loop {
            let line = engine.next_line(deadline, interrupt, "go")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => return Ok(words.next().unwrap_or("").to_string()),
                _ if is_error(&line) => return Err(EngineFault::Answered(line.trim().into())),
                _ => {}
            }
        }
    }

    fn quit_line(&self) -> &'static str {
        "quit"
    }
}

/// `position startpos moves ...` or `position fen TEXT moves ...`.
pub fn position_command(start: Option<&str>, moves: &[String]) -> String {
    let mut line = match start {
        None => "position startpos".to_string(),
        Some(text) => format!("position fen {text}"),
    };
    if !moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&moves.join(" "));
    }
    line
}

/// The `go` line: every player's clock (and the two-player `wtime` form),
/// or the fixed limit.
pub fn go_command(control: TimeControl, clocks: &[Duration]) -> String {
    match control {
        TimeControl::Clock { inc, .. } => {
            let mut go = String::from("go");
            for (p, clock) in clocks.iter().enumerate() {
                go.push_str(&format!(
                    " p{n}time {t} p{n}inc {i}",
                    n = p + 1,
                    t = clock.as_millis(),
                    i = inc.as_millis()
                ));
            }
            if let [white, black] = clocks {
                go.push_str(&format!(
                    " wtime {} btime {} winc {i} binc {i}",
                    white.as_millis(),
                    black.as_millis(),
                    i = inc.as_millis()
                ));
            }
            go
        }
        TimeControl::MoveTime(time) => format!("go movetime {}", time.as_millis()),
        TimeControl::Depth(depth) => format!("go depth {depth}"),
        TimeControl::Nodes(nodes) => format!("go nodes {nodes}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_lines_carry_every_clock() {
        let clocks = [Duration::from_millis(900), Duration::from_millis(800)];
        let control = TimeControl::Clock {
            base: Duration::from_secs(1),
            inc: Duration::from_millis(10),
        };
        assert_eq!(
            go_command(control, &clocks),
            "go p1time 900 p1inc 10 p2time 800 p2inc 10 wtime 900 btime 800 winc 10 binc 10"
        );
        assert_eq!(go_command(TimeControl::Depth(3), &clocks), "go depth 3");
    }

    #[test]
    fn positions_list_every_turn() {
        let moves = vec!["e4-e5".to_string(), "resign".to_string()];
        assert_eq!(
            position_command(None, &moves),
            "position startpos moves e4-e5 resign"
        );
        assert_eq!(
            position_command(Some("W:W1:B32"), &[]),
            "position fen W:W1:B32"
        );
    }

    #[test]
    fn only_error_lines_count_as_errors() {
        assert!(is_error("info string error unknown option 'Thraeds'"));
        assert!(is_error("info  string\terror x"));
        assert!(!is_error("info string errors are fine"));
        assert!(!is_error("info string rules: international"));
    }
}
