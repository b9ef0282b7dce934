//! Directions of the lattice and the six triangles of the star, with the
//! cell queries that need them.

use super::cell::Cell;
use super::mask::Mask;
use super::tables::{CELLS, DELTAS, GEO, NONE};

/// One of the six directions of the hexagonal lattice.
///
/// On the printed board (rank 17 at the top) `E`/`W` run along a rank,
/// `NE`/`NW` go one rank up, `SW`/`SE` one rank down.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dir {
    /// `(x+1, y)`: to the right along the rank.
    E = 0,
    /// `(x+1, y+1)`: up and to the right.
    NE = 1,
    /// `(x, y+1)`: up and to the left.
    NW = 2,
    /// `(x-1, y)`: to the left along the rank.
    W = 3,
    /// `(x-1, y-1)`: down and to the left.
    SW = 4,
    /// `(x, y-1)`: down and to the right.
    SE = 5,
}

impl Dir {
    /// The six directions, in index order (opposite of `d` is `(d+3) % 6`).
    pub const ALL: [Dir; 6] = [Dir::E, Dir::NE, Dir::NW, Dir::W, Dir::SW, Dir::SE];

    /// `(dx, dy)` in axial coordinates.
    pub const fn delta(self) -> (i32, i32) {
        DELTAS[self as usize]
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 3) % 6]
    }
}

/// One of the six triangular points of the star, clockwise from the bottom.
///
/// A player's seat is a triangle; the goal is the opposite one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Triangle {
    /// Bottom point, tip `e1`.
    South = 0,
    /// Lower-left point, tip `a5`.
    SouthWest = 1,
    /// Upper-left point, tip `e13`.
    NorthWest = 2,
    /// Top point, tip `m17`.
    North = 3,
    /// Upper-right point, tip `q13`.
    NorthEast = 4,
    /// Lower-right point, tip `m5`.
    SouthEast = 5,
}

impl Triangle {
    /// The six triangles in clockwise order from the bottom.
    pub const ALL: [Triangle; 6] = [
        Triangle::South,
        Triangle::SouthWest,
        Triangle::NorthWest,
        Triangle::North,
        Triangle::NorthEast,
        Triangle::SouthEast,
    ];

    /// Index `0..6` (clockwise from the bottom).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The triangle with this index, if `i < 6`.
    pub const fn from_index(i: usize) -> Option<Triangle> {
        if i < 6 {
            Some(Triangle::ALL[i])
        } else {
            None
        }
    }

    /// The opposite triangle (the goal of a player seated here).
    pub const fn opposite(self) -> Triangle {
        Triangle::ALL[(self as usize + 3) % 6]
    }

    /// The ten points of this triangle.
    pub fn cells(self) -> Mask {
        Mask(GEO.triangles[self as usize])
    }

    /// The 15-point camp of the Japanese variant: the triangle plus the five
    /// points of the hexagon edge next to it.
    pub fn camp(self) -> Mask {
        Mask(GEO.camps[self as usize])
    }

    /// The tip of the triangle (where the Japanese king starts).
    pub fn tip(self) -> Cell {
        Cell::from_u8(GEO.tips[self as usize])
    }
}

impl Cell {
    /// The neighbour in direction `d`, if it is on the star.
    pub fn neighbour(self, d: Dir) -> Option<Cell> {
        let n = GEO.nbr[self.index()][d as usize];
        if n == NONE {
            None
        } else {
            Some(Cell::from_u8(n))
        }
    }

    /// Step distance from this cell to the nearest cell of `goal`'s ten-point
    /// triangle. Stepping on the star between these cells never needs a
    /// detour, so this is also the fewest steps to reach the goal.
    pub fn distance_to(self, goal: Triangle) -> u8 {
        GEO.dist[goal as usize][self.index()]
    }

    /// Step distance to the nearest cell of `goal`'s 15-point Japanese camp.
    pub fn distance_to_camp(self, goal: Triangle) -> u8 {
        GEO.camp_dist[goal as usize][self.index()]
    }

    /// The table behind [`Cell::distance_to`] (or, with `camp`,
    /// [`Cell::distance_to_camp`]): the step distance of every cell, by
    /// index, to the nearest point of `goal`.
    pub fn distance_table(goal: Triangle, camp: bool) -> &'static [u8; CELLS] {
        if camp {
            &GEO.camp_dist[goal as usize]
        } else {
            &GEO.dist[goal as usize]
        }
    }

    /// The ten-point triangle this cell belongs to, if any (hexagon cells
    /// belong to none).
    pub fn triangle(self) -> Option<Triangle> {
        Triangle::ALL.into_iter().find(|t| t.cells().contains(self))
    }
}
