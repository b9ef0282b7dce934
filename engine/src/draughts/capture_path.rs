//! The path of a capture: the move keeps only its start, its end and the
//! set of pieces taken, so the landing squares in between are found again
//! on the board (for the notation that writes them and for the board's
//! drawing of the move).

use super::{Bitboard, Color, Move, PieceKind, Position, Square};

/// The squares a capture lands on, `from` first, and the captured squares
/// in the order they are taken: the move keeps only the set, so the chain
/// is found again by a search over the board (the pieces taken stay on it
/// until the move ends, and none is jumped twice).
pub(crate) fn capture_path(position: &Position, mv: &Move) -> Option<(Vec<Square>, Vec<Square>)> {
    let piece = position.piece_at(mv.from())?;
    let forward: i8 = if piece.color == Color::White { 1 } else { -1 };
    let all = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
    let directions: &[(i8, i8)] = match piece.kind {
        PieceKind::Man if position.rules().men_capture_backward() => all,
        PieceKind::Man => &[(-1, forward), (1, forward)],
        PieceKind::King => all,
    };
    let chain = Chain {
        blockers: position.occupied() & !Bitboard::from(mv.from()),
        captured: mv.captured(),
        to: mv.to(),
        directions,
        flying: piece.kind == PieceKind::King,
    };
    let mut path = vec![mv.from()];
    let mut taken = Vec::new();
    chain
        .search(mv.from(), &mut path, &mut taken)
        .then_some((path, taken))
}

struct Chain<'a> {
    blockers: Bitboard,
    captured: Bitboard,
    to: Square,
    directions: &'a [(i8, i8)],
    flying: bool,
}

impl Chain<'_> {
    fn step(sq: Square, (dx, dy): (i8, i8)) -> Option<Square> {
        let file = sq.file().checked_add_signed(dx)?;
        let rank = sq.rank().checked_add_signed(dy)?;
        Square::from_coords(file, rank)
    }

    fn search(&self, at: Square, path: &mut Vec<Square>, taken: &mut Vec<Square>) -> bool {
        if taken.len() == self.captured.count() as usize {
            return at == self.to;
        }
        for &dir in self.directions {
            let mut sq = Self::step(at, dir);
            if self.flying {
                while let Some(s) = sq.filter(|&s| !self.blockers.contains(s)) {
                    sq = Self::step(s, dir);
                }
            }
            let Some(victim) = sq else { continue };
            if !self.captured.contains(victim) || taken.contains(&victim) {
                continue;
            }
            let mut landing = Self::step(victim, dir);
            while let Some(land) = landing.filter(|&s| !self.blockers.contains(s)) {
                path.push(land);
                taken.push(victim);
                if self.search(land, path, taken) {
                    return true;
                }
                path.pop();
                taken.pop();
                if !self.flying {
                    break;
                }
                landing = Self::step(land, dir);
            }
        }
        false
    }
}
