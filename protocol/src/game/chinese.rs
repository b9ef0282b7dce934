//! Chinese checkers and the Japanese variant behind
//! [`GameState`](super::GameState).

use damas::chinese::search::SearchOptions;
use damas::chinese::{Cell, EndReason, Game, PlayerState, Rules, Turn, Variant};
use damas::search::{SearchInfo, SearchLimits};
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
    let game = Game::from_text_with_defaults(text, &rules(options))
        .map_err(|err| GameError::Position(err.to_string()))?;
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
        EndReason::Adjudicated => "adjudicated by the referee",
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
        .filter(|mv| from.is_none_or(|cell| mv.from() == cell))
        .map(|mv| game.move_text(mv))
        .collect()
}

/// Runs the Chinese checkers search (see [`damas::chinese::search`]) and
/// returns the move in full-path text, or `pass` when the player to move has
/// no legal move.
pub(super) fn search(
    game: &Game,
    limits: &SearchLimits,
    config: &SearchConfig,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Option<String> {
    if game.is_over() {
        return None;
    }
    let options = SearchOptions {
        beam_width: config.beam_width,
        style: config.style,
        seed: 0,
    };
    let out = damas::chinese::search::search(game, limits, &options, stop, on_info);
    Some(match out.best {
        Some(mv) => game.move_text(&mv),
        None => "pass".to_string(),
    })
}
