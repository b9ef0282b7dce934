//! What a request asks for, read and checked: a seat, the game and its
//! rule choices, the turn clock, a group's settings. The games' and
//! groups' API read their requests with these, and the storage reads its
//! records back through the same checks.

use damas::options::{self, OptionDecl, OptionGroup, OptionType, Options};
use damas::GameKind;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::error::ApiError;
use super::group::{self, GroupSettings};
use super::messages::Message;
use super::session::{Seat, SeatKind, MAX_LEVEL, MAX_TURN_SECONDS, MIN_THINK_MS};

/// The largest `--max-think-ms`: an engine time past it is refused, not
/// capped.
const MOST_THINK_MS: u32 = 60_000;
/// A seat as a request gives it.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    kind: String,
    level: Option<u8>,
    think_ms: Option<u32>,
}

impl SeatRequest {
    /// An engine's seat of this level and time.
    pub fn engine(level: Option<u8>, think_ms: Option<u32>) -> SeatRequest {
        SeatRequest {
            kind: "engine".into(),
            level,
            think_ms,
        }
    }

    pub fn seat(&self, max_think_ms: u32) -> Result<Seat, ApiError> {
        let kind = match self.kind.as_str() {
            "human" => SeatKind::Human,
            "engine" => SeatKind::Engine,
            other => {
                return Err(ApiError::bad_request(Message::BadSeatKind(
                    other.chars().take(20).collect(),
                )))
            }
        };
        let level = self.level.unwrap_or(MAX_LEVEL);
        if !(1..=MAX_LEVEL).contains(&level) {
            return Err(ApiError::bad_request(Message::BadLevel {
                level,
                max: MAX_LEVEL,
            }));
        }
        let think_ms = self.think_ms.unwrap_or(1000);
        // An engine's time outside what any server allows is refused; past
        // this server's cap it is the cap. A person's seat never uses it.
        if kind == SeatKind::Engine && !(MIN_THINK_MS..=MOST_THINK_MS).contains(&think_ms) {
            return Err(ApiError::bad_request(Message::BadThinkMs {
                think_ms,
                min: MIN_THINK_MS,
                max: MOST_THINK_MS,
            }));
        }
        Ok(Seat {
            kind,
            level,
            think_ms: think_ms.clamp(MIN_THINK_MS, max_think_ms.max(MIN_THINK_MS)),
        })
    }
}

pub fn turn_seconds(seconds: u32) -> Result<u32, ApiError> {
    if seconds > MAX_TURN_SECONDS {
        return Err(ApiError::bad_request(Message::BadTurnSeconds {
            seconds,
            max: MAX_TURN_SECONDS,
        }));
    }
    Ok(seconds)
}

/// The game named `name`, from the registry.
pub fn game_kind(name: &str) -> Result<GameKind, ApiError> {
    name.parse::<GameKind>()
        .map_err(|_| ApiError::bad_request(Message::BadGame(name.chars().take(20).collect())))
}

/// A JSON value as the text an option reads.
fn option_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The rule choices of a request: rule options by name and the two
/// switches.
#[derive(Clone, Copy, Debug)]
pub struct RuleChoices<'a> {
    pub rules: Option<&'a serde_json::Map<String, Value>>,
    pub anti_blocking: Option<bool>,
    pub play_to_end: Option<bool>,
}

/// The game settings a request asks for, set through the option table
/// (whose defaults are the board's): the rule presets given, the two
/// switches, then the other rule options given by name, so that a named
/// rule overrides its preset; then the game and players asked for.
pub fn game_settings(
    kind: GameKind,
    players: u8,
    request: RuleChoices<'_>,
) -> Result<Options, ApiError> {
    // The game and players come first, so that a preset is checked
    // against them (`Rules ccerl` needs two players) as the protocol does.
    let mut settings = Options {
        game: kind,
        players,
        ..Options::default()
    };
    let mut named: Vec<(&'static OptionDecl, String)> = Vec::new();
    for (name, value) in request.rules.into_iter().flatten() {
        let decl = options::find(name)
            .filter(|decl| decl.group == OptionGroup::Rule)
            .ok_or_else(|| {
                ApiError::bad_request(Message::NotARuleOption(name.chars().take(40).collect()))
            })?;
        named.push((decl, option_text(value)));
    }
    let (presets, named): (Vec<_>, Vec<_>) = named
        .into_iter()
        .partition(|(decl, _)| matches!(decl.kind, OptionType::Combo(_)));
    let switches = [
        ("AntiBlocking", request.anti_blocking),
        ("PlayToEnd", request.play_to_end),
    ];
    let rules = presets
        .iter()
        .map(|(decl, text)| (decl.name, text.clone()))
        .chain(
            switches
                .into_iter()
                .filter_map(|(name, flag)| flag.map(|flag| (name, flag.to_string()))),
        )
        .chain(named.iter().map(|(decl, text)| (decl.name, text.clone())));
    for (name, value) in rules {
        settings.set(name, &value).map_err(ApiError::bad_request)?;
    }
    // A preset may name a game: the game asked for stays.
    settings.game = kind;
    settings.players = players;
    Ok(settings)
}

/// An engine that fills a seat.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct EngineRequest {
    level: Option<u8>,
    think_ms: Option<u32>,
}

/// The group's settings as a request gives them.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SettingsRequest {
    game: String,
    engines: Option<Vec<EngineRequest>>,
    anti_blocking: Option<bool>,
    play_to_end: Option<bool>,
    rules: Option<Map<String, Value>>,
    rotate_first: Option<bool>,
    show_legal_moves: Option<bool>,
    turn_seconds: Option<u32>,
}

/// The players the group's game of `kind` takes, or why `players` is not
/// among them.
pub fn check_players(kind: GameKind, players: usize) -> Result<(), ApiError> {
    let (min, max) = group::player_range(kind);
    if players > usize::from(max) || players < usize::from(min) {
        return Err(ApiError::conflict(Message::GroupPlayers {
            players,
            min,
            max,
        }));
    }
    Ok(())
}

/// The settings a request asks for, checked for a group of `people`: the
/// game, the engines (the people and engines must fit the game), the
/// rules for that many players, the clock.
pub fn group_settings(
    request: SettingsRequest,
    people: usize,
    max_think_ms: u32,
) -> Result<GroupSettings, ApiError> {
    let kind = game_kind(&request.game)?;
    let engines = request
        .engines
        .iter()
        .flatten()
        .map(|e| SeatRequest::engine(e.level, e.think_ms).seat(max_think_ms))
        .collect::<Result<Vec<_>, _>>()?;
    let (min, max) = group::player_range(kind);
    let players = people + engines.len();
    if players > usize::from(max) {
        return Err(ApiError::conflict(Message::GroupPlayers {
            players,
            min,
            max,
        }));
    }
    let choices = RuleChoices {
        rules: request.rules.as_ref(),
        anti_blocking: request.anti_blocking,
        play_to_end: request.play_to_end,
    };
    // Checked for the players there are (at least the game's fewest).
    let counted = u8::try_from(players).unwrap_or(max).clamp(min, max);
    let options = game_settings(kind, counted, choices)?;
    let turn_seconds = turn_seconds(request.turn_seconds.unwrap_or(0))?;
    Ok(GroupSettings {
        kind,
        engines,
        rules: request.rules.unwrap_or_default(),
        anti_blocking: request.anti_blocking,
        play_to_end: request.play_to_end,
        options,
        rotate_first: request.rotate_first.unwrap_or(true),
        show_legal_moves: request.show_legal_moves.unwrap_or(true),
        turn_seconds,
    })
}

/// The settings of a stored group of `people`, read by the same checks
/// as a request's.
pub fn read_settings(
    stored: &Value,
    people: usize,
    max_think_ms: u32,
) -> Result<GroupSettings, ApiError> {
    let request = SettingsRequest::deserialize(stored)
        .map_err(|e| ApiError::bad_request(Message::BadBody(e.to_string())))?;
    group_settings(request, people, max_think_ms)
}
