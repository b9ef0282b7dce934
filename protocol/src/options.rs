//! The engine's options: their declaration for `ugi`, their values and the
//! checks `setoption` applies.

use damas::chinese::{Rules, Variant};
use damas::search::{EngineOptions, Style, MAX_HASH_MB, MAX_THREADS};
use damas::GameSpec;
use thiserror::Error;

pub use damas::GameKind;

/// Largest value of the Chinese checkers limits (plies or rounds).
pub const MAX_LIMIT: u64 = 1_000_000;

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Game`.
    pub game: GameKind,
    /// `Players` (Chinese checkers only; Spanish draughts is always 2).
    pub players: u8,
    /// `AntiBlocking`.
    pub anti_blocking: bool,
    /// `PlayToEnd`.
    pub play_to_end: bool,
    /// `MoveLimit` in full rounds, 0 for none.
    pub move_limit: u32,
    /// `NoProgressLimit` in full rounds, 0 for none.
    pub no_progress_limit: u32,
    /// `GoalLock`.
    pub goal_lock: bool,
    /// `NoMoveLoss`.
    pub no_move_loss: bool,
    /// `RepetitionDraw`.
    pub repetition_draw: bool,
    /// `EqualTurns`.
    pub equal_turns: bool,
    /// `Threads`.
    pub threads: usize,
    /// `Hash` in MiB.
    pub hash_mb: usize,
    /// `MoveOverhead` in milliseconds, kept back from every clock.
    pub move_overhead_ms: u64,
    /// `BeamWidth` of the Chinese checkers search.
    pub beam_width: usize,
    /// `Style`: the full engine or a baseline player.
    pub style: Style,
    /// `TablebasePath`: the directory of the Spanish draughts endgame
    /// tables, empty for none.
    pub tablebase_path: String,
}

/// Longest `TablebasePath` accepted, in bytes.
pub const MAX_PATH_LEN: usize = 1024;

impl Default for Options {
    fn default() -> Self {
        let rules = damas::chinese::Rules::default();
        Options {
            game: GameKind::Spanish,
            players: 2,
            anti_blocking: rules.anti_blocking,
            play_to_end: rules.play_to_end,
            move_limit: rules.move_limit.unwrap_or(0),
            no_progress_limit: rules.no_progress_limit.unwrap_or(0),
            goal_lock: rules.goal_lock,
            no_move_loss: rules.no_move_loss,
            repetition_draw: rules.repetition_draw,
            equal_turns: rules.equal_turns,
            threads: 1,
            hash_mb: 64,
            move_overhead_ms: 20,
            beam_width: 64,
            style: Style::Best,
            tablebase_path: String::new(),
        }
    }
}

/// What a successful `setoption` changes beyond the value itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    /// The game or its rules changed: the session starts a new game.
    NewGame,
    /// The transposition table must be resized.
    ResizeHash,
    /// The endgame tables must be (re)opened from `tablebase_path`.
    LoadTablebase,
    /// Nothing else.
    None,
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum OptionError {
    /// No option has that name.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// The value does not fit the option.
    #[error("option '{name}' does not accept '{value}' ({expected})")]
    BadValue {
        /// The option's name.
        name: &'static str,
        /// The value given.
        value: String,
        /// What it accepts.
        expected: String,
    },
    /// Each option is valid but together they describe no game.
    #[error("{0}; set Game or Players")]
    Combination(String),
}

#[derive(Clone, Copy)]
enum Kind {
    Check,
    Spin {
        min: u64,
        max: u64,
    },
    Combo(&'static [&'static str]),
    /// Free text (`<empty>` for none).
    Text,
}

struct Declaration {
    name: &'static str,
    kind: Kind,
}

const GAMES: &[&str] = &["spanish", "chinese", "japanese"];
const STYLES: &[&str] = &["best", "plain", "greedy", "random"];
/// `Rules` presets; `custom` names any other combination and sets nothing.
const RULE_SETS: &[&str] = &["default", "ccerl", "custom"];

const DECLARATIONS: &[Declaration] = &[
    Declaration {
        name: "Game",
        kind: Kind::Combo(GAMES),
    },
    Declaration {
        name: "Players",
        kind: Kind::Spin { min: 1, max: 6 },
    },
    Declaration {
        name: "AntiBlocking",
        kind: Kind::Check,
    },
    Declaration {
        name: "PlayToEnd",
        kind: Kind::Check,
    },
    Declaration {
        name: "MoveLimit",
        kind: Kind::Spin {
            min: 0,
            max: MAX_LIMIT,
        },
    },
    Declaration {
        name: "NoProgressLimit",
        kind: Kind::Spin {
            min: 0,
            max: MAX_LIMIT,
        },
    },
    Declaration {
        name: "GoalLock",
        kind: Kind::Check,
    },
    Declaration {
        name: "NoMoveLoss",
        kind: Kind::Check,
    },
    Declaration {
        name: "RepetitionDraw",
        kind: Kind::Check,
    },
    Declaration {
        name: "EqualTurns",
        kind: Kind::Check,
    },
    Declaration {
        name: "Rules",
        kind: Kind::Combo(RULE_SETS),
    },
    Declaration {
        name: "Threads",
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS as u64,
        },
    },
    Declaration {
        name: "Hash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB as u64,
        },
    },
    Declaration {
        name: "MoveOverhead",
        kind: Kind::Spin {
            min: 0,
            max: 10_000,
        },
    },
    Declaration {
        name: "BeamWidth",
        kind: Kind::Spin {
            min: 1,
            max: 100_000,
        },
    },
    Declaration {
        name: "Style",
        kind: Kind::Combo(STYLES),
    },
    Declaration {
        name: "TablebasePath",
        kind: Kind::Text,
    },
];

impl Options {
    fn value_text(&self, name: &str) -> String {
        match name {
            "Game" => self.game.name().to_string(),
            "Players" => self.players.to_string(),
            "AntiBlocking" => self.anti_blocking.to_string(),
            "PlayToEnd" => self.play_to_end.to_string(),
            "MoveLimit" => self.move_limit.to_string(),
            "NoProgressLimit" => self.no_progress_limit.to_string(),
            "GoalLock" => self.goal_lock.to_string(),
            "NoMoveLoss" => self.no_move_loss.to_string(),
            "RepetitionDraw" => self.repetition_draw.to_string(),
            "EqualTurns" => self.equal_turns.to_string(),
            "Rules" => self.rule_set().to_string(),
            "Threads" => self.threads.to_string(),
            "Hash" => self.hash_mb.to_string(),
            "MoveOverhead" => self.move_overhead_ms.to_string(),
            "BeamWidth" => self.beam_width.to_string(),
            "Style" => self.style.name().to_string(),
            "TablebasePath" if self.tablebase_path.is_empty() => "<empty>".to_string(),
            "TablebasePath" => self.tablebase_path.clone(),
            _ => String::new(),
        }
    }

    /// The `option name ...` lines sent in reply to `ugi`, with the
    /// defaults as they stand now.
    pub fn declaration_lines(&self) -> Vec<String> {
        DECLARATIONS
            .iter()
            .map(|decl| {
                let default = self.value_text(decl.name);
                match decl.kind {
                    Kind::Check => {
                        format!("option name {} type check default {default}", decl.name)
                    }
                    Kind::Spin { min, max } => format!(
                        "option name {} type spin default {default} min {min} max {max}",
                        decl.name
                    ),
                    Kind::Combo(values) => {
                        let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                        format!(
                            "option name {} type combo default {default}{vars}",
                            decl.name
                        )
                    }
                    Kind::Text => {
                        format!("option name {} type string default {default}", decl.name)
                    }
                }
            })
            .collect()
    }

    /// The game and rules these options describe, or why the combination
    /// cannot be played (Spanish draughts with `Players` other than 2).
    /// Options are accepted one by one in any order; the combination is
    /// checked when a game starts.
    pub fn spec(&self) -> Result<GameSpec, OptionError> {
        let limit = |n: u32| (n > 0).then_some(n);
        Ok(match self.game {
            GameKind::Spanish if self.players != 2 => {
                return Err(OptionError::Combination(format!(
                    "Spanish draughts is played by 2 players, but Players is {}",
                    self.players
                )))
            }
            GameKind::Spanish => GameSpec::Spanish,
            GameKind::Chinese | GameKind::Japanese => GameSpec::Chinese(Rules {
                players: self.players.clamp(1, 6),
                variant: if self.game == GameKind::Japanese {
                    Variant::Japanese
                } else {
                    Variant::International
                },
                anti_blocking: self.anti_blocking,
                play_to_end: self.play_to_end,
                move_limit: limit(self.move_limit),
                no_progress_limit: limit(self.no_progress_limit),
                goal_lock: self.goal_lock,
                no_move_loss: self.no_move_loss,
                repetition_draw: self.repetition_draw,
                equal_turns: self.equal_turns,
            }),
        })
    }

    /// The `Rules` preset these options match: `ccerl`, `default` (the
    /// library's [`Rules::default`] for the options' game and players) or
    /// `custom`.
    pub fn rule_set(&self) -> &'static str {
        let mut reset = self.clone();
        reset.apply_rules(&Rules::ccerl());
        if reset == *self && self.game == GameKind::Chinese && self.players == 2 {
            return "ccerl";
        }
        let mut reset = self.clone();
        reset.apply_rules(&Rules::default());
        if reset == *self {
            "default"
        } else {
            "custom"
        }
    }

    /// Sets every rule option (not `Game` or `Players`) from `rules`.
    fn apply_rules(&mut self, rules: &Rules) {
        self.anti_blocking = rules.anti_blocking;
        self.play_to_end = rules.play_to_end;
        self.move_limit = rules.move_limit.unwrap_or(0);
        self.no_progress_limit = rules.no_progress_limit.unwrap_or(0);
        self.goal_lock = rules.goal_lock;
        self.no_move_loss = rules.no_move_loss;
        self.repetition_draw = rules.repetition_draw;
        self.equal_turns = rules.equal_turns;
    }

    /// The search settings these options describe.
    pub fn engine_options(&self) -> EngineOptions {
        EngineOptions {
            threads: self.threads,
            style: self.style,
            beam_width: self.beam_width,
        }
    }

    /// Applies `setoption`. On error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<OptionEffect, OptionError> {
        let decl = DECLARATIONS
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| OptionError::Unknown(name.chars().take(40).collect()))?;
        let value = value.trim();
        let bad = |expected: String| OptionError::BadValue {
            name: decl.name,
            value: value.chars().take(40).collect(),
            expected,
        };
        let mut flag = false;
        let mut number = 0u64;
        let mut choice = "";
        match decl.kind {
            Kind::Check => {
                flag = match value.to_ascii_lowercase().as_str() {
                    "true" | "on" | "1" => true,
                    "false" | "off" | "0" => false,
                    _ => return Err(bad("true or false".into())),
                };
            }
            Kind::Spin { min, max } => {
                number = value
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or_else(|| bad(format!("an integer from {min} to {max}")))?;
            }
            Kind::Combo(values) => {
                choice = values
                    .iter()
                    .find(|v| v.eq_ignore_ascii_case(value))
                    .ok_or_else(|| bad(format!("one of {}", values.join(", "))))?;
            }
            Kind::Text => {
                if value.len() > MAX_PATH_LEN || value.chars().any(char::is_control) {
                    return Err(bad(format!(
                        "a path of at most {MAX_PATH_LEN} bytes without control characters"
                    )));
                }
            }
        }
        // Spin bounds above fit every field, so these narrowing casts are exact.
        let effect = match decl.name {
            "Game" => {
                self.game = match choice {
                    "chinese" => GameKind::Chinese,
                    "japanese" => GameKind::Japanese,
                    _ => GameKind::Spanish,
                };
                OptionEffect::NewGame
            }
            // Any count is kept whatever the game, so that clients may send
            // `Players` before `Game`; `spec` checks the combination.
            "Players" => {
                self.players = number as u8;
                OptionEffect::NewGame
            }
            "AntiBlocking" => {
                self.anti_blocking = flag;
                OptionEffect::NewGame
            }
            "PlayToEnd" => {
                self.play_to_end = flag;
                OptionEffect::NewGame
            }
            "MoveLimit" => {
                self.move_limit = number as u32;
                OptionEffect::NewGame
            }
            "NoProgressLimit" => {
                self.no_progress_limit = number as u32;
                OptionEffect::NewGame
            }
            "GoalLock" => {
                self.goal_lock = flag;
                OptionEffect::NewGame
            }
            "NoMoveLoss" => {
                self.no_move_loss = flag;
                OptionEffect::NewGame
            }
            "RepetitionDraw" => {
                self.repetition_draw = flag;
                OptionEffect::NewGame
            }
            "EqualTurns" => {
                self.equal_turns = flag;
                OptionEffect::NewGame
            }
            // A preset: `ccerl` is the CCERL-2P10-v2 benchmark (two-player
            // Chinese checkers), `default` the library's defaults.
            "Rules" => {
                match choice {
                    "ccerl" => {
                        let ccerl = Rules::ccerl();
                        self.game = GameKind::Chinese;
                        self.players = ccerl.players;
                        self.apply_rules(&ccerl);
                    }
                    "default" => self.apply_rules(&Rules::default()),
                    _ => {}
                }
                OptionEffect::NewGame
            }
            "Threads" => {
                self.threads = number as usize;
                OptionEffect::None
            }
            "Hash" => {
                self.hash_mb = number as usize;
                OptionEffect::ResizeHash
            }
            "MoveOverhead" => {
                self.move_overhead_ms = number;
                OptionEffect::None
            }
            "BeamWidth" => {
                self.beam_width = number as usize;
                OptionEffect::None
            }
            "Style" => {
                self.style = Style::ALL
                    .into_iter()
                    .find(|style| style.name() == choice)
                    .unwrap_or_default();
                OptionEffect::None
            }
            "TablebasePath" => {
                self.tablebase_path = if value == "<empty>" {
                    String::new()
                } else {
                    value.to_string()
                };
                OptionEffect::LoadTablebase
            }
            _ => OptionEffect::None,
        };
        Ok(effect)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_option_is_settable_to_its_default() {
        let mut options = Options::default();
        for decl in DECLARATIONS {
            let value = options.value_text(decl.name);
            assert!(!value.is_empty(), "{} has no value text", decl.name);
            let before = options.clone();
            options.set(decl.name, &value).expect("default accepted");
            assert_eq!(options, before, "{} changed on its own default", decl.name);
        }
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut options = Options::default();
        let before = options.clone();
        assert!(options.set("Hash", "999999999").is_err());
        assert!(options.set("Hash", "-1").is_err());
        assert!(options.set("Threads", "0").is_err());
        assert!(options.set("Game", "chess").is_err());
        assert!(options.set("AntiBlocking", "maybe").is_err());
        assert!(options.set("Players", "7").is_err());
        assert!(matches!(
            options.set("Nope", "1"),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(options, before);
    }

    #[test]
    fn names_are_case_insensitive_and_effects_reported() {
        let mut options = Options::default();
        assert_eq!(options.set("game", "Chinese"), Ok(OptionEffect::NewGame));
        assert_eq!(options.game, GameKind::Chinese);
        assert_eq!(options.set("players", "6"), Ok(OptionEffect::NewGame));
        assert_eq!(options.players, 6);
        assert_eq!(options.set("hash", "16"), Ok(OptionEffect::ResizeHash));
        assert_eq!(options.set("Game", "spanish"), Ok(OptionEffect::NewGame));
        assert_eq!(options.players, 6, "kept for the next Chinese game");
    }

    #[test]
    fn players_may_come_before_game_and_the_combination_is_checked() {
        let mut options = Options::default();
        assert_eq!(options.set("Players", "3"), Ok(OptionEffect::NewGame));
        let err = options.spec().expect_err("Spanish draughts with 3 players");
        assert_eq!(
            err.to_string(),
            "Spanish draughts is played by 2 players, but Players is 3; set Game or Players"
        );
        options.set("Game", "chinese").expect("valid");
        match options.spec() {
            Ok(GameSpec::Chinese(rules)) => assert_eq!(rules.players, 3),
            other => panic!("expected 3-player Chinese checkers, got {other:?}"),
        }
        options.set("Game", "spanish").expect("valid");
        options.set("Players", "2").expect("valid");
        assert_eq!(options.spec(), Ok(GameSpec::Spanish));
    }

    #[test]
    fn declarations_list_every_option() {
        let lines = Options::default().declaration_lines();
        assert_eq!(lines.len(), DECLARATIONS.len());
        assert!(lines[0].starts_with("option name Game type combo default spanish var spanish"));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default 64 min 1")));
    }
}
