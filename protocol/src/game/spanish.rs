//! Spanish draughts behind [`GameState`](super::GameState).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use damas::search::{Score, SearchInfo, SearchLimits};
use damas::spanish::{Color, DrawReason, Game, GameStatus, Position, Square, WinReason};

use super::{GameError, SearchConfig};
use crate::options::Options;

/// Search state kept between searches.
#[derive(Debug, Default)]
pub(super) struct Context;

impl Context {
    pub(super) fn new(_options: &Options) -> Context {
        Context
    }

    pub(super) fn clear(&self) {}
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
        .filter(|mv| from.map_or(true, |sq| mv.from() == sq))
        .map(|mv| position.move_text(mv))
        .collect()
}

pub(super) fn search(
    game: &Game,
    _limits: &SearchLimits,
    _context: &Context,
    _config: &SearchConfig,
    _stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Option<String> {
    let start = Instant::now();
    let moves = game.legal_moves();
    let best = moves.first()?;
    let text = game.position().move_text(best);
    on_info(&SearchInfo {
        depth: 1,
        seldepth: 1,
        score: Score::Centi(0),
        nodes: moves.len() as u64,
        time: start.elapsed(),
        hashfull: None,
        pv: vec![text.clone()],
    });
    Some(text)
}
