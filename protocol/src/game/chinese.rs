//! Chinese checkers and the Japanese variant behind
//! [`GameState`](super::GameState).

use damas::chinese::{line_text, Cell, EndReason, Engine, Game, PlayerState, Rules, Turn, Variant};
use damas::search::{EngineOptions, SearchInfo, SearchLimits};
use std::sync::atomic::AtomicBool;

use super::{GameError, SearchConfig};
use crate::options::{GameKind, Options};

/// The rules the options describe.
pub(super) fn rules(options: &Options) -> Rules {
    let limit = |n: u32| (n > 0).then_some(n);
    Rules {
        players: options.players.clamp(1, 6),
        variant: if options.game == GameKind::Japanese {
            Variant::Japanese
        } else {
            Variant::International
        },
        anti_blocking: options.anti_blocking,
        play_to_end: options.play_to_end,
        rotate_first: options.rotate_first,
        move_limit: limit(options.move_limit),
        no_progress_limit: limit(options.no_progress_limit),
        goal_lock: options.goal_lock,
    }
}

pub(super) fn new_game(options: &Options, first_player: usize) -> Game {
    let rules = rules(options);
    let first = first_player % usize::from(rules.players);
    Game::with_first_player(rules, first)
}

/// Reads a position text. Rule fields the text leaves out (`anti`, `end`,
/// `rot`, `limit`, `noprog`, `lock`) come from the session's options rather
/// than from the library's defaults, so a GUI may send just the pieces.
pub(super) fn from_text(options: &Options, text: &str) -> Result<Game, GameError> {
    let rules = rules(options);
    let number = |limit: Option<u32>| limit.map_or_else(|| "-".to_string(), |n| n.to_string());
    let defaults = [
        ("anti", u8::from(rules.anti_blocking).to_string()),
        ("end", u8::from(rules.play_to_end).to_string()),
        ("rot", u8::from(rules.rotate_first).to_string()),
        ("limit", number(rules.move_limit)),
        ("noprog", number(rules.no_progress_limit)),
        ("lock", u8::from(rules.goal_lock).to_string()),
    ];
    let mut full = text.trim().to_string();
    for (key, value) in defaults {
        let prefix = format!("{key}=");
        if !full
            .split_whitespace()
            .any(|word| word.starts_with(&prefix))
        {
            full.push_str(&format!(" {prefix}{value}"));
        }
    }
    let game = Game::from_text(&full).map_err(|err| GameError::Position(err.to_string()))?;
    let wanted = if options.game == GameKind::Japanese {
        Variant::Japanese
    } else {
        Variant::International
    };
    if game.rules().variant != wanted {
        return Err(GameError::Position(format!(
            "the text is for the {:?} variant but the Game option is {}",
            game.rules().variant,
            options.game.name()
        )));
    }
    Ok(game)
}

pub(super) fn rules_warning(game: &Game) -> Option<String> {
    game.rules().variant_fallback().then(|| {
        format!(
            "the Japanese variant is for 2-3 players; with {} players the international rules apply",
            game.players()
        )
    })
}

pub(super) fn play_text(game: &mut Game, text: &str) -> Result<String, GameError> {
    let played = game
        .play_text(text)
        .map_err(|err| GameError::Move(err.to_string()))?;
    Ok(match (played, game.history().last()) {
        (Some(_), Some(Turn::Move { path, .. })) => damas::chinese::format_path(path),
        _ => text.trim().to_ascii_lowercase(),
    })
}

pub(super) fn places(game: &Game) -> Option<Vec<u32>> {
    if !game.is_over() {
        return None;
    }
    game.status()
        .iter()
        .map(|state| state.place().map(u32::from))
        .collect()
}

pub(super) fn partial_places(game: &Game) -> Vec<Option<u32>> {
    game.status()
        .iter()
        .map(|state| state.place().map(u32::from))
        .collect()
}

/// Places when the referee stops the game: those still playing share the
/// next free place.
pub(super) fn draw_places(game: &Game) -> Vec<u32> {
    let decided = game
        .status()
        .iter()
        .filter(|s| s.place().is_some() && !matches!(s, PlayerState::Resigned { .. }))
        .count() as u32;
    game.status()
        .iter()
        .map(|state| match state {
            PlayerState::Playing => decided + 1,
            other => other.place().map_or(decided + 1, u32::from),
        })
        .collect()
}

pub(super) fn end_reason(game: &Game) -> Option<String> {
    let text = match game.end_reason()? {
        EndReason::Decided => "every place decided",
        EndReason::FirstFinisher => "the first player finished",
        EndReason::MoveLimit => "move limit reached",
        EndReason::NoProgress => "no-progress limit reached",
        EndReason::Blocked => "no player can move",
    };
    Some(text.to_string())
}

pub(super) fn parse_cell(text: &str) -> Result<Cell, GameError> {
    text.trim()
        .parse::<Cell>()
        .map_err(|err| GameError::Square(err.to_string()))
}

pub(super) fn legal_moves_text(game: &Game, from: Option<Cell>) -> Vec<String> {
    let moves = game.legal_moves();
    if moves.is_empty() && from.is_none() && !game.is_over() {
        return vec!["pass".into()];
    }
    moves
        .iter()
        .filter(|mv| from.is_none_or(|cell| mv.from == cell))
        .map(|mv| game.move_text(mv))
        .collect()
}

/// The table size of the engine kept between searches:
/// `Hash` MiB when the game is Chinese checkers, a token 1 MiB otherwise.
pub(super) fn hash_mb(options: &Options) -> usize {
    if options.game != GameKind::Spanish {
        options.hash_mb
    } else {
        1
    }
}

/// Runs the Chinese checkers search (see [`damas::chinese::Engine`]) and
/// returns the move in full-path text, or `pass` when the player to move has
/// no legal move.
pub(super) fn search(
    game: &Game,
    limits: &SearchLimits,
    engine: &mut Engine,
    config: &SearchConfig,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo<String>),
) -> Option<String> {
    if game.is_over() {
        return None;
    }
    engine.set_options(&EngineOptions {
        threads: config.threads,
        style: config.style,
        beam_width: config.beam_width,
    });
    let root = game.position();
    let out = engine.search(game, limits, stop, &mut |info| {
        on_info(&super::info_text(info, line_text(root, &info.pv)));
    });
    Some(match out.best {
        Some(mv) => game.move_text(&mv),
        None => "pass".to_string(),
    })
}
