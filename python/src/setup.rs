//! What a game is made of: the game, its players and rules as the option
//! table names them ([`damas::options`]), who opens and the starting
//! position text. Python passes these as arguments; they are checked here
//! (through the option table) before a game exists, and kept so that a
//! game can be pickled and made again.

use damas::options::{self, OptionGroup, Options, OPTIONS};
use damas::{AnyGame, GameKind, GameSpec, Player};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use crate::errors::{option_error, position_error};

/// Longest position text read, in bytes (the longest real one is a few
/// hundred).
pub const MAX_POSITION_TEXT: usize = 10_000;

/// A checked description of a game: everything needed to start it again.
#[derive(Clone, Debug)]
pub struct Setup {
    /// `Game`, `Players` and the rule options.
    pub settings: Options,
    /// The game and rules the settings describe.
    pub spec: GameSpec,
    /// The seat that takes the first turn.
    pub first_player: Player,
    /// The starting position text, if not the start position.
    pub start: Option<String>,
}

/// The text the option table reads for a Python value: `true`/`false`
/// for a bool, digits for an int, a str as it is.
fn option_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyBool>() {
        Ok(if value.extract::<bool>()? {
            "true"
        } else {
            "false"
        }
        .to_string())
    } else if value.is_instance_of::<PyInt>() {
        Ok(value.str()?.to_string())
    } else if let Ok(text) = value.cast::<PyString>() {
        Ok(text.to_cow()?.into_owned())
    } else {
        Err(PyTypeError::new_err(format!(
            "a rule value is a bool, an int or a str, not {}",
            value.get_type().name()?
        )))
    }
}

impl Setup {
    /// Checks and builds a setup. `rules` maps rule option names
    /// (`AntiBlocking`, `MoveLimit`, `Rules`, ...) to values; `variant` is
    /// the `Variant` option (the draughts rule set), set before them.
    pub fn new(
        kind: &str,
        players: Option<u8>,
        rules: Option<&Bound<'_, PyDict>>,
        first_player: usize,
        start: Option<String>,
        variant: Option<&str>,
    ) -> PyResult<Setup> {
        let mut settings = Options::default();
        let kind: GameKind = kind.parse().map_err(option_error)?;
        settings.set("Game", kind.name()).map_err(option_error)?;
        let players = players.unwrap_or_else(|| kind.default_players());
        settings
            .set("Players", &players.to_string())
            .map_err(option_error)?;
        if let Some(variant) = variant {
            let decl = options::find("Variant")
                .ok_or_else(|| option_error("no Variant option".to_string()))?;
            if !decl.applies_to(kind) {
                return Err(option_error(format!(
                    "variant is a rule of {}, not of {}",
                    decl.games
                        .iter()
                        .map(|game| game.title())
                        .collect::<Vec<_>>()
                        .join(", "),
                    kind.title()
                )));
            }
            settings
                .set(decl.name, &clip(variant))
                .map_err(option_error)?;
        }
        if let Some(rules) = rules {
            for (name, value) in rules.iter() {
                let name: String = name
                    .extract()
                    .map_err(|_| PyTypeError::new_err("rule names are str"))?;
                let decl = options::find(&name)
                    .ok_or_else(|| option_error(format!("unknown rule '{}'", clip(&name))))?;
                if decl.group != OptionGroup::Rule {
                    return Err(option_error(format!(
                        "'{}' is not a rule option (rules: {})",
                        decl.name,
                        rule_names().join(", ")
                    )));
                }
                settings
                    .set(decl.name, &option_text(&value)?)
                    .map_err(option_error)?;
            }
        }
        let spec = settings.spec().map_err(option_error)?;
        let count = usize::from(spec.players());
        let first = Player::all(count).nth(first_player).ok_or_else(|| {
            option_error(format!(
                "first_player {first_player} is not a seat of a {count}-player game (0-{})",
                count - 1
            ))
        })?;
        if first_player != 0 && spec.kind().fixed_opener() {
            return Err(option_error(format!(
                "in {} the first player is always 0",
                spec.kind().title()
            )));
        }
        if let Some(text) = &start {
            if text.len() > MAX_POSITION_TEXT {
                return Err(crate::errors::PositionError::new_err(format!(
                    "invalid position: longer than {MAX_POSITION_TEXT} bytes"
                )));
            }
        }
        let setup = Setup {
            settings,
            spec,
            first_player: first,
            start,
        };
        // A text that does not read is refused now, not at the next reset.
        setup.new_game()?;
        Ok(setup)
    }

    /// A game at the start of this setup.
    pub fn new_game(&self) -> PyResult<AnyGame> {
        match &self.start {
            None => Ok(AnyGame::with_first_player(&self.spec, self.first_player)),
            Some(text) => AnyGame::from_text(&self.spec, text).map_err(position_error),
        }
    }

    /// The game's name (`spanish`, `chinese`, `japanese`).
    pub fn kind_name(&self) -> &'static str {
        self.settings.game.name()
    }

    /// The rule options' values as text, in table order, as
    /// [`Setup::new`] reads them back.
    pub fn rules(&self) -> Vec<(&'static str, String)> {
        OPTIONS
            .iter()
            .filter(|decl| decl.group == OptionGroup::Rule && decl.name != "Rules")
            .map(|decl| (decl.name, decl.value_text(&self.settings)))
            .collect()
    }

    /// The rules as a dict (for pickling and `Game.rules`).
    pub fn rules_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.rules() {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }
}

/// The names of the rule options.
fn rule_names() -> Vec<&'static str> {
    OPTIONS
        .iter()
        .filter(|decl| decl.group == OptionGroup::Rule)
        .map(|decl| decl.name)
        .collect()
}

/// At most 40 characters of a text shown back in a message.
pub fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The games: `(name, title, min players, max players)` for each.
#[pyfunction]
pub fn game_kinds() -> Vec<(&'static str, &'static str, u8, u8)> {
    GameKind::ALL
        .iter()
        .map(|kind| {
            let players = kind.players();
            (kind.name(), kind.title(), *players.start(), *players.end())
        })
        .collect()
}

/// The rule options: `(name, kind, default, help, games)` for each, as the
/// option table declares them.
#[pyfunction]
pub fn rule_options() -> Vec<(
    &'static str,
    String,
    String,
    &'static str,
    Vec<&'static str>,
)> {
    OPTIONS
        .iter()
        .filter(|decl| decl.group == OptionGroup::Rule)
        .map(|decl| {
            let kind = match decl.kind {
                options::OptionType::Check => "check".to_string(),
                options::OptionType::Spin { min, max } => format!("spin {min}-{max}"),
                options::OptionType::Combo(values) => format!("combo {}", values.join("/")),
                options::OptionType::Text => "text".to_string(),
            };
            let games = decl.games.iter().map(|g| g.name()).collect();
            (decl.name, kind, decl.default_text(), decl.help, games)
        })
        .collect()
}
