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
//! A side's counts are taken with the board turned so that it plays up
//! (Black's sets bit-reversed, which is the 180° rotation), so both colours
//! are counted by the same code and the evaluation is colour-symmetric.

use crate::spanish::tables::{slide, up_left, up_right, DL, DR, UL, UR};
use crate::spanish::Position;

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
/// Files e-h.
const RIGHT_HALF: u32 = 0x3333_3333;
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

/// One side's pieces, turned so that it plays up the board.
#[derive(Clone, Copy)]
pub(crate) struct Side {
    pub men: u32,
    pub kings: u32,
}

impl Side {
    fn all(self) -> u32 {
        self.men | self.kings
    }
}

/// Both sides, each seen from its own side of the board.
#[derive(Clone, Copy)]
pub(crate) struct Sides {
    /// White as it is, then Black rotated.
    pub own: [Side; 2],
    /// The opponent of each, in the same orientation.
    pub opp: [Side; 2],
}

impl Sides {
    pub fn of(pos: &Position) -> Sides {
        let k = pos.kings;
        let white = Side {
            men: pos.white & !k,
            kings: pos.white & k,
        };
        let black = Side {
            men: pos.black & !k,
            kings: pos.black & k,
        };
        let turn = |s: Side| Side {
            men: s.men.reverse_bits(),
            kings: s.kings.reverse_bits(),
        };
        Sides {
            own: [white, turn(black)],
            opp: [black, turn(white)],
        }
    }
}

/// Quiet moves of one side playing up: men steps and king slides.
#[inline(always)]
fn mobility(own: Side, occ: u32) -> (i32, i32) {
    let empty = !occ;
    let men = pc(up_left(own.men) & empty) + pc(up_right(own.men) & empty);
    let mut kings = 0;
    let mut ks = own.kings;
    while ks != 0 {
        let b = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        kings += pc(slide(UL, b, occ) | slide(UR, b, occ) | slide(DL, b, occ) | slide(DR, b, occ));
    }
    (men, kings)
}

/// Runaway men of a side playing up, and the rows they still have to go.
#[inline(always)]
fn runaways(own: Side, opp: Side) -> (i32, i32) {
    if opp.kings != 0 {
        return (0, 0);
    }
    let opp_all = opp.all();
    let (mut count, mut rows) = (0, 0);
    // Only men on the three rows before promotion are examined (the cone
    // test is a short loop).
    let mut cand = own.men & (row(4) | row(5) | row(6));
    while cand != 0 {
        let b = cand.trailing_zeros();
        cand &= cand - 1;
        let togo = 7 - b / 4;
        let mut front = 1u32 << b;
        let mut cone = 0u32;
        for _ in 0..togo {
            front = up_left(front) | up_right(front);
            cone |= front;
        }
        if cone & opp_all == 0 {
            count += 1;
            rows += togo as i32;
        }
    }
    (count, rows)
}

/// The counts of one side playing up, added with `sign` (+1 White, −1
/// Black). Returns its number of quiet moves.
#[inline(always)]
fn side_features<S: Sink>(sink: &mut S, sign: i32, own: Side, opp: Side) -> i32 {
    let men = own.men;
    sink.add(index::MAN, sign * pc(men));
    sink.add(index::KING, sign * pc(own.kings));
    for r in 1..7 {
        sink.add(index::ADVANCE + r as usize - 1, sign * pc(men & row(r)));
    }
    if opp.kings == 0 {
        sink.add(index::BACK_GUARD, sign * pc(men & row(0)));
    }
    sink.add(index::CENTRE, sign * pc(men & CENTRE_SQ));
    sink.add(index::EDGE, sign * pc(men & EDGE_SQ));
    let occ = own.all() | opp.all();
    let (men_moves, king_moves) = mobility(own, occ);
    sink.add(index::MOBILITY_MAN, sign * men_moves);
    sink.add(index::MOBILITY_KING, sign * king_moves);
    let moves = men_moves + king_moves;
    if moves <= 2 {
        sink.add(index::LOW_MOBILITY, sign * (3 - moves));
    }
    let (count, rows) = runaways(own, opp);
    sink.add(index::RUNAWAY, sign * count);
    sink.add(index::RUNAWAY_ROWS, sign * rows);
    sink.add(index::MAIN_DIAGONAL, sign * pc(own.kings & MAIN_DIAG));
    sink.add(
        index::IMBALANCE,
        sign * (pc(men & LEFT_HALF) - pc(men & RIGHT_HALF)).abs(),
    );
    // A man's rear squares are those from which its neighbours step up to
    // it: held, or off the board.
    let all = own.all();
    let left_backed = up_right(all) | !up_right(BOARD);
    let right_backed = up_left(all) | !up_left(BOARD);
    sink.add(index::BACKED, sign * pc(men & left_backed & right_backed));
    let pattern = (men & row(0)) as usize;
    sink.add(index::BACK_PATTERN + pattern, sign);
    moves
}

/// Material in men (a king counts three), the measure of "ahead" in the
/// features that depend on it.
fn men_equivalent(side: Side) -> i32 {
    pc(side.men) + 3 * pc(side.kings)
}

/// Sends every feature of `pos` to `sink`, from White's point of view
/// (the tempo feature is +1 with White to move, −1 with Black).
#[inline(always)]
pub(crate) fn features<S: Sink>(pos: &Position, sides: &Sides, sink: &mut S) {
    let white_moves = side_features(sink, 1, sides.own[0], sides.opp[0]);
    let black_moves = side_features(sink, -1, sides.own[1], sides.opp[1]);
    let tempo = if pos.to_move() == crate::spanish::Color::White {
        1
    } else {
        -1
    };
    sink.add(index::TEMPO, tempo);
    let pieces = pc(pos.white | pos.black);
    let lead = men_equivalent(sides.own[0]) - men_equivalent(sides.own[1]);
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
