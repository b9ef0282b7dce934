//! The path of a capture: the move keeps only its start, its end and the
//! set of pieces taken, so the landing squares in between are found again
//! on the board (for the notation that writes them and for the board's
//! drawing of the move).

use super::{Bitboard, CapturePromotion, Color, Move, PieceKind, Position, Square};

/// The four diagonals, as (file, rank) steps.
const ALL_DIRECTIONS: [(i8, i8); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];

/// The squares a capture lands on, `from` first, and the captured squares
/// in the order they are taken: the move keeps only the set, so the chain
/// is found again by a search over the board (the pieces taken stay on it
/// until the move ends, and none is jumped twice).
///
/// A man captures as the variant's men do: forward only, or backward as
/// well (Brazilian and Russian draughts). On reaching its last row in the
/// middle of a capture it stops there (Spanish draughts), goes on as a man
/// (Brazilian) or is crowned and goes on as a flying king (Russian).
pub(crate) fn capture_path(position: &Position, mv: &Move) -> Option<(Vec<Square>, Vec<Square>)> {
    let piece = position.piece_at(mv.from())?;
    let rules = position.rules();
    let chain = Chain {
        blockers: position.occupied() & !Bitboard::from(mv.from()),
        captured: mv.captured(),
        to: mv.to(),
        forward: if piece.color == Color::White { 1 } else { -1 },
        men_backward: rules.men_capture_backward(),
        promotion: rules.capture_promotion(),
        last_row: piece.color.promotion_row(),
    };
    let mut path = vec![mv.from()];
    let mut taken = Vec::new();
    chain
        .search(
            mv.from(),
            piece.kind == PieceKind::King,
            &mut path,
            &mut taken,
        )
        .then_some((path, taken))
}

struct Chain {
    blockers: Bitboard,
    captured: Bitboard,
    to: Square,
    /// The rank step of the mover's forward direction.
    forward: i8,
    men_backward: bool,
    promotion: CapturePromotion,
    /// The row where the mover's men are crowned.
    last_row: Bitboard,
}

impl Chain {
    fn step(sq: Square, (dx, dy): (i8, i8)) -> Option<Square> {
        let file = sq.file().checked_add_signed(dx)?;
        let rank = sq.rank().checked_add_signed(dy)?;
        Square::from_coords(file, rank)
    }

    /// Goes on from `at` with a king (`king`) or a man, which has taken
    /// `taken` so far along `path`.
    fn search(
        &self,
        at: Square,
        king: bool,
        path: &mut Vec<Square>,
        taken: &mut Vec<Square>,
    ) -> bool {
        if taken.len() == self.captured.count() as usize {
            return at == self.to;
        }
        // A man that reached its last row in the middle of the capture.
        let crowned_here = !king && !taken.is_empty() && self.last_row.contains(at);
        let king = match self.promotion {
            _ if !crowned_here => king,
            CapturePromotion::EndsMove => return false,
            CapturePromotion::ContinuesAsKing => true,
            CapturePromotion::OnlyAtEnd => false,
        };
        let forward_only = [(-1, self.forward), (1, self.forward)];
        let directions: &[(i8, i8)] = if king || self.men_backward {
            &ALL_DIRECTIONS
        } else {
            &forward_only
        };
        for &dir in directions {
            let mut sq = Self::step(at, dir);
            if king {
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
                if self.search(land, king, path, taken) {
                    return true;
                }
                path.pop();
                taken.pop();
                if !king {
                    break;
                }
                landing = Self::step(land, dir);
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::capture_path;
    use crate::draughts::{Position, Rules, Square, Variant};

    fn square(number: u8) -> Square {
        Square::new(number).unwrap()
    }

    /// The path and the captured squares (Spanish numbers) of the legal
    /// capture from `from` to `to` of `fen` (Spanish numbers) in `variant`.
    /// (The same moves in each variant's notation: tests/draughts_notation.rs.)
    fn path_of(variant: Variant, fen: &str, from: u8, to: u8) -> (Vec<u8>, Vec<u8>) {
        let pos = Position::from_fen(fen)
            .unwrap()
            .with_rules(Rules::new(variant).unwrap());
        let moves: Vec<_> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|mv| mv.from() == square(from) && mv.to() == square(to))
            .collect();
        assert_eq!(moves.len(), 1, "{variant:?} {fen}: {from}x{to}");
        let mv = moves[0];
        let (path, taken) = capture_path(&pos, &mv).expect("a path");
        let numbers = |squares: Vec<Square>| squares.into_iter().map(Square::number).collect();
        (numbers(path), numbers(taken))
    }

    #[test]
    fn a_russian_man_captures_backward_then_forward() {
        // f5 (18) takes e4 (14) backward onto d3 (11), then c4 (15)
        // forward onto b5 (20).
        let (path, taken) = path_of(Variant::Russian, "W:W18:B14,15", 18, 20);
        assert_eq!(path, [18, 11, 20]);
        assert_eq!(taken, [14, 15]);
    }

    #[test]
    fn a_russian_man_crowned_on_the_way_flies_on_as_a_king() {
        // a6 (24) takes b7 (28) onto c8 (31), is crowned, and flies down
        // the diagonal c8-h3 over d7, e6 and f5 to take g4 (13) and land
        // on h3 (9): a king off its last row.
        let pos = Position::from_fen("W:W24:B28,13")
            .unwrap()
            .with_rules(Rules::new(Variant::Russian).unwrap());
        let mv = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|mv| mv.to() == square(9))
            .expect("24x9");
        assert!(mv.crowned_on_the_way());
        let (path, taken) = path_of(Variant::Russian, "W:W24:B28,13", 24, 9);
        assert_eq!(path, [24, 31, 9]);
        assert_eq!(taken, [28, 13]);
        // The rules' own example: c6 (23) over d7 onto e8, then over
        // f7 (empty) to take g6 (21) and land on h5 (17).
        let (path, taken) = path_of(Variant::Russian, "W:W23:B27,21", 23, 17);
        assert_eq!(path, [23, 30, 17]);
        assert_eq!(taken, [27, 21]);
        // A Black man likewise on row 1: b3 (12) takes c2 (7) onto d1 (3),
        // is crowned, and flies up d1-h5 over e2 to take f3 (10) and land
        // on h5 (17) (g4 being the other end).
        let (path, taken) = path_of(Variant::Russian, "B:W7,10:B12", 12, 17);
        assert_eq!(path, [12, 3, 17]);
        assert_eq!(taken, [7, 10]);
    }

    #[test]
    fn a_brazilian_man_captures_backward() {
        // f5 (18) takes e4 (14) backward onto d3 (11).
        let (path, taken) = path_of(Variant::Brazilian, "W:W18:B14", 18, 11);
        assert_eq!(path, [18, 11]);
        assert_eq!(taken, [14]);
        // Through the last row as a man: e6 (22) over d7 onto c8, then
        // back over b7 onto a6 (24), not crowned.
        let (path, taken) = path_of(Variant::Brazilian, "W:W22:B27,28", 22, 24);
        assert_eq!(path, [22, 31, 24]);
        assert_eq!(taken, [27, 28]);
    }

    #[test]
    fn a_spanish_man_captures_forward_only_and_stops_when_crowned() {
        let pos = Position::from_fen("W:W18:B14").unwrap();
        assert!(pos.legal_moves().iter().all(|mv| !mv.is_capture()));
        // e6 (22) over d7 onto c8 (31) is crowned there: the move ends.
        let (path, taken) = path_of(Variant::Spanish, "W:W22:B27,28", 22, 31);
        assert_eq!(path, [22, 31]);
        assert_eq!(taken, [27]);
    }
}
