//! The features of the evaluation: what it counts on the board, each
//! multiplied by a tuned weight (`weights.rs`, written by `damas tune`).
//!
//! Every feature is a count of White's minus the same count of Black's,
//! so the evaluation is linear in its weights: the engine multiplies each
//! count by its weight as it goes ([`Sink`] with the weights), the tuner
//! records the counts ([`Sink`] into an array) and fits the weights by
//! logistic regression on game results. Each weight comes in two phases,
//! the middle game (24 pieces) and the ending (no pieces), interpolated by
//! the number of pieces on the board.
//!
//! A side's counts are taken by one function for both colours, generic
//! over the direction the side plays (as the move generator is), with its
//! rows counted from its own back row, so the evaluation is
//! colour-symmetric (the 180° rotation with the colours swapped).

use crate::draughts::tables::{down_left, down_right, slide, up_left, up_right, DL, DR, UL, UR};
use crate::draughts::Position;

/// Where each feature's weight sits in the weight arrays.
pub(crate) mod index {
    /// A man.
    pub const MAN: usize = 0;
    /// A king.
    pub const KING: usize = 1;
    /// A man on relative row 1..=6 (row 0 is its own back row, row 7 the
    /// promotion row): `ADVANCE + row - 1`.
    pub const ADVANCE: usize = 2;
    /// A man on its own back row while the opponent has no king.
    pub const BACK_GUARD: usize = 8;
    /// A man on one of the four centre squares (14, 15, 18, 19).
    pub const CENTRE: usize = 9;
    /// A man on the a- or h-file.
    pub const EDGE: usize = 10;
    /// An empty square a man can step to.
    pub const MOBILITY_MAN: usize = 11;
    /// A square a king can slide to.
    pub const MOBILITY_KING: usize = 12;
    /// `3 - moves` for a side with at most two moves.
    pub const LOW_MOBILITY: usize = 13;
    /// A man no enemy piece can stop (none in its forward cone, no enemy
    /// king).
    pub const RUNAWAY: usize = 14;
    /// The rows such a runaway man still has to go.
    pub const RUNAWAY_ROWS: usize = 15;
    /// A king on the main diagonal (1-32).
    pub const MAIN_DIAGONAL: usize = 16;
    /// Ahead by two men or more with at most ten pieces: the moves the
    /// losing side lacks below eight.
    pub const DRIVE_MOBILITY: usize = 17;
    /// Same condition: the pieces that have left the board.
    pub const DRIVE_TRADE: usize = 18;
    /// The side to move.
    pub const TEMPO: usize = 19;
    /// Ahead by a man or more: the pieces that have left the board
    /// (trading down when ahead), in every phase.
    pub const EXCHANGE_AHEAD: usize = 20;
    /// The difference between a side's men on the left (files a-d) and on
    /// the right (e-h) half of the board (development balance).
    pub const IMBALANCE: usize = 21;
    /// A man whose two rear squares are held by its own pieces or are off
    /// the board: it cannot be taken from the front (triangles, chains).
    pub const BACKED: usize = 22;
    /// The occupation of a side's own back row by its men, one of 16
    /// patterns (`BACK_PATTERN + bits`, bit 0 = its square 1 seen from its
    /// side): the bridge and the other guards against promotion.
    pub const BACK_PATTERN: usize = 23;
}

/// Number of features (and of weights per phase).
pub const FEATURES: usize = index::BACK_PATTERN + 16;

/// The features' names, in index order (the tuner's report and the
/// generated weight file).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "man",
    "king",
    "advance row 1",
    "advance row 2",
    "advance row 3",
    "advance row 4",
    "advance row 5",
    "advance row 6",
    "back-row guard",
    "centre",
    "edge",
    "man mobility",
    "king mobility",
    "low mobility",
    "runaway",
    "runaway rows to go",
    "king on main diagonal",
    "drive: loser's mobility",
    "drive: trades",
    "tempo",
    "exchange when ahead",
    "wing imbalance",
    "backed man",
    "back row ----",
    "back row 1---",
    "back row -2--",
    "back row 12--",
    "back row --3-",
    "back row 1-3-",
    "back row -23-",
    "back row 123-",
    "back row ---4",
    "back row 1--4",
    "back row -2-4",
    "back row 12-4",
    "back row --34",
    "back row 1-34",
    "back row -234",
    "back row 1234",
];

/// The phase weight of the middle-game weights: the number of pieces on
/// the board, at most this.
pub const PHASE_MAX: i32 = 24;

/// Receives the features of a position, one count at a time.
pub(crate) trait Sink {
    /// Adds `value` to feature `feature`.
    fn add(&mut self, feature: usize, value: i32);
}

/// Collects the counts themselves (the tuner's view).
pub(crate) struct Counts(pub [i32; FEATURES]);

impl Sink for Counts {
    fn add(&mut self, feature: usize, value: i32) {
        self.0[feature] += value;
    }
}

/// The centre squares 14, 15, 18, 19.
const CENTRE_SQ: u32 = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);
/// The a- and h-files.
const EDGE_SQ: u32 =
    (1 << 0) | (1 << 8) | (1 << 16) | (1 << 24) | (1 << 7) | (1 << 15) | (1 << 23) | (1 << 31);
/// The main diagonal h1-a8: squares 1, 5, 10, 14, 19, 23, 28, 32.
const MAIN_DIAG: u32 =
    (1 << 0) | (1 << 4) | (1 << 9) | (1 << 13) | (1 << 18) | (1 << 22) | (1 << 27) | (1 << 31);
/// Files a-d (the two high indices of every row).
const LEFT_HALF: u32 = 0xCCCC_CCCC;
/// Every square.
const BOARD: u32 = u32::MAX;

/// Row `r` (bits `4r..4r+4`).
const fn row(r: u32) -> u32 {
    0xF << (4 * r)
}

#[inline(always)]
pub(crate) fn pc(x: u32) -> i32 {
    x.count_ones() as i32
}

/// One side's pieces.
#[derive(Clone, Copy)]
pub(crate) struct Side {
    pub men: u32,
    pub kings: u32,
}

/// Both sides, White then Black.
#[derive(Clone, Copy)]
pub(crate) struct Sides {
    pub own: [Side; 2],
}

impl Sides {
    pub fn of(pos: &Position) -> Sides {
        let k = pos.kings;
        Sides {
            own: [
                Side {
                    men: pos.white & !k,
                    kings: pos.white & k,
                },
                Side {
                    men: pos.black & !k,
                    kings: pos.black & k,
                },
            ],
        }
    }
}

/// The 4-bit patterns reversed: Black's back row read from its side.
const REVERSED_4: [u8; 16] = [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15];

/// The counts of one side.
#[derive(Clone, Copy, Default)]
struct SideCounts {
    men: i32,
    kings: i32,
    advance: [i32; 6],
    guard: i32,
    centre: i32,
    edge: i32,
    men_moves: i32,
    king_moves: i32,
    runaways: i32,
    runaway_rows: i32,
    diagonal: i32,
    imbalance: i32,
    backed: i32,
    pattern: usize,
}

/// One step forward for the side (`W`: White, which plays up).
#[inline(always)]
fn forward<const W: bool>(x: u32) -> u32 {
    if W {
        up_left(x) | up_right(x)
    } else {
        down_left(x) | down_right(x)
    }
}

/// The side's relative row `r` (0 = its own back row): a mask.
#[inline(always)]
const fn relative_row<const W: bool>(r: u32) -> u32 {
    if W {
        row(r)
    } else {
        row(7 - r)
    }
}

/// The counts of the side `W` (White if true) with pieces `own` against
/// `opp`. The masks of centre, edges, main diagonal and halves map onto
/// themselves when the board turns, so both sides use them as they are.
#[inline(always)]
fn side_counts<const W: bool>(own: Side, opp: Side) -> SideCounts {
    let men = own.men;
    let all = men | own.kings;
    let opp_all = opp.men | opp.kings;
    let occ = all | opp_all;
    // The men of every row at once: each 4-bit row of `rows` holds the
    // number of men in it (half a SWAR popcount; the baseline x86-64 target
    // has no popcount instruction, so every count saved is time).
    let pairs = men - ((men >> 1) & 0x5555_5555);
    let rows = (pairs & 0x3333_3333) + ((pairs >> 2) & 0x3333_3333);
    let row_count = |r: u32| ((rows >> (4 * r)) & 0xF) as i32;
    let mut c = SideCounts {
        men: (((rows + (rows >> 4)) & 0x0F0F_0F0F).wrapping_mul(0x0101_0101) >> 24) as i32,
        kings: pc(own.kings),
        ..SideCounts::default()
    };
    for r in 1..7u32 {
        c.advance[r as usize - 1] = row_count(if W { r } else { 7 - r });
    }
    if opp.kings == 0 {
        c.guard = row_count(if W { 0 } else { 7 });
    }
    c.centre = pc(men & CENTRE_SQ);
    c.edge = pc(men & EDGE_SQ);
    let empty = !occ;
    let (left_steps, right_steps) = if W {
        (up_left(men) & empty, up_right(men) & empty)
    } else {
        (down_left(men) & empty, down_right(men) & empty)
    };
    // Both step sets in one 64-bit count.
    c.men_moves = (u64::from(left_steps) | (u64::from(right_steps) << 32)).count_ones() as i32;
    let mut ks = own.kings;
    while ks != 0 {
        let b = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        c.king_moves +=
            pc(slide(UL, b, occ) | slide(UR, b, occ) | slide(DL, b, occ) | slide(DR, b, occ));
    }
    // Runaway men: only men on the three rows before promotion are
    // examined (the cone test is a short loop).
    if opp.kings == 0 {
        let near = relative_row::<W>(4) | relative_row::<W>(5) | relative_row::<W>(6);
        let mut cand = men & near;
        while cand != 0 {
            let b = cand.trailing_zeros();
            cand &= cand - 1;
            let togo = if W { 7 - b / 4 } else { b / 4 };
            let mut front = 1u32 << b;
            let mut cone = 0u32;
            for _ in 0..togo {
                front = forward::<W>(front);
                cone |= front;
            }
            if cone & opp_all == 0 {
                c.runaways += 1;
                c.runaway_rows += togo as i32;
            }
        }
    }
    c.diagonal = pc(own.kings & MAIN_DIAG);
    let left = pc(men & LEFT_HALF);
    c.imbalance = (2 * left - c.men).abs();
    // A man's rear squares are those from which its neighbours step
    // forward to it: held, or off the board.
    let backed = if W {
        (up_right(all) | !up_right(BOARD)) & (up_left(all) | !up_left(BOARD))
    } else {
        (down_right(all) | !down_right(BOARD)) & (down_left(all) | !down_left(BOARD))
    };
    c.backed = pc(men & backed);
    c.pattern = if W {
        (men & row(0)) as usize
    } else {
        REVERSED_4[(men >> 28) as usize] as usize
    };
    c
}

/// Material in men (a king counts three), the measure of "ahead" in the
/// features that depend on it.
pub(crate) fn men_equivalent(side: Side) -> i32 {
    pc(side.men) + 3 * pc(side.kings)
}

/// Sends every feature of `pos` to `sink`, from White's point of view
/// (the tempo feature is +1 with White to move, −1 with Black): each
/// count once, White's minus Black's.
#[inline(always)]
pub(crate) fn features<S: Sink>(pos: &Position, sides: &Sides, sink: &mut S) {
    let [white, black] = sides.own;
    let w = side_counts::<true>(white, black);
    let b = side_counts::<false>(black, white);
    sink.add(index::MAN, w.men - b.men);
    sink.add(index::KING, w.kings - b.kings);
    for r in 0..6 {
        sink.add(index::ADVANCE + r, w.advance[r] - b.advance[r]);
    }
    sink.add(index::BACK_GUARD, w.guard - b.guard);
    sink.add(index::CENTRE, w.centre - b.centre);
    sink.add(index::EDGE, w.edge - b.edge);
    sink.add(index::MOBILITY_MAN, w.men_moves - b.men_moves);
    sink.add(index::MOBILITY_KING, w.king_moves - b.king_moves);
    let (white_moves, black_moves) = (w.men_moves + w.king_moves, b.men_moves + b.king_moves);
    let low = |moves: i32| if moves <= 2 { 3 - moves } else { 0 };
    sink.add(index::LOW_MOBILITY, low(white_moves) - low(black_moves));
    sink.add(index::RUNAWAY, w.runaways - b.runaways);
    sink.add(index::RUNAWAY_ROWS, w.runaway_rows - b.runaway_rows);
    sink.add(index::MAIN_DIAGONAL, w.diagonal - b.diagonal);
    sink.add(index::IMBALANCE, w.imbalance - b.imbalance);
    sink.add(index::BACKED, w.backed - b.backed);
    sink.add(index::BACK_PATTERN + w.pattern, 1);
    sink.add(index::BACK_PATTERN + b.pattern, -1);
    let tempo = if pos.to_move() == crate::draughts::Color::White {
        1
    } else {
        -1
    };
    sink.add(index::TEMPO, tempo);
    let pieces = pc(pos.white | pos.black);
    let lead = (w.men + 3 * w.kings) - (b.men + 3 * b.kings);
    let traded = PHASE_MAX - pieces.min(PHASE_MAX);
    if lead != 0 {
        sink.add(index::EXCHANGE_AHEAD, lead.signum() * traded);
    }
    if lead.abs() >= 2 && pieces <= 10 {
        let loser_moves = if lead > 0 { black_moves } else { white_moves };
        sink.add(
            index::DRIVE_MOBILITY,
            lead.signum() * (8 - loser_moves.min(8)),
        );
        sink.add(index::DRIVE_TRADE, lead.signum() * traded);
    }
}

/// The hand-set weights the engine had before tuning, `(middle game,
/// ending)` per feature: the tuner's starting point, so that a rerun of
/// the pipeline does not depend on the weights it last wrote.
pub const HAND_WEIGHTS: [(i32, i32); FEATURES] = {
    let mut w = [(0, 0); FEATURES];
    w[index::MAN] = (100, 100);
    w[index::KING] = (300, 300);
    let advance = [1, 3, 6, 10, 15, 22];
    let mut r = 0;
    while r < 6 {
        w[index::ADVANCE + r] = (advance[r], 2 * advance[r]);
        r += 1;
    }
    w[index::BACK_GUARD] = (7, 0);
    w[index::CENTRE] = (5, 5);
    w[index::EDGE] = (-4, -4);
    w[index::MOBILITY_MAN] = (2, 2);
    w[index::MOBILITY_KING] = (2, 2);
    w[index::LOW_MOBILITY] = (-12, -12);
    w[index::RUNAWAY] = (140, 140);
    w[index::RUNAWAY_ROWS] = (-15, -15);
    w[index::MAIN_DIAGONAL] = (0, 24);
    w[index::DRIVE_MOBILITY] = (4, 4);
    w[index::DRIVE_TRADE] = (10, 10);
    w[index::TEMPO] = (4, 4);
    w
};

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(fen: &str) -> [i32; FEATURES] {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let mut c = Counts([0; FEATURES]);
        features(&pos, &Sides::of(&pos), &mut c);
        c.0
    }

    #[test]
    fn the_start_counts_only_the_tempo() {
        let c = counts("W:W1-12:B21-32");
        let mut expected = [0; FEATURES];
        expected[index::TEMPO] = 1;
        assert_eq!(c, expected);
    }

    #[test]
    fn counts_of_a_small_position() {
        // White: men 1, 3 (back row squares 1 and 3), 14 (centre), king 32
        // (main diagonal); Black: men 25, 29 and a king on 28, to move.
        let c = counts("B:W1,3,14,K32:B25,29,K28");
        assert_eq!(c[index::MAN], 3 - 2);
        assert_eq!(c[index::KING], 0);
        assert_eq!(c[index::TEMPO], -1);
        assert_eq!(c[index::MAIN_DIAGONAL], 1 - 1);
        // White's 14 is on row 3; Black's 25 on its row 1 (seen from its
        // side: 33 - 25 = 8), 29 on its back row.
        assert_eq!(c[index::ADVANCE + 2], 1);
        assert_eq!(c[index::ADVANCE], -1);
        assert_eq!(c[index::CENTRE], 1);
        // Back rows: White holds its squares 1 and 3 (pattern 0b0101),
        // Black its square 32 - 29 + 1 = 4 (pattern 0b1000).
        assert_eq!(c[index::BACK_PATTERN + 0b0101], 1);
        assert_eq!(c[index::BACK_PATTERN + 0b1000], -1);
        // Both sides have a king: no back-row guard, no runaway.
        assert_eq!(c[index::BACK_GUARD], 0);
        assert_eq!(c[index::RUNAWAY], 0);
        // Equal material counted in men (3 + 3 against 2 + 3): a man
        // ahead, 17 pieces off the board.
        assert_eq!(c[index::EXCHANGE_AHEAD], 17);
        assert_eq!(c[index::DRIVE_TRADE], 0);
    }

    #[test]
    fn a_runaway_and_a_drive() {
        // White: a man on 22 (row 5, two rows to go) with nothing in front,
        // a king on 1; Black: one man on 9, which cannot reach the cone.
        let c = counts("W:W22,K1:B9");
        assert_eq!(c[index::RUNAWAY], 1);
        assert_eq!(c[index::RUNAWAY_ROWS], 2);
        // Ahead by three men with three pieces: drive terms on.
        assert_eq!(c[index::DRIVE_TRADE], 21);
        assert_eq!(c[index::EXCHANGE_AHEAD], 21);
    }

    #[test]
    fn backed_men_and_imbalance() {
        // White men 5 and 6 on row 1 behind 10: 10 is backed on both
        // sides; the rear squares of 5 and 6 (1, 2, 3) are empty, and so
        // are those of Black's man on 28 (31, 32).
        let c = counts("W:W5,6,10:B28");
        assert_eq!(c[index::BACKED], 1);
        // A man on its own back row cannot be taken from the front.
        assert_eq!(counts("W:W5,6,10:B32")[index::BACKED], 0);
        // White's three men are all on files e-h (3 − 0), Black's man on
        // its own right half (1 − 0).
        assert_eq!(c[index::IMBALANCE], 3 - 1);
    }
}
