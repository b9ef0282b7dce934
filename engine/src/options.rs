//! The options, declared once: [`OPTIONS`] lists every option with its
//! type, default, bounds, the games it applies to and how it reads and
//! writes the [`Settings`]. The protocol's `option` lines and `setoption`,
//! the web board's setup form and the command line's `--rule NAME=VALUE`
//! all come from this one table.
//!
//! Adding a rule option is one entry here plus its rule code (a field of
//! [`chinese::Rules`](crate::chinese::Rules) and what the game does with it).
//!
//! ```
//! use damas::options::{OptionEffect, Settings};
//! use damas::{GameKind, GameSpec};
//!
//! let mut settings = Settings::default();
//! assert_eq!(settings.set("Game", "chinese"), Ok(OptionEffect::NewGame));
//! settings.set("Players", "3").unwrap();
//! settings.set("AntiBlocking", "false").unwrap();
//! let spec = settings.spec().unwrap();
//! assert_eq!((spec.kind(), spec.players()), (GameKind::Chinese, 3));
//! assert!(settings.set("Players", "9").is_err());
//! assert_eq!(settings.value("Players").as_deref(), Some("3"));
//! ```

use crate::any::players_text;
use crate::chinese::Rules;
use crate::game::GameKind;
use crate::search::{EngineOptions, Style, MAX_HASH_MB, MAX_THREADS};
use crate::{GameSpec, SpecError};

/// Largest value of the Chinese checkers limits (plies or rounds).
pub const MAX_LIMIT: u64 = 1_000_000;

/// Longest text option (`TablebasePath`) accepted, in bytes.
pub const MAX_TEXT_LEN: usize = 1024;

/// Largest `MoveOverhead`, in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 10_000;

/// Largest `Seed` (the largest spin a 32-bit client reads).
pub const MAX_SEED: u64 = i32::MAX as u64;

/// Largest `BeamWidth`.
pub const MAX_BEAM_WIDTH: u64 = 100_000;

/// Every value of the options: the game and its rules, the search settings
/// and the host's (table size, time kept back, endgame tables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `Game`.
    pub game: GameKind,
    /// `Players`; kept whatever the game, so that `Players` may come before
    /// `Game` ([`Settings::spec`] checks the combination).
    pub players: u8,
    /// The rule options (`AntiBlocking`, `PlayToEnd`, ...); the player count
    /// and variant come from `players` and `game`.
    pub rules: Rules,
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
    /// `Seed` of the baseline players' random choices; 0 seeds them from
    /// the clock.
    pub seed: u64,
    /// `TablebasePath`: the directory of the Spanish draughts endgame
    /// tables, empty for none.
    pub tablebase_path: String,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            game: GameKind::Spanish,
            players: 2,
            rules: Rules::default(),
            threads: 1,
            hash_mb: 64,
            move_overhead_ms: 20,
            beam_width: 64,
            style: Style::Best,
            seed: 0,
            tablebase_path: String::new(),
        }
    }
}

/// What a successful change of an option changes beyond its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    /// The game or its rules changed: a new game starts.
    NewGame,
    /// The transposition table must be resized.
    ResizeHash,
    /// The endgame tables must be (re)opened from the path.
    LoadTablebase,
    /// Nothing else.
    None,
}

/// Why an option was not set or the options describe no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option has that name.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// The value does not fit the option.
    #[error("option '{name}' does not accept '{value}' ({expected})")]
    BadValue {
        /// The option's name.
        name: &'static str,
        /// The value given (at most 40 characters of it).
        value: String,
        /// What it accepts.
        expected: String,
    },
    /// Each option is valid but together they describe no game.
    #[error(
        "{} is played by {} players, but Players is {players}; set Game or Players",
        .game.title(),
        players_text(*.game)
    )]
    Combination {
        /// The game set.
        game: GameKind,
        /// The players set.
        players: u8,
    },
}

/// The type of an option's value, with its bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// `true` or `false` (also `on`/`off`, `1`/`0` when set).
    Check,
    /// A whole number from `min` to `max`.
    Spin {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
    /// One of the names.
    Combo(&'static [&'static str]),
    /// Free text without control characters, at most [`MAX_TEXT_LEN`]
    /// bytes; `<empty>` is the empty text.
    Text,
}

/// A value read for an option, checked against its [`OptionType`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A check.
    Check(bool),
    /// A spin.
    Spin(u64),
    /// A combo's choice.
    Combo(&'static str),
    /// A text.
    Text(String),
}

/// What part of the settings an option belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionGroup {
    /// Which game and how many players.
    Game,
    /// A rule of the game: what a setup form offers.
    Rule,
    /// How the engine searches.
    Search,
    /// The host's resources (table size, clock margin, files).
    Host,
}

/// One option: everything the front ends need to offer, read and write it.
pub struct OptionDecl {
    /// The name, as `setoption name` takes it (case-insensitive).
    pub name: &'static str,
    /// Its type and bounds.
    pub kind: OptionType,
    /// Its group.
    pub group: OptionGroup,
    /// The games it applies to (it is accepted for every game, and changes
    /// nothing while another is played).
    pub games: &'static [GameKind],
    /// One line for people.
    pub help: &'static str,
    /// What setting it changes.
    pub effect: OptionEffect,
    get: fn(&Settings) -> OptionValue,
    set: fn(&mut Settings, &OptionValue),
}

impl std::fmt::Debug for OptionDecl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OptionDecl")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

impl OptionDecl {
    /// Whether the option matters for `game`.
    pub fn applies_to(&self, game: GameKind) -> bool {
        self.games.contains(&game)
    }

    /// The value in `settings`.
    pub fn value(&self, settings: &Settings) -> OptionValue {
        (self.get)(settings)
    }

    /// The value in `settings` as text (`<empty>` for an empty text).
    pub fn value_text(&self, settings: &Settings) -> String {
        match self.value(settings) {
            OptionValue::Check(flag) => flag.to_string(),
            OptionValue::Spin(number) => number.to_string(),
            OptionValue::Combo(choice) => choice.to_string(),
            OptionValue::Text(text) if text.is_empty() => "<empty>".to_string(),
            OptionValue::Text(text) => text,
        }
    }

    /// The default value, as text.
    pub fn default_text(&self) -> String {
        self.value_text(&Settings::default())
    }

    /// Reads `text` as a value of this option.
    pub fn parse(&self, text: &str) -> Result<OptionValue, OptionError> {
        let text = text.trim();
        let bad = |expected: String| OptionError::BadValue {
            name: self.name,
            value: text.chars().take(40).collect(),
            expected,
        };
        match self.kind {
            OptionType::Check => match text.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" => Ok(OptionValue::Check(true)),
                "false" | "off" | "0" => Ok(OptionValue::Check(false)),
                _ => Err(bad("true or false".into())),
            },
            OptionType::Spin { min, max } => text
                .parse::<u64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .map(OptionValue::Spin)
                .ok_or_else(|| bad(format!("an integer from {min} to {max}"))),
            OptionType::Combo(values) => values
                .iter()
                .find(|v| v.eq_ignore_ascii_case(text))
                .map(|v| OptionValue::Combo(v))
                .ok_or_else(|| bad(format!("one of {}", values.join(", ")))),
            OptionType::Text => {
                if text.len() > MAX_TEXT_LEN || text.chars().any(char::is_control) {
                    Err(bad(format!(
                        "a text of at most {MAX_TEXT_LEN} bytes without control characters"
                    )))
                } else if text == "<empty>" {
                    Ok(OptionValue::Text(String::new()))
                } else {
                    Ok(OptionValue::Text(text.to_string()))
                }
            }
        }
    }
}

/// The option named `name` (case-insensitive).
pub fn find(name: &str) -> Option<&'static OptionDecl> {
    let name = name.trim();
    OPTIONS.iter().find(|d| d.name.eq_ignore_ascii_case(name))
}

impl Settings {
    /// Sets option `name` from `value`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<OptionEffect, OptionError> {
        let decl =
            find(name).ok_or_else(|| OptionError::Unknown(name.chars().take(40).collect()))?;
        let value = decl.parse(value)?;
        (decl.set)(self, &value);
        Ok(decl.effect)
    }

    /// The value of option `name` as text, if there is such an option.
    pub fn value(&self, name: &str) -> Option<String> {
        find(name).map(|decl| decl.value_text(self))
    }

    /// The game and rules these settings describe, or why the combination
    /// cannot be played (options are accepted one by one in any order and
    /// checked together when a game starts).
    pub fn spec(&self) -> Result<GameSpec, OptionError> {
        GameSpec::from_kind(self.game, self.players, &self.rules).map_err(
            |SpecError::Players { kind, players }| OptionError::Combination {
                game: kind,
                players,
            },
        )
    }

    /// The search settings.
    pub fn engine_options(&self) -> EngineOptions {
        EngineOptions {
            threads: self.threads,
            style: self.style,
            beam_width: self.beam_width,
            seed: (self.seed != 0).then_some(self.seed),
        }
    }

    /// The `Rules` preset the rule options match: `ccerl` (two-player
    /// Chinese checkers by [`Rules::ccerl`]), `default` ([`Rules::default`])
    /// or `custom`.
    pub fn rule_set(&self) -> &'static str {
        let same = |preset: &Rules| {
            Rules {
                players: self.rules.players,
                variant: self.rules.variant,
                ..*preset
            } == self.rules
        };
        if same(&Rules::ccerl()) && self.game == GameKind::Chinese && self.players == 2 {
            "ccerl"
        } else if same(&Rules::default()) {
            "default"
        } else {
            "custom"
        }
    }

    fn apply_rules(&mut self, preset: &Rules) {
        self.rules = Rules {
            players: self.rules.players,
            variant: self.rules.variant,
            ..*preset
        };
    }
}

const CHINESE: &[GameKind] = &[GameKind::Chinese, GameKind::Japanese];
const ALL_GAMES: &[GameKind] = &GameKind::ALL;
const GAMES: &[&str] = &["spanish", "chinese", "japanese"];
const STYLES: &[&str] = &["best", "plain", "greedy", "random"];
/// `Rules` presets; `custom` names any other combination and sets nothing.
const RULE_SETS: &[&str] = &["default", "ccerl", "custom"];

fn flag(value: &OptionValue) -> bool {
    matches!(value, OptionValue::Check(true))
}

fn number(value: &OptionValue) -> u64 {
    match value {
        OptionValue::Spin(n) => *n,
        _ => 0,
    }
}

fn choice(value: &OptionValue) -> &'static str {
    match value {
        OptionValue::Combo(c) => c,
        _ => "",
    }
}

fn limit(value: &OptionValue) -> Option<u32> {
    u32::try_from(number(value)).ok().filter(|&n| n > 0)
}

fn limit_value(limit: Option<u32>) -> OptionValue {
    OptionValue::Spin(u64::from(limit.unwrap_or(0)))
}

/// A check option of the Chinese checkers rules, one field of [`Rules`].
macro_rules! rule_check {
    ($name:literal, $field:ident, $help:literal) => {
        OptionDecl {
            name: $name,
            kind: OptionType::Check,
            group: OptionGroup::Rule,
            games: CHINESE,
            help: $help,
            effect: OptionEffect::NewGame,
            get: |s| OptionValue::Check(s.rules.$field),
            set: |s, v| s.rules.$field = flag(v),
        }
    };
}

/// A round limit of the Chinese checkers rules (0: none).
macro_rules! rule_limit {
    ($name:literal, $field:ident, $help:literal) => {
        OptionDecl {
            name: $name,
            kind: OptionType::Spin {
                min: 0,
                max: MAX_LIMIT,
            },
            group: OptionGroup::Rule,
            games: CHINESE,
            help: $help,
            effect: OptionEffect::NewGame,
            get: |s| limit_value(s.rules.$field),
            set: |s, v| s.rules.$field = limit(v),
        }
    };
}

// Spin bounds fit every field, so the narrowing casts below are exact.
/// Every option, in the order the protocol declares them.
pub static OPTIONS: &[OptionDecl] = &[
    OptionDecl {
        name: "Game",
        kind: OptionType::Combo(GAMES),
        group: OptionGroup::Game,
        games: ALL_GAMES,
        help: "the game: spanish, chinese or japanese",
        effect: OptionEffect::NewGame,
        get: |s| OptionValue::Combo(s.game.name()),
        set: |s, v| {
            if let Ok(kind) = choice(v).parse() {
                s.game = kind;
            }
        },
    },
    OptionDecl {
        name: "Players",
        kind: OptionType::Spin { min: 1, max: 6 },
        group: OptionGroup::Game,
        games: ALL_GAMES,
        help: "players at the board (Spanish draughts: 2)",
        effect: OptionEffect::NewGame,
        get: |s| OptionValue::Spin(u64::from(s.players)),
        set: |s, v| s.players = number(v) as u8,
    },
    rule_check!(
        "AntiBlocking",
        anti_blocking,
        "a full goal with one own piece finishes"
    ),
    rule_check!(
        "PlayToEnd",
        play_to_end,
        "with 3 or more players, play on until every place is decided"
    ),
    rule_limit!("MoveLimit", move_limit, "move limit in rounds (0: none)"),
    rule_limit!(
        "NoProgressLimit",
        no_progress_limit,
        "rounds without progress before the ranking (0: none)"
    ),
    rule_check!(
        "GoalLock",
        goal_lock,
        "a piece in its goal stays in the goal"
    ),
    rule_check!(
        "NoMoveLoss",
        no_move_loss,
        "a player with no legal move loses instead of passing"
    ),
    rule_check!(
        "RepetitionDraw",
        repetition_draw,
        "the third repetition of a position is a draw"
    ),
    rule_check!(
        "EqualTurns",
        equal_turns,
        "two players: the second gets one more move to finish"
    ),
    // A preset: `ccerl` is the CCERL-2P10-v2 benchmark (two-player Chinese
    // checkers), `default` the library's defaults.
    OptionDecl {
        name: "Rules",
        kind: OptionType::Combo(RULE_SETS),
        group: OptionGroup::Rule,
        games: CHINESE,
        help: "a rule preset: default, ccerl (sets Game and Players too) or custom",
        effect: OptionEffect::NewGame,
        get: |s| OptionValue::Combo(s.rule_set()),
        set: |s, v| match choice(v) {
            "ccerl" => {
                let ccerl = Rules::ccerl();
                s.game = GameKind::Chinese;
                s.players = ccerl.players;
                s.apply_rules(&ccerl);
            }
            "default" => s.apply_rules(&Rules::default()),
            _ => {}
        },
    },
    OptionDecl {
        name: "Threads",
        kind: OptionType::Spin {
            min: 1,
            max: MAX_THREADS as u64,
        },
        group: OptionGroup::Search,
        games: ALL_GAMES,
        help: "search threads",
        effect: OptionEffect::None,
        get: |s| OptionValue::Spin(s.threads as u64),
        set: |s, v| s.threads = number(v) as usize,
    },
    OptionDecl {
        name: "Hash",
        kind: OptionType::Spin {
            min: 1,
            max: MAX_HASH_MB as u64,
        },
        group: OptionGroup::Host,
        games: ALL_GAMES,
        help: "transposition table size in MiB",
        effect: OptionEffect::ResizeHash,
        get: |s| OptionValue::Spin(s.hash_mb as u64),
        set: |s, v| s.hash_mb = number(v) as usize,
    },
    OptionDecl {
        name: "MoveOverhead",
        kind: OptionType::Spin {
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
        group: OptionGroup::Host,
        games: ALL_GAMES,
        help: "milliseconds kept back from every clock",
        effect: OptionEffect::None,
        get: |s| OptionValue::Spin(s.move_overhead_ms),
        set: |s, v| s.move_overhead_ms = number(v),
    },
    OptionDecl {
        name: "BeamWidth",
        kind: OptionType::Spin {
            min: 1,
            max: MAX_BEAM_WIDTH,
        },
        group: OptionGroup::Search,
        games: CHINESE,
        help: "moves kept per step by the solitaire beam search",
        effect: OptionEffect::None,
        get: |s| OptionValue::Spin(s.beam_width as u64),
        set: |s, v| s.beam_width = number(v) as usize,
    },
    OptionDecl {
        name: "Style",
        kind: OptionType::Combo(STYLES),
        group: OptionGroup::Search,
        games: ALL_GAMES,
        help: "the full engine (best) or a baseline player: plain, greedy, random",
        effect: OptionEffect::None,
        get: |s| OptionValue::Combo(s.style.name()),
        set: |s, v| {
            if let Some(style) = Style::ALL.into_iter().find(|st| st.name() == choice(v)) {
                s.style = style;
            }
        },
    },
    OptionDecl {
        name: "Seed",
        kind: OptionType::Spin {
            min: 0,
            max: MAX_SEED,
        },
        group: OptionGroup::Search,
        games: ALL_GAMES,
        help: "seed of the random and greedy players' choices (0: the clock)",
        effect: OptionEffect::None,
        get: |s| OptionValue::Spin(s.seed),
        set: |s, v| s.seed = number(v),
    },
    OptionDecl {
        name: "TablebasePath",
        kind: OptionType::Text,
        group: OptionGroup::Host,
        games: &[GameKind::Spanish],
        help: "directory of the Spanish draughts endgame tables (<empty>: none)",
        effect: OptionEffect::LoadTablebase,
        get: |s| OptionValue::Text(s.tablebase_path.clone()),
        set: |s, v| {
            if let OptionValue::Text(text) = v {
                s.tablebase_path.clone_from(text);
            }
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_settable_to_its_default_and_reads_back() {
        let mut settings = Settings::default();
        for decl in OPTIONS {
            let value = decl.value_text(&settings);
            assert!(!value.is_empty(), "{} has no value text", decl.name);
            assert_eq!(value, decl.default_text());
            let before = settings.clone();
            settings.set(decl.name, &value).expect("default accepted");
            assert_eq!(settings, before, "{} changed on its own default", decl.name);
            assert!(!decl.games.is_empty() && !decl.help.is_empty());
        }
    }

    #[test]
    fn every_value_a_spin_or_combo_accepts_reads_back_as_set() {
        for decl in OPTIONS.iter().filter(|d| d.name != "Rules") {
            let values: Vec<String> = match decl.kind {
                OptionType::Check => vec!["true".into(), "false".into()],
                OptionType::Spin { min, max } => vec![min.to_string(), max.to_string()],
                OptionType::Combo(values) => values.iter().map(|v| v.to_string()).collect(),
                OptionType::Text => vec!["/tmp/tables".into(), "<empty>".into()],
            };
            for value in values {
                let mut settings = Settings::default();
                settings.set(decl.name, &value).expect("accepted");
                assert_eq!(decl.value_text(&settings), value, "{}", decl.name);
            }
        }
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut settings = Settings::default();
        let before = settings.clone();
        for (name, value) in [
            ("Hash", "999999999"),
            ("Hash", "-1"),
            ("Threads", "0"),
            ("Game", "chess"),
            ("AntiBlocking", "maybe"),
            ("Players", "7"),
            ("MoveLimit", "1000001"),
            ("TablebasePath", "a\u{7}b"),
        ] {
            assert!(
                matches!(settings.set(name, value), Err(OptionError::BadValue { .. })),
                "{name} {value}"
            );
        }
        assert!(matches!(
            settings.set("Nope", "1"),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(settings, before);
    }

    #[test]
    fn rule_options_write_the_rules_and_presets_are_recognised() {
        let mut settings = Settings::default();
        settings.set("game", "Chinese").expect("valid");
        settings.set("MoveLimit", "0").expect("valid");
        assert_eq!(settings.rules.move_limit, None);
        assert_eq!(settings.rule_set(), "custom");
        settings.set("Rules", "default").expect("valid");
        assert_eq!(settings.rule_set(), "default");
        settings.set("Rules", "ccerl").expect("valid");
        assert_eq!(settings.rule_set(), "ccerl");
        assert_eq!(settings.spec(), Ok(GameSpec::Chinese(Rules::ccerl())));
        settings.set("Players", "3").expect("valid");
        assert_eq!(settings.rule_set(), "custom", "CCERL is two players");
    }

    #[test]
    fn players_may_come_before_game_and_the_combination_is_checked() {
        let mut settings = Settings::default();
        settings.set("Players", "3").expect("valid");
        let err = settings
            .spec()
            .expect_err("Spanish draughts with 3 players");
        assert_eq!(
            err.to_string(),
            "Spanish draughts is played by 2 players, but Players is 3; set Game or Players"
        );
        settings.set("Game", "chinese").expect("valid");
        assert_eq!(settings.spec().map(|s| s.players()), Ok(3));
        settings.set("Game", "spanish").expect("valid");
        settings.set("Players", "2").expect("valid");
        assert_eq!(settings.spec(), Ok(GameSpec::Spanish));
    }

    #[test]
    fn the_seed_reaches_the_search_and_zero_means_the_clock() {
        let mut settings = Settings::default();
        assert_eq!(settings.engine_options().seed, None);
        settings.set("Seed", "7").expect("valid");
        assert_eq!(settings.engine_options().seed, Some(7));
        settings.set("seed", "0").expect("valid");
        assert_eq!(settings.engine_options().seed, None);
        assert!(settings.set("Seed", "2147483648").is_err());
    }

    #[test]
    fn rule_options_apply_to_chinese_checkers_only() {
        let rules: Vec<&str> = OPTIONS
            .iter()
            .filter(|d| d.group == OptionGroup::Rule && d.applies_to(GameKind::Chinese))
            .map(|d| d.name)
            .collect();
        assert_eq!(
            rules,
            [
                "AntiBlocking",
                "PlayToEnd",
                "MoveLimit",
                "NoProgressLimit",
                "GoalLock",
                "NoMoveLoss",
                "RepetitionDraw",
                "EqualTurns",
                "Rules"
            ]
        );
        assert!(OPTIONS
            .iter()
            .filter(|d| d.group == OptionGroup::Rule)
            .all(|d| !d.applies_to(GameKind::Spanish)));
    }
}
