//! Spanish draughts behind [`GameState`](super::GameState).

use std::sync::atomic::AtomicBool;

use damas::search::{SearchInfo, SearchLimits};
use damas::spanish::search::{SearchParams, TranspositionTable};
use damas::spanish::{Color, DrawReason, Game, GameStatus, Position, Square, WinReason};

use super::{GameError, SearchConfig};
use crate::options::{GameKind, Options};

/// Search state kept between searches: the transposition table.
#[derive(Debug)]
pub(super) struct Context {
    tt: TranspositionTable,
}

impl Default for Context {
    fn default() -> Context {
        Context {
            tt: TranspositionTable::new(1),
        }
    }
}

impl Context {
    /// A table of `Hash` MiB when the game is Spanish draughts (a token
    /// one otherwise, so that Chinese checkers does not pay for it).
    pub(super) fn new(options: &Options) -> Context {
        let mb = if options.game == GameKind::Spanish {
            options.hash_mb
        } else {
            1
        };
        Context {
            tt: TranspositionTable::new(mb),
        }
    }

    pub(super) fn clear(&self) {
        self.tt.clear();
    }
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
    context: &Context,
    config: &SearchConfig,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Option<String> {
    let params = SearchParams {
        threads: config.threads,
        style: config.style,
    };
    let result = damas::spanish::search::search(game, limits, &context.tt, &params, stop, on_info);
    result.best.map(|mv| game.position().move_text(&mv))
}
