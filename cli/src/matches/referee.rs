//! The referee: plays one game between engine processes, keeping the game
//! with the library and checking every move and every clock.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use damas::options::Options;
use damas::{Game, Player};

use super::client::{EngineClient, EngineSpec};
use super::openings::Opening;
use super::process::EngineFault;
use super::wire::{TimeControl, Turn};

/// Parses `10+0.1` (seconds, increment in seconds).
pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |part: &str| {
        part.trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("time control '{text}': expected BASE+INC in seconds"))
    };
    Ok(TimeControl::Clock {
        base: seconds(base)?,
        inc: seconds(inc)?,
    })
}

/// What decided a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it.
    Rules(String),
    /// An engine forfeited: illegal move, crash or time.
    Forfeit {
        /// The seat (0-based) of the offender.
        seat: usize,
        /// What happened.
        why: String,
    },
    /// The runner's own cap on plies was reached, or no engine started.
    Adjudicated,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct RefereedGame {
    /// Engine index per seat.
    pub seats: Vec<usize>,
    /// The opening used.
    pub opening: Opening,
    /// Every turn, in the game's notation, from the opening's position
    /// (the opening's own moves first; a forfeited seat's `resign` where
    /// it was out).
    pub moves: Vec<String>,
    /// Place per seat, 1-based; equal places are ties.
    pub places: Vec<u32>,
    /// Why it ended.
    pub endings: Vec<Ending>,
}

/// Why a game was not finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unfinished {
    /// SIGINT or SIGTERM.
    Interrupted,
    /// An engine refused an option: the match cannot be played as asked.
    Refused {
        /// The engine's index.
        engine: usize,
        /// What it said.
        line: String,
    },
    /// The opening does not build (checked before the match; kept for
    /// safety rather than a panic).
    BadOpening(String),
}

/// Most plies the referee lets a game run before it adjudicates it a draw
/// among the players still in, whatever the rules' own limits say.
const PLY_CAP: usize = 5000;
/// Slack allowed beyond a clock or move time before a loss on time.
const TIME_MARGIN: Duration = Duration::from_millis(100);
/// Time allowed for a fixed-depth or fixed-node move.
const FIXED_LIMIT_TIMEOUT: Duration = Duration::from_secs(120);

/// Plays one game. `game_options` are sent to every engine and used by the
/// referee's own copy of the game. `interrupt` abandons the game.
pub fn play_game(
    options: &Options,
    game_options: &[(String, String)],
    specs: &[EngineSpec],
    seats: &[usize],
    opening: &Opening,
    control: TimeControl,
    interrupt: &AtomicBool,
) -> Result<RefereedGame, Unfinished> {
    let mut game = opening.build(options).map_err(Unfinished::BadOpening)?;
    let players = game.player_count();
    let mut record = RefereedGame {
        seats: seats.to_vec(),
        opening: opening.clone(),
        moves: opening.moves.clone(),
        places: Vec::new(),
        endings: Vec::new(),
    };
    let mut clients: Vec<Option<EngineClient>> = Vec::with_capacity(players);
    for (seat, &engine) in seats.iter().enumerate() {
        match EngineClient::start(&specs[engine], game_options, interrupt) {
            Ok(client) => clients.push(Some(client)),
            Err(EngineFault::Interrupted) => return Err(Unfinished::Interrupted),
            Err(EngineFault::Refused(line)) => return Err(Unfinished::Refused { engine, line }),
            Err(fault) => {
                record.endings.push(Ending::Forfeit {
                    seat,
                    why: printable(&fault.to_string()),
                });
                clients.push(None);
            }
        }
    }
    if clients.iter().all(Option::is_none) {
        record.endings.push(Ending::Adjudicated);
        game.adjudicate_draw();
    } else if players == 2 {
        // With two players a seat that never started loses at once (a
        // move by its rival first would tell nothing).
        let never_started = clients.iter().position(Option::is_none);
        if let Some(player) = never_started.and_then(Player::new) {
            let _ = game.resign(player);
        }
    }
    // With more players a seat that is out resigns at its turn: the move
    // list can only say that the player to move resigns, and every engine
    // then reads the same `resign` in its `position` line.
    let mut clocks: Vec<Duration> = match control {
        TimeControl::Clock { base, .. } => vec![base; players],
        _ => vec![Duration::ZERO; players],
    };
    let mut plies = 0usize;
    while !game.is_over() && plies < PLY_CAP {
        if interrupt.load(Ordering::Relaxed) {
            return Err(Unfinished::Interrupted);
        }
        let Some(seat) = game.to_move().map(Player::index) else {
            break;
        };
        plies += 1;
        let Some(client) = clients[seat].as_mut() else {
            resign_to_move(&mut game, &mut record);
            continue;
        };
        let allowed = match control {
            TimeControl::Clock { .. } => clocks[seat],
            TimeControl::MoveTime(time) => time,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => FIXED_LIMIT_TIMEOUT,
        };
        let turn = Turn {
            start: opening.start.as_deref(),
            moves: &record.moves,
            game: &game,
            control,
            clocks: &clocks,
            seat,
        };
        let outcome = match client.best_move(&turn, allowed + TIME_MARGIN, interrupt) {
            Ok((mv, elapsed)) => {
                let on_time = match control {
                    TimeControl::Clock { inc, .. } if elapsed <= clocks[seat] + TIME_MARGIN => {
                        clocks[seat] = clocks[seat].saturating_sub(elapsed) + inc;
                        true
                    }
                    TimeControl::Clock { .. } => false,
                    _ => true,
                };
                if on_time {
                    game.play_text(&mv)
                        .map_err(|err| format!("illegal move '{}': {err}", printable(&mv)))
                } else {
                    Err(format!("lost on time ({} ms used)", elapsed.as_millis()))
                }
            }
            Err(EngineFault::Interrupted) => return Err(Unfinished::Interrupted),
            Err(EngineFault::Timeout(_)) => Err("lost on time (no bestmove)".to_string()),
            Err(fault) => Err(fault.to_string()),
        };
        match outcome {
            Ok(played) => record.moves.push(played),
            Err(why) => {
                record.endings.push(Ending::Forfeit {
                    seat,
                    why: printable(&why),
                });
                // Its process group ends now, not at the end of the game.
                clients[seat] = None;
                resign_to_move(&mut game, &mut record);
            }
        }
    }
    if !game.is_over() {
        record.endings.push(Ending::Adjudicated);
        game.adjudicate_draw();
    } else if let Some(outcome) = game.outcome() {
        if record.endings.last() != Some(&Ending::Adjudicated) {
            record
                .endings
                .push(Ending::Rules(outcome.reason.to_string()));
        }
    }
    record.places = game.outcome().map_or_else(
        || vec![1; players],
        |outcome| outcome.places.into_iter().map(u32::from).collect(),
    );
    Ok(record)
}

/// The player to move resigns (a forfeit), written in the record as the
/// `resign` turn every engine is sent.
fn resign_to_move(game: &mut impl Game, record: &mut RefereedGame) {
    if let Ok(played) = game.play_text("resign") {
        record.moves.push(played);
    }
}

/// Engine text made safe for one-line reports and records: control
/// characters become spaces, and it is cut to a bounded length.
fn printable(text: &str) -> String {
    text.chars()
        .take(300)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_parsing() {
        assert_eq!(
            parse_clock("10+0.1"),
            Ok(TimeControl::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            })
        );
        assert!(parse_clock("x+1").is_err());
        assert!(parse_clock("-1+0").is_err());
        assert!(parse_clock("inf+0").is_err());
    }

    #[test]
    fn engine_text_in_reports_stays_on_one_line() {
        assert_eq!(printable("a\tb\nc"), "a b c");
        assert_eq!(printable(&"x".repeat(1000)).len(), 300);
    }
}
