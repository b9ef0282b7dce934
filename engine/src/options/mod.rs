//! The options, declared once: [`OPTIONS`] lists every option with its
//! type, default, bounds, the games it applies to and how it reads and
//! writes the [`Options`]. The protocol's `option` lines and `setoption`,
//! the web board's setup form and the command line's `--rule NAME=VALUE`
//! all come from this one table.
//!
//! Adding a rule option is one entry here plus its rule code (a field of
//! [`chinese::Rules`](crate::chinese::Rules) and what the game does with it).
//!
//! ```
//! use damas::options::{OptionEffect, Options};
//! use damas::{GameKind, GameSpec};
//!
//! let mut settings = Options::default();
//! assert_eq!(settings.set("Game", "chinese"), Ok(OptionEffect::NewGame));
//! settings.set("Players", "3").unwrap();
//! settings.set("AntiBlocking", "false").unwrap();
//! let spec = settings.spec().unwrap();
//! assert_eq!((spec.kind(), spec.players()), (GameKind::Chinese, 3));
//! assert!(settings.set("Players", "9").is_err());
//! assert_eq!(settings.value("Players").as_deref(), Some("3"));
//! ```

use std::fmt;
use std::str::FromStr;

use crate::any::players_text;
use crate::chinese::Rules;
use crate::game::GameKind;
use crate::search::{EngineOptions, Style};
use crate::spanish;
use crate::{GameSpec, SpecError};

/// Largest value of the Chinese checkers limits (plies or rounds).
pub const MAX_LIMIT: u64 = 1_000_000;

/// Longest text option (`TablebasePath`) accepted, in bytes.
pub const MAX_TEXT_LEN: usize = 1024;

/// The default `MoveOverhead`, in milliseconds: what a loaded machine may
/// add to a move between the search's deadline and the client reading
/// `bestmove` (the search thread waiting for a core, the pipe, the
/// client's own thread). At 100 ms a move the search on a machine whose
/// two cores ran six jobs overran its deadline by up to 60 ms, and
/// cutegames forfeits a move 50 ms late: 50 leaves 100 ms for that
/// (docs/PERFORMANCE.md, "Time on a loaded machine"). The protocol never
/// keeps back more than half of a move's time.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 50;

/// Largest `MoveOverhead`, in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 10_000;

/// Largest `Seed` (the largest spin a 32-bit client reads).
pub const MAX_SEED: u64 = i32::MAX as u64;

/// Largest `BeamWidth`.
pub const MAX_BEAM_WIDTH: u64 = 100_000;

/// Every value of the options: the game and its rules, the search settings
/// and the host's (table size, time kept back, endgame tables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Game`.
    pub game: GameKind,
    /// `Players`; kept whatever the game, so that `Players` may come before
    /// `Game` ([`Options::spec`] checks the combination).
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
    /// `OwnBook`: play from the opening book (Spanish draughts).
    pub own_book: bool,
    /// `Variant`: the draughts rule set ([`spanish::Rules`]).
    pub draughts: spanish::Rules,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            game: GameKind::Spanish,
            players: 2,
            rules: Rules::default(),
            threads: 1,
            hash_mb: 64,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            beam_width: 64,
            style: Style::Best,
            seed: 0,
            tablebase_path: String::new(),
            own_book: true,
            draughts: spanish::Rules::default(),
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
    /// `Rules ccerl` (two-player Chinese checkers) while `Players` is not 2.
    #[error(
        "Rules ccerl is two-player Chinese checkers, but Players is {0}; \
         set Players to 2 first"
    )]
    CcerlPlayers(u8),
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

/// A preset of the rule options, the values of the `Rules` option: what
/// [`Options::rule_set`] finds the rules to match. It reads and prints its
/// name (`default`, `ccerl`, `custom`).
///
/// ```
/// use damas::options::{RuleSet, Options};
/// let mut settings = Options::default();
/// assert_eq!(settings.rule_set(), RuleSet::Default);
/// settings.set("Rules", "ccerl").unwrap();
/// assert_eq!(settings.rule_set(), RuleSet::Ccerl);
/// assert_eq!(settings.value("Rules").as_deref(), Some("ccerl"));
/// assert_eq!("CCERL".parse::<RuleSet>(), Ok(RuleSet::Ccerl));
/// assert_eq!(RuleSet::Custom.to_string(), "custom");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The library's defaults ([`Rules::default`]).
    Default,
    /// The CCERL benchmark rules: two-player Chinese checkers by
    /// [`Rules::ccerl`].
    Ccerl,
    /// Any other rules.
    Custom,
}

impl RuleSet {
    /// Every preset, in the order the `Rules` option lists them.
    pub const ALL: [RuleSet; 3] = [RuleSet::Default, RuleSet::Ccerl, RuleSet::Custom];

    /// The preset's name, as the `Rules` option reads and writes it.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Default => "default",
            RuleSet::Ccerl => "ccerl",
            RuleSet::Custom => "custom",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text is not the name of a rule preset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a rule preset (default, ccerl or custom)")]
pub struct RuleSetParseError(String);

impl FromStr for RuleSet {
    type Err = RuleSetParseError;

    /// Reads [`RuleSet::name`], in any case.
    fn from_str(text: &str) -> Result<RuleSet, RuleSetParseError> {
        let text = text.trim();
        RuleSet::ALL
            .into_iter()
            .find(|set| set.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| RuleSetParseError(text.chars().take(20).collect()))
    }
}

impl OptionError {
    /// The error as a stable machine name: `unknown`, `bad_value`,
    /// `ccerl_players` or `combination`.
    ///
    /// ```
    /// use damas::options::Options;
    /// let mut settings = Options::default();
    /// assert_eq!(settings.set("Colour", "red").unwrap_err().code(), "unknown");
    /// assert_eq!(settings.set("MoveLimit", "many").unwrap_err().code(), "bad_value");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            OptionError::Unknown(_) => "unknown",
            OptionError::BadValue { .. } => "bad_value",
            OptionError::CcerlPlayers(_) => "ccerl_players",
            OptionError::Combination { .. } => "combination",
        }
    }
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
    get: fn(&Options) -> OptionValue,
    /// Refuses a value that fits the option but not the other settings.
    check: fn(&Options, &OptionValue) -> Result<(), OptionError>,
    set: fn(&mut Options, &OptionValue),
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
    pub fn value(&self, settings: &Options) -> OptionValue {
        (self.get)(settings)
    }

    /// The value in `settings` as text (`<empty>` for an empty text).
    pub fn value_text(&self, settings: &Options) -> String {
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
        self.value_text(&Options::default())
    }

    /// Reads `text` as a value of this option.
    ///
    /// # Errors
    ///
    /// [`OptionError::BadValue`] when `text` is not a value of the option's
    /// type (a check, a number within its bounds, one of its combo's names, a
    /// string within its length).
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
            OptionType::Spin { min, max } => read_whole_number(text)
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

/// Most digits [`read_whole_number`] reads: every `u64` fits in 20.
const MAX_DIGITS: usize = 20;

/// Reads a whole number written as the engine writes it: ASCII digits
/// only, without a sign and without leading zeros (`0` itself is fine), at
/// most 20 of them, with spaces around ignored. `+5`, `05`, `5.0`, `1e3`
/// and `٥` are no numbers here, so that each value has one spelling and
/// reads back as it was sent. `None` when `text` is no such number or does
/// not fit a `u64`.
///
/// ```
/// use damas::options::read_whole_number;
/// assert_eq!(read_whole_number(" 64 "), Some(64));
/// assert_eq!(read_whole_number("0"), Some(0));
/// for bad in ["+5", "-1", "05", "", "5 5", "18446744073709551616"] {
///     assert_eq!(read_whole_number(bad), None, "{bad}");
/// }
/// ```
pub fn read_whole_number(text: &str) -> Option<u64> {
    let digits = text.trim();
    let canonical = !digits.is_empty()
        && digits.len() <= MAX_DIGITS
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    canonical.then(|| digits.parse().ok()).flatten()
}

/// The option named `name` (case-insensitive).
pub fn find(name: &str) -> Option<&'static OptionDecl> {
    let name = name.trim();
    OPTIONS.iter().find(|d| d.name.eq_ignore_ascii_case(name))
}

impl Options {
    /// Sets option `name` from `value`; on error nothing changes.
    ///
    /// # Errors
    ///
    /// [`OptionError::Unknown`] for a name no option has;
    /// [`OptionError::BadValue`] for a value the option does not take;
    /// [`OptionError::CcerlPlayers`] for `Rules ccerl` while `Players` is not 2.
    ///
    /// ```
    /// use damas::options::{OptionError, Options};
    ///
    /// let mut settings = Options::default();
    /// settings.set("Players", "3").unwrap();
    /// assert!(matches!(settings.set("Hash", "many"), Err(OptionError::BadValue { .. })));
    /// assert!(matches!(settings.set("Colour", "red"), Err(OptionError::Unknown(_))));
    /// assert_eq!(settings.players, 3);
    /// ```
    pub fn set(&mut self, name: &str, value: &str) -> Result<OptionEffect, OptionError> {
        let decl =
            find(name).ok_or_else(|| OptionError::Unknown(name.chars().take(40).collect()))?;
        let value = decl.parse(value)?;
        (decl.check)(self, &value)?;
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
    ///
    /// # Errors
    ///
    /// [`OptionError::Combination`] when the game is not played by `Players`
    /// players (Spanish draughts with 3, say).
    pub fn spec(&self) -> Result<GameSpec, OptionError> {
        let spec = GameSpec::from_kind(self.game, self.players, &self.rules).map_err(
            |SpecError::Players { kind, players }| OptionError::Combination {
                game: kind,
                players,
            },
        )?;
        Ok(match spec {
            GameSpec::Draughts(_) => GameSpec::Draughts(self.draughts),
            chinese => chinese,
        })
    }

    /// The search settings.
    pub fn engine_options(&self) -> EngineOptions {
        EngineOptions {
            threads: self.threads,
            style: self.style,
            beam_width: self.beam_width,
            seed: (self.seed != 0).then_some(self.seed),
            own_book: self.own_book,
        }
    }

    /// The `Rules` preset the rule options match: [`RuleSet::Ccerl`]
    /// (two-player Chinese checkers by [`Rules::ccerl`]),
    /// [`RuleSet::Default`] ([`Rules::default`]) or [`RuleSet::Custom`].
    pub fn rule_set(&self) -> RuleSet {
        let same = |preset: &Rules| {
            Rules {
                players: self.rules.players,
                variant: self.rules.variant,
                ..*preset
            } == self.rules
        };
        if same(&Rules::ccerl()) && self.game == GameKind::Chinese && self.players == 2 {
            RuleSet::Ccerl
        } else if same(&Rules::default()) {
            RuleSet::Default
        } else {
            RuleSet::Custom
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

mod table;

pub use table::OPTIONS;

#[cfg(test)]
mod tests;
