//! The 121-point star: cells, coordinates, names, directions, triangles,
//! camps, sets of cells and the precomputed tables the move generator uses.
//!
//! # Coordinates
//!
//! Every point sits on a 17×17 rhombus of axial coordinates: a *file*
//! `x` in `0..17` (letters `a`..`q`) and a *rank* `y` in `0..17` (numbers
//! `1`..`17`). The six neighbours of `(x, y)` are `(x±1, y)`, `(x, y±1)`,
//! `(x+1, y+1)` and `(x-1, y-1)`. With `a = x-8`, `b = y-8`, a point is on
//! the star when it lies in one of the two big triangles
//! `a ≥ -4, b ≤ 4, a-b ≤ 4` or `a ≤ 4, b ≥ -4, a-b ≥ -4`.
//!
//! Cells are numbered `0..121` rank by rank from the bottom, files
//! ascending within a rank: cell 0 is `e1` (the bottom tip), cell 120 is
//! `m17` (the top tip). Bit `i` of a [`Mask`] is cell `i`.

mod cell;
mod mask;
mod tables;
mod triangle;

pub use cell::{Cell, CellParseError};
pub use mask::{Mask, MaskIter};
pub use tables::CELLS;
pub(crate) use tables::{GEO, NONE};
pub use triangle::{Dir, Triangle};

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    #[test]
    fn names_and_tables() {
        assert_eq!(Cell::from_index(0).unwrap().name(), "e1");
        assert_eq!(Cell::from_index(120).unwrap().name(), "m17");
        assert_eq!(Triangle::South.tip().name(), "e1");
        assert_eq!(Triangle::SouthWest.tip().name(), "a5");
        assert_eq!(Triangle::NorthWest.tip().name(), "e13");
        assert_eq!(Triangle::North.tip().name(), "m17");
        assert_eq!(Triangle::NorthEast.tip().name(), "q13");
        assert_eq!(Triangle::SouthEast.tip().name(), "m5");
        for t in Triangle::ALL {
            assert_eq!(t.cells().count(), 10);
            assert_eq!(t.camp().count(), 15);
            assert!(t.camp().contains(t.tip()));
        }
        for c in Cell::all() {
            assert_eq!(c.name().parse::<Cell>().unwrap(), c);
        }
    }

    /// The hexagonal distance to the nearest goal point is the true
    /// shortest number of steps on the star (breadth-first search).
    #[test]
    fn distances_are_shortest_paths() {
        for t in Triangle::ALL {
            for camp in [false, true] {
                let goal = if camp { t.camp() } else { t.cells() };
                let mut dist = [u8::MAX; CELLS];
                let mut queue: VecDeque<Cell> = goal.iter().collect();
                for c in goal {
                    dist[c.index()] = 0;
                }
                while let Some(c) = queue.pop_front() {
                    for n in c.neighbours() {
                        if dist[n.index()] == u8::MAX {
                            dist[n.index()] = dist[c.index()] + 1;
                            queue.push_back(n);
                        }
                    }
                }
                assert_eq!(&dist, Cell::distance_table(t, camp));
            }
        }
        assert_eq!(Triangle::South.tip().distance_to(Triangle::North), 13);
    }
}
