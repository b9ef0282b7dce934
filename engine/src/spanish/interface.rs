//! Spanish draughts behind the game-neutral [`crate::Game`] interface.

use std::sync::atomic::AtomicBool;

use crate::game::{self, EndReason, GameKind, Outcome, PlayError, Player};

use super::game::GameError;
use super::perft::{divide_until, perft_parallel_until};
use super::{Color, DrawReason, Game, GameStatus};
use super::{Engine, Move, MoveParseError, PositionError, Square, WinReason};

/// `p1` is White, `p2` Black.
fn player_of(color: Color) -> Player {
    Player::of(match color {
        Color::White => 0,
        Color::Black => 1,
    })
}

fn color_of(player: Player) -> Option<Color> {
    match player.index() {
        0 => Some(Color::White),
        1 => Some(Color::Black),
        _ => None,
    }
}

fn play_error(err: GameError) -> PlayError {
    match err {
        GameError::GameOver(_) => PlayError::GameOver,
        GameError::Illegal(_) => PlayError::Illegal(err.to_string()),
        GameError::Parse(err) => parse_error(err),
    }
}

fn parse_error(err: MoveParseError) -> PlayError {
    match err {
        MoveParseError::Illegal { .. } | MoveParseError::Ambiguous { .. } => {
            PlayError::Illegal(err.to_string())
        }
        _ => PlayError::Notation(err.to_string()),
    }
}

impl From<PositionError> for crate::PositionError {
    fn from(err: PositionError) -> crate::PositionError {
        crate::PositionError::Invalid(err.to_string())
    }
}

/// How the game ended, once it is over, in the game-neutral shape.
fn outcome_of(status: GameStatus) -> Option<Outcome> {
    let (places, reason) = match status {
        GameStatus::Ongoing => return None,
        GameStatus::Win { winner, reason } => {
            let places = match winner {
                Color::White => vec![1, 2],
                Color::Black => vec![2, 1],
            };
            let reason = match reason {
                WinReason::NoPieces => EndReason::NoPieces,
                WinReason::NoMoves => EndReason::NoMoves,
                WinReason::Resignation => EndReason::Resignation,
            };
            (places, reason)
        }
        GameStatus::Draw { reason } => {
            let reason = match reason {
                DrawReason::Repetition => EndReason::Repetition,
                DrawReason::NoProgress => EndReason::NoProgress,
                DrawReason::Adjudicated => EndReason::Adjudicated,
            };
            (vec![1, 1], reason)
        }
    };
    Some(Outcome { places, reason })
}

impl game::Game for Game {
    type Move = Move;
    type Engine = Engine;

    fn kind(&self) -> GameKind {
        GameKind::Spanish
    }

    fn player_count(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<Player> {
        (!self.status().is_over()).then(|| player_of(self.position().to_move()))
    }

    fn legal_moves(&self) -> Vec<Move> {
        if self.status().is_over() {
            return Vec::new();
        }
        self.position().legal_moves().to_vec()
    }

    fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        let status = self.status();
        if status.is_over() {
            return Err(play_error(GameError::GameOver(status)));
        }
        if !self.position().legal_moves().contains(&mv) {
            return Err(play_error(GameError::Illegal(mv)));
        }
        self.push(mv);
        Ok(())
    }

    fn pass(&mut self) -> Result<(), PlayError> {
        if self.status().is_over() {
            return Err(PlayError::GameOver);
        }
        Err(PlayError::CannotPass(self.position().legal_moves().len()))
    }

    fn resign(&mut self, player: Player) -> Result<(), PlayError> {
        let color = color_of(player).ok_or(PlayError::NotPlaying(player))?;
        let status = self.status();
        if status.is_over() {
            return Err(play_error(GameError::GameOver(status)));
        }
        self.ruling = Some(GameStatus::Win {
            winner: color.opposite(),
            reason: WinReason::Resignation,
        });
        Ok(())
    }

    fn adjudicate_draw(&mut self) {
        if !self.status().is_over() {
            self.ruling = Some(GameStatus::Draw {
                reason: DrawReason::Adjudicated,
            });
        }
    }

    /// Takes back a resignation or ruling if there is one, else the last
    /// move.
    fn undo(&mut self) -> bool {
        if self.ruling.take().is_some() {
            return true;
        }
        if self.moves.pop().is_none() {
            return false;
        }
        self.positions.pop();
        self.hashes.pop();
        self.counts.pop();
        true
    }

    fn parse_move(&self, text: &str) -> Result<Move, PlayError> {
        if self.status().is_over() {
            return Err(PlayError::GameOver);
        }
        self.position().parse_move(text).map_err(parse_error)
    }

    fn moves_from(&self, square: &str) -> Result<Vec<Move>, PlayError> {
        let from = square
            .trim()
            .parse::<u8>()
            .ok()
            .and_then(Square::new)
            .ok_or_else(|| {
                let shown: String = square.chars().take(20).collect();
                PlayError::BadSquare(format!("'{shown}' is not a square (1-32)"))
            })?;
        Ok(game::Game::legal_moves(self)
            .into_iter()
            .filter(|mv| mv.from() == from)
            .collect())
    }

    fn move_text(&self, mv: &Move) -> String {
        self.position().move_text(mv)
    }

    fn read_position(&self, text: &str) -> Result<Game, crate::PositionError> {
        Ok(text.trim().parse::<Game>()?)
    }

    fn position_text(&self) -> String {
        self.position().to_fen()
    }

    fn diagram(&self) -> String {
        self.position().diagram()
    }

    fn hash(&self) -> u64 {
        self.position().hash()
    }

    fn places(&self) -> Vec<Option<u8>> {
        match outcome_of(self.status()) {
            Some(outcome) => outcome.places.into_iter().map(Some).collect(),
            None => vec![None, None],
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        outcome_of(self.status())
    }

    fn perft_until(&self, depth: u32, threads: usize, stop: &AtomicBool) -> Option<u64> {
        perft_parallel_until(self.position(), depth, threads, stop)
    }

    fn divide_until(&self, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>> {
        let position = self.position();
        let rows = divide_until(position, depth, stop)?;
        Some(
            rows.into_iter()
                .map(|(mv, n)| (position.move_text(&mv), n))
                .collect(),
        )
    }
}
