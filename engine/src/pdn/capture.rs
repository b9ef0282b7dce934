//! Captures written as their landing squares (`6x13x22`, each hop's
//! square in turn), as some programs write long captures.

use crate::game::Game;
use crate::spanish::{self, fits_landings, Draughts, Square};

/// The one legal capture whose hops land on the squares of `text`
/// (`from x l1 x l2 ... x to`), if exactly one fits.
pub(super) fn by_landings(game: &Draughts, text: &str) -> Option<spanish::Move> {
    let squares: Vec<Square> = text
        .split('x')
        .map(|part| part.trim().parse::<u8>().ok().and_then(Square::new))
        .collect::<Option<_>>()?;
    if squares.len() < 3 {
        return None;
    }
    let mut fitting = game
        .legal_moves()
        .into_iter()
        .filter(|mv| fits_landings(mv, &squares));
    let first = fitting.next()?;
    fitting.next().is_none().then_some(first)
}
