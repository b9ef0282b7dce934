//! Spanish draughts behind [`GameState`](super::GameState).

use std::sync::atomic::AtomicBool;

use damas::search::{EngineOptions, SearchInfo, SearchLimits};
use damas::spanish::{
    Color, DrawReason, Engine, Game, GameStatus, Move, Position, Square, WinReason,
};

use super::{GameError, SearchConfig};
use crate::options::{GameKind, Options};

/// The table size of the engine kept between searches:
/// `Hash` MiB when the game is Spanish draughts, a token 1 MiB otherwise.
pub(super) fn hash_mb(options: &Options) -> usize {
    if options.game == GameKind::Spanish {
        options.hash_mb
    } else {
        1
    }
}

/// The move texts of `pv` played in turn from `pos`; stops at the first
/// move that is not legal.
fn pv_text(pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(pv.len());
    for mv in pv {
        if !p.legal_moves().contains(mv) {
            break;
        }
        out.push(p.move_text(mv));
        p.play(mv);
    }
    out
}

pub(super) fn from_text(text: &str) -> Result<Game, GameError> {
    let position =
        Position::from_fen(text.trim()).map_err(|err| GameError::Position(err.to_string()))?;
    Ok(Game::new(position))
}

pub(super) fn play_text(game: &mut Game, text: &str) -> Result<String, GameError> {
    let before = *game.position();
    let mv = game
        .play_text(text)
        .map_err(|err| GameError::Move(err.to_string()))?;
    Ok(before.move_text(&mv))
}

pub(super) fn player_to_move(game: &Game) -> usize {
    match game.position().side_to_move() {
        Color::White => 0,
        Color::Black => 1,
    }
}

pub(super) fn places(game: &Game) -> Option<Vec<u32>> {
    match game.status() {
        GameStatus::Ongoing => None,
        GameStatus::Win {
            winner: Color::White,
            ..
        } => Some(vec![1, 2]),
        GameStatus::Win {
            winner: Color::Black,
            ..
        } => Some(vec![2, 1]),
        GameStatus::Draw { .. } => Some(vec![1, 1]),
    }
}

pub(super) fn end_reason(game: &Game) -> Option<String> {
    let text = match game.status() {
        GameStatus::Ongoing => return None,
        GameStatus::Win {
            reason: WinReason::NoPieces,
            ..
        } => "the loser has no pieces",
        GameStatus::Win {
            reason: WinReason::NoMoves,
            ..
        } => "the loser has no legal move",
        GameStatus::Draw {
            reason: DrawReason::Repetition,
        } => "draw by threefold repetition",
        GameStatus::Draw {
            reason: DrawReason::NoProgress,
        } => "draw by 80 plies without capture or man move",
    };
    Some(text.to_string())
}

pub(super) fn parse_square(text: &str) -> Result<Square, GameError> {
    text.trim()
        .parse::<u8>()
        .ok()
        .and_then(Square::new)
        .ok_or_else(|| GameError::Square(format!("'{text}' is not a square (1-32)")))
}

pub(super) fn legal_moves_text(game: &Game, from: Option<Square>) -> Vec<String> {
    let position = game.position();
    game.legal_moves()
        .iter()
        .filter(|mv| from.is_none_or(|sq| mv.from() == sq))
        .map(|mv| position.move_text(mv))
        .collect()
}

pub(super) fn search(
    game: &Game,
    limits: &SearchLimits,
    engine: &mut Engine,
    config: &SearchConfig,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo<String>),
) -> Option<String> {
    engine.set_options(&EngineOptions {
        threads: config.threads,
        style: config.style,
        beam_width: config.beam_width,
    });
    let root = game.position();
    let result = engine.search(game, limits, stop, &mut |info| {
        on_info(&super::info_text(info, pv_text(root, &info.pv)));
    });
    result.best.map(|mv| root.move_text(&mv))
}
