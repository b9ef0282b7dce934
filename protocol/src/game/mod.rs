//! The game the session plays, behind one type for both games.
//!
//! [`GameState`] hides which game is played: the session, the CLI tools and
//! the match runner all speak to it in move text and position text, and it
//! dispatches to the engine crate. The per-game parts live in `spanish.rs`
//! and `chinese.rs`.

mod chinese;
mod spanish;

use std::sync::atomic::AtomicBool;

use damas::search::{SearchInfo, SearchLimits, Style};
use thiserror::Error;

use crate::options::{GameKind, Options};

/// A refused move, position or square, with the engine's own explanation.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GameError {
    /// The position text could not be read.
    #[error("invalid position: {0}")]
    Position(String),
    /// The move is malformed or illegal here.
    #[error("{0}")]
    Move(String),
    /// A square or cell name is not valid.
    #[error("{0}")]
    Square(String),
}

#[derive(Clone, Debug)]
enum Inner {
    Spanish(Box<damas::spanish::Game>),
    Chinese(Box<damas::chinese::Game>),
}

/// A game of either kind, with the referee's extras: forfeits and
/// adjudication.
#[derive(Clone, Debug)]
pub struct GameState {
    inner: Inner,
    /// Places forced by the referee (forfeit, adjudication) in Spanish
    /// draughts, whose rules have no resignation.
    forced_places: Option<Vec<u32>>,
}

/// State that outlives one search: the transposition table and the like.
/// Shared between the session and its search thread.
#[derive(Debug, Default)]
pub struct SearchContext {
    spanish: spanish::Context,
}

impl SearchContext {
    /// A context sized by the options (`Hash`).
    pub fn new(options: &Options) -> SearchContext {
        SearchContext {
            spanish: spanish::Context::new(options),
        }
    }

    /// Forgets everything learned (new game).
    pub fn clear(&self) {
        self.spanish.clear();
    }
}

impl GameState {
    /// The start position of the game the options describe, with
    /// `first_player` to move first (Chinese checkers only).
    pub fn new(options: &Options, first_player: usize) -> GameState {
        let inner = match options.game {
            GameKind::Spanish => Inner::Spanish(Box::default()),
            GameKind::Chinese | GameKind::Japanese => {
                Inner::Chinese(Box::new(chinese::new_game(options, first_player)))
            }
        };
        GameState {
            inner,
            forced_places: None,
        }
    }

    /// A game from a position text (PDN FEN or Chinese checkers text).
    pub fn from_text(options: &Options, text: &str) -> Result<GameState, GameError> {
        let inner = match options.game {
            GameKind::Spanish => Inner::Spanish(Box::new(spanish::from_text(text)?)),
            GameKind::Chinese | GameKind::Japanese => {
                Inner::Chinese(Box::new(chinese::from_text(options, text)?))
            }
        };
        Ok(GameState {
            inner,
            forced_places: None,
        })
    }

    /// Which game this is.
    pub fn is_spanish(&self) -> bool {
        matches!(self.inner, Inner::Spanish(_))
    }

    /// A note when the rules asked for are not the rules played (the
    /// Japanese variant with 4 or more players).
    pub fn rules_warning(&self) -> Option<String> {
        match &self.inner {
            Inner::Spanish(_) => None,
            Inner::Chinese(game) => chinese::rules_warning(game),
        }
    }

    /// Plays one move in the game's notation and returns its canonical text.
    pub fn play_text(&mut self, text: &str) -> Result<String, GameError> {
        if self.forced_places.is_some() {
            return Err(GameError::Move("the game is over".into()));
        }
        match &mut self.inner {
            Inner::Spanish(game) => spanish::play_text(game, text),
            Inner::Chinese(game) => chinese::play_text(game, text),
        }
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        match &self.inner {
            Inner::Spanish(_) => 2,
            Inner::Chinese(game) => game.players(),
        }
    }

    /// The player to move (0-based), `None` when the game is over.
    pub fn to_move(&self) -> Option<usize> {
        if self.is_over() {
            return None;
        }
        match &self.inner {
            Inner::Spanish(game) => Some(spanish::player_to_move(game)),
            Inner::Chinese(game) => game.to_move(),
        }
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.forced_places.is_some()
            || match &self.inner {
                Inner::Spanish(game) => game.status().is_over(),
                Inner::Chinese(game) => game.is_over(),
            }
    }

    /// The final place of every player (1-based, equal for ties), once the
    /// game is over.
    pub fn places(&self) -> Option<Vec<u32>> {
        if let Some(places) = &self.forced_places {
            return Some(places.clone());
        }
        match &self.inner {
            Inner::Spanish(game) => spanish::places(game),
            Inner::Chinese(game) => chinese::places(game),
        }
    }

    /// Why the game ended, in words.
    pub fn end_reason(&self) -> Option<String> {
        if self.forced_places.is_some() {
            return Some("decided by the referee".into());
        }
        match &self.inner {
            Inner::Spanish(game) => spanish::end_reason(game),
            Inner::Chinese(game) => chinese::end_reason(game),
        }
    }

    /// `p1win`, `p2win`, …, `draw`, or `none` while the game goes on.
    pub fn result_text(&self) -> String {
        let Some(places) = self.places() else {
            return "none".into();
        };
        let firsts: Vec<usize> = (0..places.len()).filter(|&p| places[p] == 1).collect();
        match firsts.as_slice() {
            [winner] => format!("p{}win", winner + 1),
            _ => "draw".into(),
        }
    }

    /// Places decided so far, best first, as `place:player` (`1:p2 2:p1`;
    /// ties share a place, `1:p1 1:p2`); `none` when no place is decided.
    pub fn ranking_text(&self) -> String {
        let places: Vec<Option<u32>> = match self.places() {
            Some(places) => places.into_iter().map(Some).collect(),
            None => match &self.inner {
                Inner::Spanish(_) => vec![None, None],
                Inner::Chinese(game) => chinese::partial_places(game),
            },
        };
        let mut ranked: Vec<(u32, usize)> = places
            .iter()
            .enumerate()
            .filter_map(|(player, place)| place.map(|place| (place, player)))
            .collect();
        if ranked.is_empty() {
            return "none".into();
        }
        ranked.sort_unstable();
        ranked
            .iter()
            .map(|(place, player)| format!("{place}:p{}", player + 1))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Every legal move of the player to move, in canonical text. A forced
    /// pass in Chinese checkers is listed as `pass`.
    pub fn legal_moves_text(&self) -> Vec<String> {
        if self.is_over() {
            return Vec::new();
        }
        match &self.inner {
            Inner::Spanish(game) => spanish::legal_moves_text(game, None),
            Inner::Chinese(game) => chinese::legal_moves_text(game, None),
        }
    }

    /// The legal moves of the piece on one square or cell.
    pub fn moves_from_text(&self, square: &str) -> Result<Vec<String>, GameError> {
        let moves = match &self.inner {
            Inner::Spanish(game) => {
                spanish::legal_moves_text(game, Some(spanish::parse_square(square)?))
            }
            Inner::Chinese(game) => {
                chinese::legal_moves_text(game, Some(chinese::parse_cell(square)?))
            }
        };
        Ok(if self.is_over() { Vec::new() } else { moves })
    }

    /// The position text of the current position.
    pub fn position_text(&self) -> String {
        match &self.inner {
            Inner::Spanish(game) => game.position().to_fen(),
            Inner::Chinese(game) => game.to_text(),
        }
    }

    /// Zobrist hash of the current position.
    pub fn hash(&self) -> u64 {
        match &self.inner {
            Inner::Spanish(game) => game.position().hash(),
            Inner::Chinese(game) => game.hash(),
        }
    }

    /// What `d` shows: diagram, position text, hash, player to move and the
    /// result so far.
    pub fn display(&self) -> String {
        let diagram = match &self.inner {
            Inner::Spanish(game) => game.position().diagram(),
            Inner::Chinese(game) => game.diagram(),
        };
        let turn = self
            .to_move()
            .map_or_else(|| "none".to_string(), |p| format!("p{}", p + 1));
        format!(
            "{diagram}\nposition {}\nhash {:016x}\nturn {turn}\nresult {} (ranking {})",
            self.position_text(),
            self.hash(),
            self.result_text(),
            self.ranking_text()
        )
    }

    /// Which player a diagram character stands for, for colouring.
    pub fn player_of_symbol(&self, symbol: char) -> Option<usize> {
        match &self.inner {
            Inner::Spanish(_) => match symbol {
                'w' | 'W' => Some(0),
                'b' | 'B' => Some(1),
                _ => None,
            },
            Inner::Chinese(_) => match symbol {
                '1'..='6' => Some(symbol as usize - '1' as usize),
                'A'..='F' => Some(symbol as usize - 'A' as usize),
                _ => None,
            },
        }
    }

    /// The referee's ruling that `player` loses: with two players the rival
    /// wins; with more, the player resigns (last free place).
    pub fn forfeit(&mut self, player: usize) {
        if self.is_over() {
            return;
        }
        match &mut self.inner {
            Inner::Spanish(_) => {
                let mut places = vec![1, 1];
                places[player.min(1)] = 2;
                self.forced_places = Some(places);
            }
            Inner::Chinese(game) => {
                if game.resign(player).is_err() {
                    // Not playing any more: nothing to forfeit.
                }
            }
        }
    }

    /// The referee's ruling that the game is drawn among the players still
    /// in it (its own cap on length).
    pub fn adjudicate_draw(&mut self) {
        if self.is_over() {
            return;
        }
        let places = match &self.inner {
            Inner::Spanish(_) => vec![1, 1],
            Inner::Chinese(game) => chinese::draw_places(game),
        };
        self.forced_places = Some(places);
    }

    /// Leaf count of the move tree to `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        match &self.inner {
            Inner::Spanish(game) => damas::spanish::perft(game.position(), depth),
            Inner::Chinese(game) => damas::chinese::perft(game.position(), depth),
        }
    }

    /// The same, in parallel over `threads` threads.
    pub fn perft_parallel(&self, depth: u32, threads: usize) -> u64 {
        match &self.inner {
            Inner::Spanish(game) => damas::spanish::perft_parallel(game.position(), depth, threads),
            Inner::Chinese(game) => damas::chinese::perft_parallel(game.position(), depth, threads),
        }
    }

    /// Leaf counts per root move, in move text.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        match &self.inner {
            Inner::Spanish(game) => damas::spanish::divide(game.position(), depth)
                .into_iter()
                .map(|(mv, n)| (game.position().move_text(&mv), n))
                .collect(),
            Inner::Chinese(game) => damas::chinese::divide(game.position(), depth)
                .into_iter()
                .map(|(mv, n)| (mv.map_or_else(|| "pass".to_string(), |m| m.to_string()), n))
                .collect(),
        }
    }

    /// Searches the position for the player to move and returns the move to
    /// play (`None` when the game is over or there is no move; `pass` for a
    /// forced pass).
    pub fn search(
        &self,
        limits: &SearchLimits,
        context: &SearchContext,
        config: &SearchConfig,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<String> {
        if self.is_over() {
            return None;
        }
        match &self.inner {
            Inner::Spanish(game) => {
                spanish::search(game, limits, &context.spanish, config, stop, on_info)
            }
            Inner::Chinese(game) => chinese::search(game, limits, config, stop, on_info),
        }
    }
}

/// Search settings that come from the options rather than from `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// `Threads`.
    pub threads: usize,
    /// `BeamWidth`.
    pub beam_width: usize,
    /// `Style`.
    pub style: Style,
}

impl SearchConfig {
    /// The settings of the options.
    pub fn from_options(options: &Options) -> SearchConfig {
        SearchConfig {
            threads: options.threads,
            beam_width: options.beam_width,
            style: options.style,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chinese(players: &str) -> Options {
        let mut options = Options::default();
        options.set("Game", "chinese").expect("valid");
        options.set("Players", players).expect("valid");
        options
    }

    #[test]
    fn short_chinese_text_takes_the_rules_from_the_options() {
        let mut options = chinese("2");
        options.set("AntiBlocking", "false").expect("valid");
        options.set("MoveLimit", "0").expect("valid");
        let game = GameState::from_text(&options, "I2 1 e9/f9,h9").expect("valid text");
        let text = game.position_text();
        assert!(text.contains("anti=0"), "{text}");
        assert!(text.contains("limit=-"), "{text}");
        // A field in the text wins over the option.
        let game = GameState::from_text(&options, "I2 1 e9/f9,h9 anti=1").expect("valid text");
        assert!(game.position_text().contains("anti=1"));
    }

    #[test]
    fn ranking_and_result_texts() {
        let mut game = GameState::new(&chinese("3"), 0);
        assert_eq!(game.ranking_text(), "none");
        assert_eq!(game.result_text(), "none");
        game.play_text("resign").expect("p1 may resign");
        assert_eq!(game.ranking_text(), "3:p1");
        game.adjudicate_draw();
        assert_eq!(game.places(), Some(vec![3, 1, 1]));
        assert_eq!(game.ranking_text(), "1:p2 1:p3 3:p1");
        assert_eq!(game.result_text(), "draw");

        let mut draughts = GameState::new(&Options::default(), 0);
        draughts.forfeit(1);
        assert_eq!(draughts.result_text(), "p1win");
        assert_eq!(draughts.ranking_text(), "1:p1 2:p2");
        assert!(draughts.play_text("11-15").is_err());
    }

    #[test]
    fn moves_of_one_piece_and_bad_squares() {
        let game = GameState::new(&Options::default(), 0);
        let mut from_11 = game.moves_from_text("11").expect("square");
        from_11.sort();
        assert_eq!(from_11, vec!["11-14", "11-15"]);
        assert!(game.moves_from_text("1").expect("square").is_empty());
        assert!(game.moves_from_text("33").is_err());
        assert!(game.moves_from_text("x").is_err());
        let star = GameState::new(&chinese("2"), 0);
        assert!(star.moves_from_text("z99").is_err());
        let all = star.legal_moves_text();
        assert_eq!(all.len(), 14);
    }

    #[test]
    fn japanese_with_four_players_warns() {
        let mut options = chinese("4");
        options.set("Game", "japanese").expect("valid");
        options.set("Players", "4").expect("valid");
        let game = GameState::new(&options, 0);
        assert!(game.rules_warning().is_some());
        assert!(GameState::new(&chinese("3"), 0).rules_warning().is_none());
    }
}
