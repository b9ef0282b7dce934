//! TEMPORARY stubs until the rules branch lands (undo, pass, adjudicate).
use super::game::{EndReason, Game, GameError};
use super::rules::Rules;
use super::text::TextError;

impl Game {
    /// stub
    pub fn undo(&mut self) -> bool {
        false
    }
    /// stub
    pub fn pass(&mut self) -> Result<(), GameError> {
        self.play_text("pass").map(|_| ())
    }
    /// stub
    pub fn adjudicate_draw(&mut self) {
        let _ = EndReason::Decided;
    }
    /// stub
    pub fn from_text_with_defaults(text: &str, _defaults: &Rules) -> Result<Game, TextError> {
        Game::from_text(text)
    }
}
