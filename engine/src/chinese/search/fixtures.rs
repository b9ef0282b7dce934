//! Positions shared by the search's unit tests.

use super::super::position::Position;
use crate::chinese::{Checkers, Rules};
use crate::Game;

/// The position of `text` under the CCERL rules.
pub(super) fn ccerl(text: &str) -> Position {
    *Checkers::from_text_with_defaults(text, &Rules::ccerl())
        .expect("valid")
        .position()
}

/// The position of `text` under the site rules (the defaults).
pub(super) fn site(text: &str) -> Position {
    *Checkers::from_text_with_defaults(text, &Rules::default())
        .expect("valid")
        .position()
}

/// A 6-player middle game (from a match record).
pub(super) fn middle_game() -> Position {
    let mut game = Checkers::new(Rules::for_players(6));
    for mv in [
        "g4-g5",
        "d5-e6",
        "g13-g11",
        "m14-m13",
        "o12-m12",
        "m7-m9",
        "e3-e5-e7",
        "b5-d5-f7",
        "e13-g13-i13",
        "j14-h12-f10",
        "n10-l8",
        "m5-m7-k7",
    ] {
        game.play_text(mv).expect("legal");
    }
    *game.position()
}
