//! Precomputed board geometry: row masks for shift-based man moves,
//! neighbours and jump targets per direction, and diagonal rays for the
//! flying king. Everything is computed at compile time.
//!
//! Bit `b` (square number `b + 1`) lies on row `b / 4`; within a row the
//! index `b % 4` runs right to left. Even rows start on file h, odd rows on
//! file g. One diagonal step changes the bit index by 3, 4 or 5 depending on
//! the row parity, which the masks below encode.

/// Rows 1, 3, 5, 7 (even row index).
pub(crate) const EVEN_ROWS: u32 = 0x0F0F_0F0F;
/// Rows 2, 4, 6, 8 (odd row index).
pub(crate) const ODD_ROWS: u32 = 0xF0F0_F0F0;
/// Even rows without their file-h square.
pub(crate) const EVEN_NOT_RIGHT: u32 = 0x0E0E_0E0E;
/// Odd rows without their file-a square.
pub(crate) const ODD_NOT_LEFT: u32 = 0x7070_7070;
/// Row 1 (White's back row, Black's promotion row).
pub(crate) const ROW_1: u32 = 0x0000_000F;
/// Row 8 (Black's back row, White's promotion row).
pub(crate) const ROW_8: u32 = 0xF000_0000;

/// Direction indices: up means towards Black (increasing bit index).
pub(crate) const UL: usize = 0;
/// Up and right.
pub(crate) const UR: usize = 1;
/// Down and left.
pub(crate) const DL: usize = 2;
/// Down and right.
pub(crate) const DR: usize = 3;

/// One step up-left for every square of `x`.
#[inline(always)]
pub(crate) const fn up_left(x: u32) -> u32 {
    ((x & EVEN_ROWS) << 4) | ((x & ODD_NOT_LEFT) << 5)
}
/// One step up-right.
#[inline(always)]
pub(crate) const fn up_right(x: u32) -> u32 {
    ((x & EVEN_NOT_RIGHT) << 3) | ((x & ODD_ROWS) << 4)
}
/// One step down-left.
#[inline(always)]
pub(crate) const fn down_left(x: u32) -> u32 {
    ((x & EVEN_ROWS) >> 4) | ((x & ODD_NOT_LEFT) >> 3)
}
/// One step down-right.
#[inline(always)]
pub(crate) const fn down_right(x: u32) -> u32 {
    ((x & EVEN_NOT_RIGHT) >> 5) | ((x & ODD_ROWS) >> 4)
}

/// Marker for "no square" in the `u8` tables.
pub(crate) const NONE: u8 = 255;

const DELTAS: [(i32, i32); 4] = [(-1, 1), (1, 1), (-1, -1), (1, -1)];

const fn coords(b: usize) -> (i32, i32) {
    let r = (b / 4) as i32;
    let i = (b % 4) as i32;
    let f = if r % 2 == 0 { 7 - 2 * i } else { 6 - 2 * i };
    (f, r)
}

const fn index_of(f: i32, r: i32) -> u8 {
    if f < 0 || f > 7 || r < 0 || r > 7 || (f + r) % 2 == 0 {
        return NONE;
    }
    let i = if r % 2 == 0 { (7 - f) / 2 } else { (6 - f) / 2 };
    (r * 4 + i) as u8
}

/// The square `steps` diagonal steps away in each direction (1: the
/// neighbour, 2: the landing square of a man's jump), or `NONE`.
const fn build_steps(steps: i32) -> [[u8; 32]; 4] {
    let mut t = [[NONE; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut b = 0;
        while b < 32 {
            let (f, r) = coords(b);
            t[d][b] = index_of(f + steps * DELTAS[d].0, r + steps * DELTAS[d].1);
            b += 1;
        }
        d += 1;
    }
    t
}

const fn build_rays() -> [[u32; 32]; 4] {
    let mut t = [[0u32; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut b = 0;
        while b < 32 {
            let (mut f, mut r) = coords(b);
            let mut ray = 0u32;
            loop {
                f += DELTAS[d].0;
                r += DELTAS[d].1;
                let s = index_of(f, r);
                if s == NONE {
                    break;
                }
                ray |= 1 << s;
            }
            t[d][b] = ray;
            b += 1;
        }
        d += 1;
    }
    t
}

/// `NEIGH[d][b]`: the square one step from `b` in direction `d`, or [`NONE`].
pub(crate) static NEIGH: [[u8; 32]; 4] = build_steps(1);
/// `JUMP[d][b]`: the square two steps from `b` in direction `d`, or [`NONE`].
pub(crate) static JUMP: [[u8; 32]; 4] = build_steps(2);
/// `RAY[d][b]`: every square from `b` (exclusive) to the edge in direction `d`.
pub(crate) static RAY: [[u32; 32]; 4] = build_rays();

/// The nearest square of `set` (a subset of a ray in direction `d`) to the
/// ray's origin. `set` must be non-empty.
#[inline(always)]
pub(crate) const fn nearest(d: usize, set: u32) -> usize {
    if d < 2 {
        set.trailing_zeros() as usize
    } else {
        31 - set.leading_zeros() as usize
    }
}

/// Squares a sliding piece on `b` reaches in direction `d` before the first
/// occupied square of `occ`.
#[inline(always)]
pub(crate) fn slide(d: usize, b: usize, occ: u32) -> u32 {
    let ray = RAY[d][b];
    let blockers = ray & occ;
    if blockers == 0 {
        ray
    } else {
        let s = nearest(d, blockers);
        ray & !(RAY[d][s] | (1 << s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn shifts_agree_with_tables() {
        let fns: [fn(u32) -> u32; 4] = [up_left, up_right, down_left, down_right];
        for (d, f) in fns.iter().enumerate() {
            for b in 0..32 {
                let got = f(1 << b);
                let want = if NEIGH[d][b] == NONE {
                    0
                } else {
                    1 << NEIGH[d][b]
                };
                assert_eq!(got, want, "dir {d} square {}", b + 1);
            }
        }
    }

    #[test]
    fn corner_geometry() {
        // Square 1 (h1) goes up-left to 5 (g2); square 32 (a8) is a corner.
        assert_eq!(NEIGH[UL][0], 4);
        assert_eq!(NEIGH[UR][0], NONE);
        assert_eq!(RAY[DR][31].count_ones(), 7);
        assert_eq!(RAY[UL][0].count_ones(), 7); // h1-a8, the long diagonal
        assert_eq!(RAY[UR][0], 0);
        assert_eq!(JUMP[UL][0], 9); // h1 over g2 to f3
        assert_eq!(JUMP[UR][9], 16); // f3 over g4 to h5
        assert_eq!(JUMP[UR][8], NONE);
    }
}
