//! Zobrist keys, generated at compile time with SplitMix64.

use crate::random::splitmix;

const fn build() -> ([[u64; 32]; 4], u64) {
    let mut keys = [[0u64; 32]; 4];
    let mut state = 0x0005_EEDD_A4A5_u64;
    let mut k = 0;
    while k < 4 {
        let mut s = 0;
        while s < 32 {
            let (ns, v) = splitmix(state);
            state = ns;
            keys[k][s] = v;
            s += 1;
        }
        k += 1;
    }
    let (_, side) = splitmix(state);
    (keys, side)
}

const BUILT: ([[u64; 32]; 4], u64) = build();

/// `PIECE[kind][square]` with kind 0 white man, 1 white king, 2 black man,
/// 3 black king.
pub(crate) static PIECE: [[u64; 32]; 4] = BUILT.0;
/// XORed in when Black is to move.
pub(crate) const SIDE: u64 = BUILT.1;

/// Kind index for the tables: `2 * colour + is_king`.
#[inline(always)]
pub(crate) const fn kind(black: bool, king: bool) -> usize {
    (black as usize) * 2 + king as usize
}
