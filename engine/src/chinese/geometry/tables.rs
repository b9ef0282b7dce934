//! The precomputed tables of the star, built at compile time: coordinates
//! of each cell, neighbours, triangles, camps, distances and the jump cosets.
//! Raw bytes and `u128` bits only, so that this module depends on nothing.

/// Number of points on the star.
pub const CELLS: usize = 121;

/// Marker for "no cell" in the internal byte tables.
pub(crate) const NONE: u8 = 255;

pub(crate) const DELTAS: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

pub(crate) const fn hex_dist(x1: i32, y1: i32, x2: i32, y2: i32) -> u32 {
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
