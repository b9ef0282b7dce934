//! What the storage keeps of a game and of a group, and how they are made
//! again when the server starts: a game from its settings and seats and
//! its turns replayed through the library's game, a group from its members
//! and settings (read by the same checks as a request's). What lives only
//! while the server runs (searches in flight, open streams, the turn
//! clock's start) is not kept.

use std::sync::Arc;
use std::time::{Duration, Instant, UNIX_EPOCH};

use damas::options::{OptionGroup, OptionType, OPTIONS};
use damas::{Game, GameKind, Player};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::db::StoredTurn;
use super::error::ApiError;
use super::group::{Group, GroupSettings, Member};
use super::messages::Message;
use super::pulse::Pulse;
use super::requests::{game_settings, read_settings, RuleChoices};
use super::session::{Handover, Seat, SeatKind, Settings, WebGame};
use super::tokens::Binding;

/// Why a stored setting was refused, in words.
fn refused(error: ApiError) -> String {
    error.message.to_string()
}

/// A seat as stored.
#[derive(Serialize, Deserialize)]
struct SavedSeat {
    engine: bool,
    level: u8,
    think_ms: u32,
}

impl SavedSeat {
    fn of(seat: Seat) -> SavedSeat {
        SavedSeat {
            engine: seat.kind == SeatKind::Engine,
            level: seat.level,
            think_ms: seat.think_ms,
        }
    }

    fn seat(&self) -> Seat {
        Seat {
            kind: if self.engine {
                SeatKind::Engine
            } else {
                SeatKind::Human
            },
            level: self.level,
            think_ms: self.think_ms,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct SavedHandover {
    seat: usize,
    turn: usize,
    before: SavedSeat,
}

#[derive(Serialize, Deserialize)]
struct SavedBinding {
    group: u64,
    owners: Vec<Option<usize>>,
    names: Vec<String>,
    tokens: Vec<String>,
    away: Vec<bool>,
}

/// A game as stored, beside its turns.
#[derive(Serialize, Deserialize)]
struct SavedGame {
    game: String,
    players: u8,
    /// Every rule option of the game by name, as the option table writes
    /// it.
    rules: Map<String, Value>,
    rotate_first: bool,
    turn_seconds: u32,
    seats: Vec<SavedSeat>,
    start: Option<String>,
    game_number: u32,
    handovers: Vec<SavedHandover>,
    binding: Option<SavedBinding>,
    /// When the game began, in milliseconds since the Unix epoch.
    started_ms: u64,
    /// The referee ended it as a draw at the turn cap.
    adjudicated: bool,
    /// The page's change counter, so that a page open across a restart
    /// takes the state it is sent as newer.
    version: u64,
}

/// A game's record (its turns are stored beside it).
pub fn game_record(session: &WebGame) -> String {
    let options = &session.settings.options;
    let rules = OPTIONS
        .iter()
        .filter(|decl| {
            decl.group == OptionGroup::Rule
                && decl.applies_to(options.game)
                && !matches!(decl.kind, OptionType::Combo(_))
        })
        .map(|decl| {
            (
                decl.name.to_string(),
                Value::String(decl.value_text(options)),
            )
        })
        .collect();
    let saved = SavedGame {
        game: options.game.name().to_string(),
        players: options.players,
        rules,
        rotate_first: session.settings.rotate_first,
        turn_seconds: session.settings.turn_seconds,
        seats: session.seats.iter().copied().map(SavedSeat::of).collect(),
        start: session.start.clone(),
        game_number: session.game_number,
        handovers: session
            .handovers
            .iter()
            .map(|h| SavedHandover {
                seat: h.seat,
                turn: h.turn,
                before: SavedSeat::of(h.before),
            })
            .collect(),
        binding: session.binding.as_ref().map(|b| SavedBinding {
            group: b.group,
            owners: b.owners.clone(),
            names: b.names.clone(),
            tokens: b.tokens.clone(),
            away: b.away.clone(),
        }),
        started_ms: session
            .started
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
        adjudicated: matches!(session.notice, Some(Message::TurnCap(_))),
        version: session.version,
    };
    serde_json::to_string(&saved).unwrap_or_default()
}

/// The game `id` made again from its record and turns, or why not.
pub fn restore_game(
    id: u64,
    record: &str,
    turns: &[StoredTurn],
    max_turns: u32,
    now: Instant,
) -> Result<WebGame, String> {
    let saved: SavedGame = serde_json::from_str(record).map_err(|e| e.to_string())?;
    let kind: GameKind = saved
        .game
        .parse()
        .map_err(|_| "an unknown game".to_string())?;
    let choices = RuleChoices {
        rules: Some(&saved.rules),
        anti_blocking: None,
        play_to_end: None,
    };
    let options = game_settings(kind, saved.players, choices).map_err(refused)?;
    let settings =
        Settings::new(options, saved.rotate_first, saved.turn_seconds).map_err(refused)?;
    let seats = saved.seats.iter().map(SavedSeat::seat).collect();
    let mut session = WebGame::new(id, settings, seats, saved.start.as_deref(), max_turns, now)
        .map_err(refused)?;
    for (n, turn) in turns.iter().enumerate() {
        let game = Arc::make_mut(&mut session.game);
        let done = match turn.text.as_str() {
            "pass" => game.pass(),
            "resign" => Player::new(turn.player)
                .ok_or(damas::PlayError::WrongGame)
                .and_then(|player| game.resign(player)),
            text => game.play_text(text).map(|_| ()),
        };
        done.map_err(|e| format!("turn {} ({}) does not replay: {e}", n + 1, turn.text))?;
    }
    if saved.adjudicated && !session.game.is_over() {
        Arc::make_mut(&mut session.game).adjudicate_draw();
        session.notice = Some(Message::TurnCap(max_turns as usize));
    }
    session.game_number = saved.game_number;
    session.handovers = saved
        .handovers
        .iter()
        .map(|h| Handover {
            seat: h.seat,
            turn: h.turn,
            before: h.before.seat(),
        })
        .collect();
    session.binding = saved.binding.map(|b| Binding {
        group: b.group,
        owners: b.owners,
        names: b.names,
        tokens: b.tokens,
        away: b.away,
    });
    session.started = UNIX_EPOCH + Duration::from_millis(saved.started_ms);
    // Newer than anything a page saw before the restart.
    session.version = saved.version.saturating_add(1);
    session.stored_version = session.version;
    session.stored_turns = turns.len();
    Ok(session)
}

/// A group's member as stored.
#[derive(Serialize, Deserialize)]
struct SavedMember {
    name: String,
    token: String,
    half_points: u32,
    games: u32,
    away: bool,
    vacant: bool,
}

/// A group as stored.
#[derive(Serialize, Deserialize)]
struct SavedGroup {
    members: Vec<SavedMember>,
    /// The settings as a request gives them.
    settings: Value,
    game: Option<u64>,
    games_played: u32,
    counted: bool,
}

/// The settings as a request gives them (read back by the same checks).
fn settings_request(settings: &GroupSettings) -> Value {
    let engines: Vec<Value> = settings
        .engines
        .iter()
        .map(|seat| json!({"level": seat.level, "think_ms": seat.think_ms}))
        .collect();
    json!({
        "game": settings.kind.name(),
        "engines": engines,
        "anti_blocking": settings.anti_blocking,
        "play_to_end": settings.play_to_end,
        "rules": settings.rules,
        "rotate_first": settings.rotate_first,
        "show_legal_moves": settings.show_legal_moves,
        "turn_seconds": settings.turn_seconds,
    })
}

/// A group's record.
pub fn group_record(group: &Group) -> String {
    let saved = SavedGroup {
        members: group
            .members
            .iter()
            .map(|m| SavedMember {
                name: m.name.clone(),
                token: m.token.clone(),
                half_points: m.half_points,
                games: m.games,
                away: m.away,
                vacant: m.vacant,
            })
            .collect(),
        settings: settings_request(&group.settings),
        game: group.game,
        games_played: group.games_played,
        counted: group.counted,
    };
    serde_json::to_string(&saved).unwrap_or_default()
}

/// The group `id` made again from its record, last used `idle` ago, or
/// why not.
pub fn restore_group(
    id: u64,
    record: &str,
    idle: Duration,
    max_think_ms: u32,
    now: Instant,
) -> Result<Group, String> {
    let saved: SavedGroup = serde_json::from_str(record).map_err(|e| e.to_string())?;
    let settings =
        read_settings(&saved.settings, saved.members.len(), max_think_ms).map_err(refused)?;
    // Nobody is here yet: each member has the grace time to come back.
    let members = saved
        .members
        .into_iter()
        .map(|m| Member {
            half_points: m.half_points,
            games: m.games,
            away: m.away,
            vacant: m.vacant,
            ..Member::new(m.name, m.token, now)
        })
        .collect();
    let mut group = Group {
        id,
        members,
        settings,
        game: saved.game,
        games_played: saved.games_played,
        counted: saved.counted,
        last_access: now.checked_sub(idle).unwrap_or(now),
        pulse: Pulse::new(),
        stored_pulse: 0,
    };
    group.stored_pulse = group.pulse.value();
    Ok(group)
}
