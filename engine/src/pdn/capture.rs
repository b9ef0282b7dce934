//! Captures written as their landing squares (`6x13x22`, each hop's
//! square in turn), as some programs write long captures.

use crate::game::Game;
use crate::spanish::{self, Draughts, Square};

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
        .filter(|mv| fits_landings(*mv, &squares));
    let first = fitting.next()?;
    fitting.next().is_none().then_some(first)
}

/// Whether `mv` hops along `landings`: each hop runs along one diagonal
/// over exactly one of the captured pieces, and every captured piece is
/// jumped once.
pub(super) fn fits_landings(mv: spanish::Move, landings: &[Square]) -> bool {
    let captured = mv.captured();
    if landings.first() != Some(&mv.from())
        || landings.last() != Some(&mv.to())
        || captured.count() as usize != landings.len() - 1
    {
        return false;
    }
    let mut jumped = spanish::Bitboard::EMPTY;
    for hop in landings.windows(2) {
        let between = squares_between(hop[0], hop[1]);
        let Some(between) = between else {
            return false;
        };
        let taken: Vec<Square> = between
            .into_iter()
            .filter(|sq| captured.contains(*sq))
            .collect();
        let [piece] = taken[..] else {
            return false;
        };
        if jumped.contains(piece) {
            return false;
        }
        jumped.insert(piece);
    }
    jumped == captured
}

/// The squares strictly between two squares of one diagonal, or `None`
/// if they share no diagonal.
fn squares_between(a: Square, b: Square) -> Option<Vec<Square>> {
    let (df, dr) = (
        i16::from(b.file()) - i16::from(a.file()),
        i16::from(b.rank()) - i16::from(a.rank()),
    );
    if df == 0 || df.abs() != dr.abs() {
        return None;
    }
    let steps = df.abs();
    let (sf, sr) = (df.signum(), dr.signum());
    (1..steps)
        .map(|k| {
            let file = u8::try_from(i16::from(a.file()) + sf * k).ok()?;
            let rank = u8::try_from(i16::from(a.rank()) + sr * k).ok()?;
            Square::from_coords(file, rank)
        })
        .collect()
}
