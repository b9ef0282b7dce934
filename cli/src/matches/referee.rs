//! The referee: plays one game between engine processes, keeping the game
//! with the library and checking every move and every clock.

use std::time::Duration;

use damas::{Game, Player};
use damas_protocol::options::Options;

use super::client::{EngineClient, EngineFault, EngineSpec};
use super::openings::Opening;

/// How each move is limited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock per player: base time and increment.
    Clock {
        /// Starting time.
        base: Duration,
        /// Added after each move.
        inc: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed depth per move.
    Depth(u32),
    /// A fixed node budget per move.
    Nodes(u64),
}

impl TimeControl {
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
    /// The runner's own cap on plies was reached.
    Adjudicated,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Engine index per seat.
    pub seats: Vec<usize>,
    /// The opening used.
    pub opening: Opening,
    /// Every move, in the game's notation, from the opening's position
    /// (the opening's own moves first).
    pub moves: Vec<String>,
    /// Place per seat, 1-based; equal places are ties.
    pub places: Vec<u32>,
    /// Why it ended.
    pub endings: Vec<Ending>,
}

/// Most plies the referee lets a game run before it adjudicates it a draw
/// among the players still in, whatever the rules' own limits say.
const PLY_CAP: usize = 5000;
/// Slack allowed beyond a clock or move time before a loss on time.
const TIME_MARGIN: Duration = Duration::from_millis(100);
/// Time allowed for a fixed-depth or fixed-node move.
const FIXED_LIMIT_TIMEOUT: Duration = Duration::from_secs(120);

/// Plays one game. `game_options` are sent to every engine and used by the
/// referee's own copy of the game.
pub fn play_game(
    options: &Options,
    game_options: &[(String, String)],
    specs: &[EngineSpec],
    seats: &[usize],
    opening: &Opening,
    control: TimeControl,
) -> GameRecord {
    let mut game = opening
        .build(options)
        .expect("openings are validated before the match starts");
    let players = game.player_count();
    let mut record = GameRecord {
        seats: seats.to_vec(),
        opening: opening.clone(),
        moves: opening.moves.clone(),
        places: Vec::new(),
        endings: Vec::new(),
    };
    let mut clients: Vec<Option<EngineClient>> = Vec::with_capacity(players);
    for &engine in seats {
        match EngineClient::start(&specs[engine], game_options) {
            Ok(client) => clients.push(Some(client)),
            Err(fault) => {
                let seat = clients.len();
                record.endings.push(Ending::Forfeit {
                    seat,
                    why: fault.to_string(),
                });
                forfeit(&mut game, seat);
                clients.push(None);
            }
        }
    }
    let mut clocks: Vec<Duration> = match control {
        TimeControl::Clock { base, .. } => vec![base; players],
        _ => vec![Duration::ZERO; players],
    };
    let mut plies = 0usize;
    while !game.is_over() && plies < PLY_CAP {
        let Some(seat) = game.to_move().map(Player::index) else {
            break;
        };
        let Some(client) = clients[seat].as_mut() else {
            // A forfeited seat whose turns the rules did not skip.
            forfeit(&mut game, seat);
            continue;
        };
        let position = position_command(opening, &record.moves);
        let (go, allowed) = go_command(control, &clocks, players, seat);
        let answer = client
            .send(&position)
            .and_then(|()| client.best_move(&go, allowed + TIME_MARGIN));
        let outcome = match answer {
            Ok((mv, elapsed)) => {
                if let TimeControl::Clock { inc, .. } = control {
                    if elapsed > clocks[seat] + TIME_MARGIN {
                        Err(format!("lost on time ({} ms used)", elapsed.as_millis()))
                    } else {
                        clocks[seat] = clocks[seat].saturating_sub(elapsed) + inc;
                        game.play_text(&mv)
                            .map_err(|err| format!("illegal move '{mv}': {err}"))
                    }
                } else {
                    game.play_text(&mv)
                        .map_err(|err| format!("illegal move '{mv}': {err}"))
                }
            }
            Err(EngineFault::Timeout(_)) => Err("lost on time (no bestmove)".to_string()),
            Err(fault) => Err(fault.to_string()),
        };
        match outcome {
            Ok(played) => record.moves.push(played),
            Err(why) => {
                record.endings.push(Ending::Forfeit { seat, why });
                clients[seat] = None;
                forfeit(&mut game, seat);
            }
        }
        plies += 1;
    }
    if !game.is_over() {
        record.endings.push(Ending::Adjudicated);
        game.adjudicate_draw();
    } else if let Some(outcome) = game.outcome() {
        record
            .endings
            .push(Ending::Rules(outcome.reason.to_string()));
    }
    record.places = game.outcome().map_or_else(
        || vec![1; players],
        |outcome| outcome.places.into_iter().map(u32::from).collect(),
    );
    record
}

/// The referee's ruling that the engine in `seat` loses: with two players
/// the rival wins; with more, the seat resigns and takes the last free
/// place.
fn forfeit(game: &mut impl Game, seat: usize) {
    if let Some(player) = Player::new(seat) {
        // Refused only when the game is over or the seat is out already:
        // nothing left to forfeit then.
        let _ = game.resign(player);
    }
}

fn position_command(opening: &Opening, moves: &[String]) -> String {
    let mut line = match &opening.start {
        None => "position startpos".to_string(),
        Some(text) => format!("position fen {text}"),
    };
    if !moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&moves.join(" "));
    }
    line
}

fn go_command(
    control: TimeControl,
    clocks: &[Duration],
    players: usize,
    seat: usize,
) -> (String, Duration) {
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
            if players == 2 {
                go.push_str(&format!(
                    " wtime {} btime {} winc {i} binc {i}",
                    clocks[0].as_millis(),
                    clocks[1].as_millis(),
                    i = inc.as_millis()
                ));
            }
            (go, clocks[seat])
        }
        TimeControl::MoveTime(time) => (format!("go movetime {}", time.as_millis()), time),
        TimeControl::Depth(depth) => (format!("go depth {depth}"), FIXED_LIMIT_TIMEOUT),
        TimeControl::Nodes(nodes) => (format!("go nodes {nodes}"), FIXED_LIMIT_TIMEOUT),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_parsing() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1"),
            Ok(TimeControl::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            })
        );
        assert!(TimeControl::parse_clock("x+1").is_err());
        assert!(TimeControl::parse_clock("-1+0").is_err());
    }

    #[test]
    fn go_lines_carry_every_clock() {
        let clocks = [Duration::from_millis(900), Duration::from_millis(800)];
        let control = TimeControl::Clock {
            base: Duration::from_secs(1),
            inc: Duration::from_millis(10),
        };
        let (go, allowed) = go_command(control, &clocks, 2, 1);
        assert_eq!(
            go,
            "go p1time 900 p1inc 10 p2time 800 p2inc 10 wtime 900 btime 800 winc 10 binc 10"
        );
        assert_eq!(allowed, Duration::from_millis(800));
    }
}
