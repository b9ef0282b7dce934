//! Chinese checkers (every variant and player count) behind the
//! game-neutral [`crate::Game`] interface, and its engine behind
//! [`crate::Search`].

use std::sync::atomic::AtomicBool;

use crate::game::{self, EndReason as NeutralReason, GameKind, Outcome, PlayError, Player, Search};

use crate::search::{EngineOptions, SearchInfo, SearchLimits, SearchResult};

use super::{divide, format_path, parse_path, perft, perft_parallel, EndReason, Game, GameError};
use super::{Cell, Engine, Move, PositionError, Turn, Variant};

fn play_error(err: GameError) -> PlayError {
    match err {
        GameError::GameOver => PlayError::GameOver,
        GameError::NotPlaying(p) => PlayError::NotPlaying(Player::of(p)),
        GameError::CannotPass(n) => PlayError::CannotPass(n),
        GameError::Illegal(_) => PlayError::Illegal(err.to_string()),
        other => PlayError::Notation(other.to_string()),
    }
}

impl From<PositionError> for crate::PositionError {
    fn from(err: PositionError) -> crate::PositionError {
        crate::PositionError::Invalid(err.to_string())
    }
}

fn neutral_reason(reason: EndReason) -> NeutralReason {
    match reason {
        EndReason::Decided => NeutralReason::AllPlaced,
        EndReason::FirstFinisher => NeutralReason::FirstFinisher,
        EndReason::MoveLimit => NeutralReason::MoveLimit,
        EndReason::NoProgress => NeutralReason::NoProgressLimit,
        EndReason::Blocked => NeutralReason::Blocked,
        EndReason::Adjudicated => NeutralReason::Adjudicated,
    }
}

impl Game {
    /// How the game ended, once it is over, in the game-neutral shape.
    pub fn outcome(&self) -> Option<Outcome> {
        let reason = neutral_reason(self.end_reason()?);
        let places = self
            .status()
            .iter()
            .map(|state| state.place())
            .collect::<Option<Vec<u8>>>()?;
        Some(Outcome { places, reason })
    }
}

impl game::Game for Game {
    type Move = Move;
    type Engine = Engine;

    fn kind(&self) -> GameKind {
        match self.rules().variant {
            Variant::International => GameKind::Chinese,
            Variant::Japanese => GameKind::Japanese,
        }
    }

    fn player_count(&self) -> usize {
        self.players()
    }

    fn to_move(&self) -> Option<Player> {
        Game::to_move(self).map(Player::of)
    }

    fn legal_moves(&self) -> Vec<Move> {
        Game::legal_moves(self).to_vec()
    }

    fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        Game::play(self, &mv).map_err(play_error)
    }

    fn pass(&mut self) -> Result<(), PlayError> {
        Game::pass(self).map_err(play_error)
    }

    fn resign(&mut self, player: Player) -> Result<(), PlayError> {
        Game::resign(self, player.index()).map_err(play_error)
    }

    fn adjudicate_draw(&mut self) {
        Game::adjudicate_draw(self);
    }

    fn undo(&mut self) -> bool {
        Game::undo(self)
    }

    fn parse_move(&self, text: &str) -> Result<Move, PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        let cells = parse_path(text).map_err(play_error)?;
        let (from, to) = (cells[0], cells[cells.len() - 1]);
        let mv = Move::new(from, to);
        let legal = if cells.len() == 2 {
            self.position().path(&mv).is_some()
        } else {
            self.position().is_legal_path(&cells)
        };
        if legal {
            Ok(mv)
        } else {
            Err(play_error(GameError::Illegal(text.trim().to_string())))
        }
    }

    /// Keeps the path as written (a chain may reach the same point by
    /// several paths) in the record and in the text returned.
    fn play_text(&mut self, text: &str) -> Result<String, PlayError> {
        let played = Game::play_text(self, text).map_err(play_error)?;
        Ok(match (played, self.history().last()) {
            (Some(_), Some(Turn::Move { path, .. })) => format_path(path),
            _ => text.trim().to_ascii_lowercase(),
        })
    }

    fn moves_from(&self, square: &str) -> Result<Vec<Move>, PlayError> {
        let from = square
            .trim()
            .parse::<Cell>()
            .map_err(|err| PlayError::BadSquare(err.to_string()))?;
        Ok(Game::legal_moves(self)
            .iter()
            .filter(|mv| mv.from() == from)
            .copied()
            .collect())
    }

    fn move_text(&self, mv: &Move) -> String {
        Game::move_text(self, mv)
    }

    /// Each move is played by the owner of its piece: the multi-player
    /// searches' lines skip the players they do not model.
    fn line_text(&self, line: &[Move]) -> Vec<String> {
        super::line_text(self.position(), line)
    }

    fn position_text(&self) -> String {
        self.to_text()
    }

    fn diagram(&self) -> String {
        Game::diagram(self)
    }

    fn hash(&self) -> u64 {
        Game::hash(self)
    }

    fn places(&self) -> Vec<Option<u8>> {
        self.status().iter().map(|state| state.place()).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn perft(&self, depth: u32, threads: usize) -> u64 {
        if threads == 1 {
            perft(self.position(), depth)
        } else {
            perft_parallel(self.position(), depth, threads)
        }
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let position = self.position();
        divide(position, depth)
            .into_iter()
            .map(|(mv, n)| {
                (
                    mv.map_or_else(|| "pass".to_string(), |mv| mv.to_string()),
                    n,
                )
            })
            .collect()
    }
}

impl Search<Game> for Engine {
    fn new(hash_mb: usize) -> Engine {
        Engine::new(hash_mb)
    }

    fn set_hash(&mut self, hash_mb: usize) {
        Engine::set_hash(self, hash_mb);
    }

    fn set_options(&mut self, options: &EngineOptions) {
        Engine::set_options(self, options);
    }

    fn clear(&mut self) {
        Engine::clear(self);
    }

    fn search(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        Engine::search(self, game, limits, stop, on_info)
    }
}
