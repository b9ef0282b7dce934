//! The 121-point star: cells, coordinates, names, directions, triangles,
//! camps and the precomputed tables the move generator uses.
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
//! `m17` (the top tip). Bit `i` of a [`Mask`](super::Mask) is cell `i`.

use super::mask::Mask;
use std::fmt;
use std::str::FromStr;

/// Number of points on the star.
pub const CELLS: usize = 121;

/// Marker for "no cell" in the internal byte tables.
pub(crate) const NONE: u8 = 255;

/// A point of the star, by its index `0..121` in the fixed cell order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Cell(u8);

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

const DELTAS: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

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
        Cell(GEO.tips[self as usize])
    }
}

impl Cell {
    /// The cell with index `i`, if `i < 121`.
    pub const fn new(i: usize) -> Option<Cell> {
        if i < CELLS {
            Some(Cell(i as u8))
        } else {
            None
        }
    }

    /// Like [`Cell::new`] for indices known to be valid (crate use).
    #[inline(always)]
    pub(crate) const fn from_u8(i: u8) -> Cell {
        Cell(i)
    }

    /// Index `0..121` in the fixed cell order.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The single-cell mask.
    #[inline(always)]
    pub const fn mask(self) -> Mask {
        Mask(1u128 << self.0)
    }

    /// File `0..17` (`a` = 0).
    pub fn x(self) -> u8 {
        GEO.xs[self.0 as usize]
    }

    /// Rank `0..17` (rank number minus one).
    pub fn y(self) -> u8 {
        GEO.ys[self.0 as usize]
    }

    /// The cell at file `x`, rank `y` (both 0-based), if it is on the star.
    pub fn from_coords(x: i32, y: i32) -> Option<Cell> {
        if !(0..17).contains(&x) || !(0..17).contains(&y) {
            return None;
        }
        let i = GEO.index_of[y as usize][x as usize];
        (i != NONE).then_some(Cell(i))
    }

    /// Every cell, in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }

    /// The neighbour in direction `d`, if it is on the star.
    pub fn neighbour(self, d: Dir) -> Option<Cell> {
        let n = GEO.nbr[self.0 as usize][d as usize];
        if n == NONE {
            None
        } else {
            Some(Cell(n))
        }
    }

    /// All on-star neighbours as a mask.
    pub fn neighbours(self) -> Mask {
        Mask(GEO.nbr_mask[self.0 as usize])
    }

    /// Hexagonal (step) distance between two cells.
    pub fn hex_distance(self, other: Cell) -> u32 {
        hex_dist(
            self.x() as i32,
            self.y() as i32,
            other.x() as i32,
            other.y() as i32,
        )
    }

    /// Step distance from this cell to the nearest cell of `goal`'s ten-point
    /// triangle. Stepping on the star between these cells never needs a
    /// detour, so this is also the fewest steps to reach the goal.
    pub fn distance_to(self, goal: Triangle) -> u8 {
        GEO.dist[goal as usize][self.0 as usize]
    }

    /// Step distance to the nearest cell of `goal`'s 15-point Japanese camp.
    pub fn distance_to_camp(self, goal: Triangle) -> u8 {
        GEO.camp_dist[goal as usize][self.0 as usize]
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

    /// The human name: file letter and rank number, e.g. `e1`.
    pub fn name(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x()) as char, self.y() + 1)
    }
}

/// The error for a string that is not a cell name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a cell of the star: {0:?}")]
pub struct CellParseError(pub String);

impl FromStr for Cell {
    type Err = CellParseError;

    /// Parses `e1`-style names (file `a`..`q`, rank `1`..`17`), any case.
    fn from_str(s: &str) -> Result<Cell, CellParseError> {
        let err = || CellParseError(s.to_string());
        let mut chars = s.chars();
        let f = chars.next().ok_or_else(err)?.to_ascii_lowercase();
        if !f.is_ascii_lowercase() {
            return Err(err());
        }
        let rest = chars.as_str();
        if rest.is_empty() || rest.starts_with('0') || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let r: i32 = rest.parse().map_err(|_| err())?;
        Cell::from_coords(f as i32 - 'a' as i32, r - 1).ok_or_else(err)
    }
}

const fn hex_dist(x1: i32, y1: i32, x2: i32, y2: i32) -> u32 {
    let dx = x1 - x2;
    let dy = y1 - y2;
    let m = if dx.abs() > dy.abs() {
        dx.abs()
    } else {
        dy.abs()
    };
    let d = (dx - dy).abs();
    (if m > d { m } else { d }) as u32
}

const fn on_star(x: i32, y: i32) -> bool {
    if x < 0 || y < 0 || x > 16 || y > 16 {
        return false;
    }
    let a = x - 8;
    let b = y - 8;
    let t1 = a >= -4 && b <= 4 && a - b <= 4;
    let t2 = a <= 4 && b >= -4 && a - b >= -4;
    t1 || t2
}

/// In which triangle (0..6) the point lies, or 6 for the hexagon.
const fn triangle_of(x: i32, y: i32) -> usize {
    let a = x - 8;
    let b = y - 8;
    if b <= -5 {
        0
    } else if a <= -5 {
        1
    } else if a - b <= -5 {
        2
    } else if b >= 5 {
        3
    } else if a >= 5 {
        4
    } else if a - b >= 5 {
        5
    } else {
        6
    }
}

/// Whether the point lies in the 15-point camp of triangle `t`.
const fn in_camp(x: i32, y: i32, t: usize) -> bool {
    let a = x - 8;
    let b = y - 8;
    let t1 = a >= -4 && b <= 4 && a - b <= 4;
    let t2 = a <= 4 && b >= -4 && a - b >= -4;
    match t {
        0 => t1 && b <= -4,
        1 => t2 && a <= -4,
        2 => t1 && a - b <= -4,
        3 => t2 && b >= 4,
        4 => t1 && a >= 4,
        _ => t2 && a - b >= 4,
    }
}

/// Precomputed geometry, built at compile time.
pub(crate) struct Geometry {
    pub xs: [u8; CELLS],
    pub ys: [u8; CELLS],
    pub index_of: [[u8; 17]; 17],
    pub nbr: [[u8; 6]; CELLS],
    pub nbr_mask: [u128; CELLS],
    pub triangles: [u128; 6],
    pub camps: [u128; 6],
    pub tips: [u8; 6],
    pub dist: [[u8; CELLS]; 6],
    pub camp_dist: [[u8; CELLS]; 6],
    /// Jump coset of each cell: `(x % 2) + 2 * (y % 2)`.
    pub coset: [u8; CELLS],
    /// Bit of each cell in its coset grid: `x/2 + 10 * (y/2)`.
    pub cbit: [u8; CELLS],
    /// Cell at each coset-grid bit, or `NONE`.
    pub coset_cell: [[u8; 128]; 4],
    /// Dense mask of each coset.
    pub coset_mask: [u128; 4],
}

const fn build() -> Geometry {
    let mut g = Geometry {
        xs: [0; CELLS],
        ys: [0; CELLS],
        index_of: [[NONE; 17]; 17],
        nbr: [[NONE; 6]; CELLS],
        nbr_mask: [0; CELLS],
        triangles: [0; 6],
        camps: [0; 6],
        tips: [0; 6],
        dist: [[0; CELLS]; 6],
        camp_dist: [[0; CELLS]; 6],
        coset: [0; CELLS],
        cbit: [0; CELLS],
        coset_cell: [[NONE; 128]; 4],
        coset_mask: [0; 4],
    };
    let mut n = 0usize;
    let mut y = 0;
    while y < 17 {
        let mut x = 0;
        while x < 17 {
            if on_star(x, y) {
                g.xs[n] = x as u8;
                g.ys[n] = y as u8;
                g.index_of[y as usize][x as usize] = n as u8;
                n += 1;
            }
            x += 1;
        }
        y += 1;
    }
    assert!(n == CELLS);
    let mut i = 0;
    while i < CELLS {
        let x = g.xs[i] as i32;
        let y = g.ys[i] as i32;
        let mut d = 0;
        while d < 6 {
            let nx = x + DELTAS[d].0;
            let ny = y + DELTAS[d].1;
            if on_star(nx, ny) {
                let j = g.index_of[ny as usize][nx as usize];
                g.nbr[i][d] = j;
                g.nbr_mask[i] |= 1u128 << j;
            }
            d += 1;
        }
        let t = triangle_of(x, y);
        if t < 6 {
            g.triangles[t] |= 1u128 << i;
        }
        let mut t = 0;
        while t < 6 {
            if in_camp(x, y, t) {
                g.camps[t] |= 1u128 << i;
            }
            t += 1;
        }
        let q = (x % 2 + 2 * (y % 2)) as usize;
        let b = (x / 2 + 10 * (y / 2)) as usize;
        g.coset[i] = q as u8;
        g.cbit[i] = b as u8;
        g.coset_cell[q][b] = i as u8;
        g.coset_mask[q] |= 1u128 << i;
        i += 1;
    }
    // Tips: the cell of each triangle farthest from the centre (8, 8).
    let mut t = 0;
    while t < 6 {
        let mut best = 0;
        let mut bd = 0;
        let mut i = 0;
        while i < CELLS {
            if g.triangles[t] & (1u128 << i) != 0 {
                let d = hex_dist(g.xs[i] as i32, g.ys[i] as i32, 8, 8);
                if d > bd {
                    bd = d;
                    best = i;
                }
            }
            i += 1;
        }
        g.tips[t] = best as u8;
        t += 1;
    }
    // Distances to the nearest goal cell (triangle and camp).
    let mut t = 0;
    while t < 6 {
        let mut i = 0;
        while i < CELLS {
            let mut bt = u32::MAX;
            let mut bc = u32::MAX;
            let mut j = 0;
            while j < CELLS {
                let d = hex_dist(
                    g.xs[i] as i32,
                    g.ys[i] as i32,
                    g.xs[j] as i32,
                    g.ys[j] as i32,
                );
                if g.triangles[t] & (1u128 << j) != 0 && d < bt {
                    bt = d;
                }
                if g.camps[t] & (1u128 << j) != 0 && d < bc {
                    bc = d;
                }
                j += 1;
            }
            g.dist[t][i] = bt as u8;
            g.camp_dist[t][i] = bc as u8;
            i += 1;
        }
        t += 1;
    }
    g
}

/// The geometry tables.
pub(crate) static GEO: Geometry = build();

/// Mask of the whole star.
pub const ALL_CELLS: Mask = Mask((1u128 << CELLS) - 1);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_tables() {
        assert_eq!(Cell::new(0).unwrap().name(), "e1");
        assert_eq!(Cell::new(120).unwrap().name(), "m17");
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
                let mut queue: std::collections::VecDeque<Cell> = goal.iter().collect();
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
