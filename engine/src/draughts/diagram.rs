//! A plain-text board for humans.

use super::color::{Color, ColoredPiece, PieceKind};
use super::notation::Notation;
use super::position::Position;

impl Position {
    /// The board as seen from White, with the square numbers of each row
    /// beside it: `w`/`b` men, `W`/`B` kings, `.` empty dark squares.
    ///
    /// ```
    /// use damas::spanish::Position;
    /// let d = Position::start().diagram();
    /// assert!(d.lines().any(|l| l.starts_with("8 | b   b   b   b   |  32 31 30 29")));
    /// assert!(d.contains("White to move"));
    /// ```
    pub fn diagram(&self) -> String {
        self.diagram_in(Notation::Numeric)
    }

    /// The board as the players of `notation` see it from White: in the
    /// numeric notation [`Position::diagram`]; in the algebraic one a1 is
    /// the lower-left dark square, the files and rows name the squares and
    /// the position is written in that notation.
    ///
    /// ```
    /// use damas::spanish::{Notation, Position, Variant};
    /// let d = Position::start().diagram_in(Notation::of(Variant::Brazilian));
    /// assert!(d.lines().any(|l| l.starts_with("1 | w   w   w   w   |")));
    /// assert!(d.contains("FEN W:Wa1,c1,e1,g1,"));
    /// ```
    pub fn diagram_in(&self, notation: Notation) -> String {
        let numeric = notation == Notation::Numeric;
        let mut out = String::new();
        out.push_str("    a b c d e f g h\n");
        out.push_str("  +-----------------+\n");
        for rank in (0..8u8).rev() {
            out.push_str(&format!("{} |", rank + 1));
            let mut legend = Vec::new();
            for file in 0..8u8 {
                match notation.square_at(file, rank) {
                    None => out.push_str("  "),
                    Some(sq) => {
                        legend.push(format!("{:>2}", sq.number()));
                        let c = match self.piece_at(sq) {
                            None => '.',
                            Some(piece) => symbol(piece),
                        };
                        out.push(' ');
                        out.push(c);
                    }
                }
            }
            if numeric {
                out.push_str(" |  ");
                out.push_str(&legend.join(" "));
            } else {
                out.push_str(" |");
            }
            out.push('\n');
        }
        out.push_str("  +-----------------+\n");
        out.push_str("    a b c d e f g h\n");
        let side = match self.to_move() {
            Color::White => "White",
            Color::Black => "Black",
        };
        out.push_str(&format!("{side} to move  FEN {}\n", self.fen_in(notation)));
        out
    }
}

/// The character of `piece` in the diagram: `w`/`b` a man, `W`/`B` a king.
pub(super) fn symbol(piece: ColoredPiece) -> char {
    match (piece.color, piece.kind) {
        (Color::White, PieceKind::Man) => 'w',
        (Color::White, PieceKind::King) => 'W',
        (Color::Black, PieceKind::Man) => 'b',
        (Color::Black, PieceKind::King) => 'B',
    }
}
