//! Zobrist keys: one per (player, cell), one more per cell for a king, one
//! per side to move. Built at compile time from a fixed SplitMix64 stream, so
//! hashes are the same in every build and on every machine.

use super::geometry::CELLS;

use crate::random::splitmix;

/// The key tables.
pub(crate) struct Keys {
    /// Piece of player `p` on cell `c`.
    pub piece: [[u64; CELLS]; 6],
    /// Extra key XORed in when the piece on `c` is a king.
    pub king: [u64; CELLS],
    /// Player `p` to move.
    pub side: [u64; 6],
}

const fn build() -> Keys {
    let mut k = Keys {
        piece: [[0; CELLS]; 6],
        king: [0; CELLS],
        side: [0; 6],
    };
    let mut s = 0x4441_4D41_5343_4843u64; // "DAMASCHC"
    let mut p = 0;
    while p < 6 {
        let mut c = 0;
        while c < CELLS {
            let (ns, v) = splitmix(s);
            s = ns;
            k.piece[p][c] = v;
            c += 1;
        }
        let (ns, v) = splitmix(s);
        s = ns;
        k.side[p] = v;
        p += 1;
    }
    let mut c = 0;
    while c < CELLS {
        let (ns, v) = splitmix(s);
        s = ns;
        k.king[c] = v;
        c += 1;
    }
    k
}

/// The keys.
pub(crate) static KEYS: Keys = build();
