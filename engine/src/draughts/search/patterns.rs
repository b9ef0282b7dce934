//! The pattern evaluation: a weight for every arrangement of men in nine
//! overlapping windows of the board, added to the features' sum.
//!
//! A window is 4 rows × 4 files, 8 dark squares: rows 0–3, 2–5 or 4–7
//! and files e–h, c–f or a–d, so that every square lies in one to four
//! windows and every neighbourhood of two rows lies whole in one. Each
//! square is empty, a man of the side whose view it is, or an opponent's
//! man: 3⁸ = 6561 configurations per window. Kings count as empty; the
//! king features (`features.rs`) value them.
//!
//! One table serves both colours: White's configurations are read on the
//! board as it is, Black's on the board turned 180° with the colours
//! swapped (its own view, its back row at the bottom), and the score is
//! White's weights minus Black's, as every feature is White's count minus
//! Black's. Each weight has a middle-game and an ending value,
//! interpolated with the features' sum.
//!
//! The index of a window is two table look-ups: its 8 squares of each
//! side are gathered into a byte (a shift, a mask and two folds; the
//! squares of a window are the same two bit positions of four
//! consecutive rows), and a byte's base-3 value is read from a 256-entry
//! table. No allocation; the weights are read once from the file the
//! engine embeds (`pattern_file.rs`).

use std::sync::LazyLock;

use super::pattern_file::{PatternWeights, CONFIGS, WINDOWS};

/// The embedded weights (`damas tune --patterns` writes the file).
const DATA: &[u8] = include_bytes!("../../../data/spanish_patterns.bin");

/// The shift that brings a window's lowest row and file pair to bit 0:
/// row `2·(w / 3)`, bit pair `w % 3` within the row (pair 0 = files e–h).
const SHIFTS: [u32; WINDOWS] = [0, 1, 2, 8, 9, 10, 16, 17, 18];

/// `POW3[b]`: the byte `b` read in base 3 (bit `i` worth `3^i`).
const POW3: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < 8 {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The 8 squares of the window at `shift` of `x`, as a byte: bits 0–1
/// the window's first row, 2–3 the second, and so on.
#[inline(always)]
fn window_byte(x: u32, shift: u32) -> usize {
    let y = (x >> shift) & 0x3333;
    let z = (y | (y >> 2)) & 0x0F0F;
    ((z | (z >> 4)) & 0xFF) as usize
}

/// The configuration of every window from the side whose men are `own`
/// (its back row at row 0), against the men `opp`: `own` squares weigh
/// `3^i`, `opp` squares `2·3^i`.
#[inline(always)]
fn side_indices(own: u32, opp: u32) -> [u16; WINDOWS] {
    let mut out = [0u16; WINDOWS];
    for (w, index) in out.iter_mut().enumerate() {
        *index = POW3[window_byte(own, SHIFTS[w])] + 2 * POW3[window_byte(opp, SHIFTS[w])];
    }
    out
}

/// The window configurations of a position for each side, in its own
/// view (the tuner's view of the patterns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternIndices {
    /// White's configuration of each window, below [`CONFIGS`].
    pub white: [u16; WINDOWS],
    /// Black's, on the board turned 180° with the colours swapped.
    pub black: [u16; WINDOWS],
}

/// The window configurations of the men `white_men` and `black_men`.
#[inline(always)]
pub(crate) fn indices(white_men: u32, black_men: u32) -> PatternIndices {
    PatternIndices {
        white: side_indices(white_men, black_men),
        // Turning the board maps bit b to bit 31 − b.
        black: side_indices(black_men.reverse_bits(), white_men.reverse_bits()),
    }
}

/// The weights as the evaluation reads them.
pub(crate) struct Table {
    /// `(middle game, ending)` per window and configuration, window-major.
    weights: Box<[[i16; 2]]>,
    /// False when every weight is zero: the evaluation skips the patterns
    /// (and so keeps its speed and its exact scores).
    pub active: bool,
}

impl Table {
    /// The table of `weights`.
    pub fn new(weights: &PatternWeights) -> Table {
        Table {
            weights: weights.pairs().into(),
            active: !weights.is_zero(),
        }
    }

    /// White's pattern score minus Black's: `(middle game, ending)`.
    #[inline(always)]
    pub fn sum(&self, white_men: u32, black_men: u32) -> (i32, i32) {
        let PatternIndices { white, black } = indices(white_men, black_men);
        let (mut middle, mut ending) = (0i32, 0i32);
        for w in 0..WINDOWS {
            let own = self.weights[w * CONFIGS + usize::from(white[w])];
            let opp = self.weights[w * CONFIGS + usize::from(black[w])];
            middle += i32::from(own[0]) - i32::from(opp[0]);
            ending += i32::from(own[1]) - i32::from(opp[1]);
        }
        (middle, ending)
    }
}

/// The weights of the embedded file, read on first use.
pub(crate) static COMPILED: LazyLock<Table> = LazyLock::new(|| Table::new(&compiled()));

/// The embedded weights.
///
/// # Panics
///
/// If the embedded file is not a valid pattern file; a unit test reads it,
/// so a build that passes its tests never does.
pub(crate) fn compiled() -> PatternWeights {
    PatternWeights::from_bytes(DATA)
        .unwrap_or_else(|err| panic!("engine/data/spanish_patterns.bin: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::Position;

    fn men(fen: &str) -> (u32, u32) {
        let pos = Position::from_fen(fen).expect("valid FEN");
        (pos.white & !pos.kings, pos.black & !pos.kings)
    }

    #[test]
    fn indices_of_a_position() {
        // White men 1, 6, 14 (bits 0, 5, 13), Black men 18, 27 (bits 17,
        // 26) and a Black king on 32, which counts as empty.
        let (w, b) = men("W:W1,6,14:B18,27,K32");
        let i = indices(w, b);
        // Window 0 (rows 0–3, files e–h): White's 1 (row 0, first of the
        // pair: 3⁰), 6 (row 1, second: 3³), 14 (row 3, second: 3⁷).
        assert_eq!(i.white[0], 1 + 27 + 2187);
        // Window 4 (rows 2–5, files c–f): White's 14 (row 3, first of the
        // pair 13–14: 3²) and Black's 18 (row 4, first: 2·3⁴).
        assert_eq!(i.white[4], 9 + 2 * 81);
        // Window 3 (rows 2–5, files e–h): 14 (row 3, second: 3³), 18
        // (row 4, second: 2·3⁵); window 7 (rows 4–7, files c–f): 18 (row
        // 4, first: 2·3⁰), 27 (row 6, second of the pair 25–26: 2·3⁵).
        assert_eq!(i.white, [2215, 738, 0, 513, 171, 0, 6, 488, 162]);
        // Black's view, the board turned: its men on bits 14 and 5,
        // White's on 31, 26 and 18; window 8 (rows 4–7, files a–d) holds
        // White's 18, 26 and 31 (first, first, second of their rows' pairs:
        // 2·3⁰ + 2·3⁴ + 2·3⁷).
        assert_eq!(i.black, [27, 2196, 729, 0, 513, 171, 0, 492, 4538]);
    }

    #[test]
    fn one_table_serves_both_colours() {
        // A position and its mirror (turned 180°, colours swapped): each
        // side sees in the mirror what the other saw.
        let (w, b) = men("W:W1,6,14,15,22:B18,19,27,30");
        let (mw, mb) = (b.reverse_bits(), w.reverse_bits());
        let (i, m) = (indices(w, b), indices(mw, mb));
        assert_eq!((i.white, i.black), (m.black, m.white));
        let pairs = (0..WINDOWS * CONFIGS)
            .map(|k| {
                [
                    (k * 7919 % 201) as i16 - 100,
                    (k * 104_729 % 61) as i16 - 30,
                ]
            })
            .collect();
        let table = Table::new(&PatternWeights::from_pairs(pairs).expect("full"));
        let (middle, ending) = table.sum(w, b);
        assert_eq!(table.sum(mw, mb), (-middle, -ending));
        assert_ne!((middle, ending), (0, 0));
        // The start is its own mirror: nothing.
        let (w, b) = men("W:W1-12:B21-32");
        assert_eq!(table.sum(w, b), (0, 0));
    }

    #[test]
    fn every_index_is_in_range() {
        let i = indices(u32::MAX, 0);
        assert!(i.white.iter().all(|&x| usize::from(x) == (CONFIGS - 1) / 2));
        let i = indices(0, u32::MAX);
        assert!(i.white.iter().all(|&x| usize::from(x) == CONFIGS - 1));
    }

    #[test]
    fn the_embedded_file_reads() {
        let weights = compiled();
        assert_eq!(weights.pairs().len(), WINDOWS * CONFIGS);
        assert_eq!(COMPILED.active, !weights.is_zero());
    }
}
