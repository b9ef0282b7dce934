//! A text diagram of the star for people.

use super::geometry::Cell;
use super::position::Position;

/// Characters for the pieces of players 1..6 and their kings.
const PIECES: [char; 6] = ['1', '2', '3', '4', '5', '6'];
const KINGS: [char; 6] = ['A', 'B', 'C', 'D', 'E', 'F'];

impl Position {
    /// The board as text, rank 17 at the top: `.` an empty point, `1`..`6`
    /// a piece of that player, `A`..`F` the king of player 1..6. Each line
    /// starts with its rank number; along a line the files go left to right,
    /// and the point up-left of `(x, y)` has the same file `x`.
    ///
    /// ```
    /// use damas::chinese::{Position, Rules};
    /// let d = Position::start(&Rules::default()).diagram();
    /// assert_eq!(d.lines().next().unwrap().trim_end(), "17             2");
    /// ```
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for y in (0..17).rev() {
            let mut line: Vec<char> = vec![' '; 25];
            for x in 0..17 {
                if let Some(c) = Cell::from_coords(x, y) {
                    let col = (2 * x - y + 4) as usize;
                    line[col] = self
                        .piece_at(c)
                        .and_then(|(p, king)| symbol(p, king))
                        .unwrap_or('.');
                }
            }
            let s: String = line.into_iter().collect();
            out += &format!("{:>2} {}\n", y + 1, s.trim_end());
        }
        out
    }
}

/// The character of a piece of player `p` (0-based) in the diagram, a king
/// or not; `None` past the sixth player.
pub(super) fn symbol(p: usize, king: bool) -> Option<char> {
    let symbols = if king { &KINGS } else { &PIECES };
    symbols.get(p).copied()
}
