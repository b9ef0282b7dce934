//! Static evaluation in centi-men, from the side to move's point of view.
//!
//! The evaluation is the sum of the features of `features.rs`, each
//! multiplied by its weight from `weights.rs` (fitted to game results by
//! `damas tune`), tapered between a middle-game and an ending weight by
//! the number of pieces on the board, plus the weights of the men's
//! configurations in nine windows of the board (`patterns.rs`; skipped
//! when every pattern weight is zero); two rules that no sum expresses
//! come on top (the trivial draws and the lone king's fortress). It is
//! only called on quiet positions (the side to move has no capture): the
//! search resolves captures first. It allocates nothing and uses
//! whole-board shifts and popcounts.

use super::features::{
    features, men_equivalent, pc, Counts, Side, Sides, Sink, FEATURES, PHASE_MAX,
};
use super::patterns::{self, PatternIndices, Table};
use super::weights::WEIGHTS;
use crate::draughts::{Color, Position};

/// A man in the material-only baselines.
const MAN: i32 = 100;
/// A king in the material-only baselines.
const KING: i32 = 300;

/// The main diagonal h1-a8: squares 1, 5, 10, 14, 19, 23, 28, 32.
const MAIN_DIAG: u32 =
    (1 << 0) | (1 << 4) | (1 << 9) | (1 << 13) | (1 << 18) | (1 << 22) | (1 << 27) | (1 << 31);

/// The best static score magnitude; everything above is a proven result.
pub const EVAL_LIMIT: i32 = 20_000;

/// The weights of both phases in one word, the middle game in the high
/// half, so that one multiplication and one addition serve both.
const PACKED: [i64; FEATURES] = {
    let mut packed = [0i64; FEATURES];
    let mut i = 0;
    while i < FEATURES {
        packed[i] = ((WEIGHTS[i].0 as i64) << 32) + WEIGHTS[i].1 as i64;
        i += 1;
    }
    packed
};

/// Sums the packed weighted features of both phases. Each half stays far
/// within ±2³¹ (a few thousand centi-men at most), so the halves never
/// spill into each other.
#[derive(Default)]
struct Tapered(i64);

impl Tapered {
    /// Adds a middle-game and an ending value.
    #[inline(always)]
    fn add_phases(&mut self, (middle, ending): (i32, i32)) {
        self.0 += (i64::from(middle) << 32) + i64::from(ending);
    }

    /// The middle-game and ending sums.
    fn phases(&self) -> (i32, i32) {
        let ending = self.0 as i32;
        let middle = ((self.0 - i64::from(ending)) >> 32) as i32;
        (middle, ending)
    }
}

impl Sink for Tapered {
    #[inline(always)]
    fn add(&mut self, feature: usize, value: i32) {
        self.0 += PACKED[feature] * i64::from(value);
    }
}

/// What decides a position's score beyond the weighted sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// The sum, as it is.
    None,
    /// King(s) against a lone king with too little to force anything
    /// (1 v 1, 2 v 1, king and man v king): 0. Tactics (an immediate
    /// capture) are seen by the search before this is called.
    TrivialDraw,
    /// A lone king on the main diagonal against at most three kings and a
    /// lead of a king's worth: a known fortress, the sum divided by 8.
    Fortress,
}

/// The rule that applies to a position.
pub(crate) fn rule(pos: &Position, sides: &Sides) -> Rule {
    let [white, black] = sides.own;
    let count = |s: Side| pc(s.men | s.kings);
    let value = men_equivalent;
    let (wn, bn) = (count(white), count(black));
    if white.kings != 0 && black.kings != 0 && ((wn <= 2 && bn == 1) || (bn <= 2 && wn == 1)) {
        return Rule::TrivialDraw;
    }
    let lead = value(white) - value(black);
    if lead.abs() >= 2 && pc(pos.white | pos.black) <= 10 {
        let (strong, weak) = if lead > 0 {
            (white, black)
        } else {
            (black, white)
        };
        // The weak side's king on the main diagonal (which turning the
        // board maps onto itself).
        if weak.men == 0
            && pc(weak.kings) == 1
            && weak.kings & MAIN_DIAG != 0
            && strong.men == 0
            && pc(strong.kings) <= 3
        {
            return Rule::Fortress;
        }
    }
    Rule::None
}

/// What one man is worth in the evaluation's units at the phase of `pos`
/// (its man weight, tapered): the unit of the reported scores, which are
/// centi-men whatever scale the tuner gave the weights. At least 1.
pub(crate) fn man_value(pos: &Position) -> i32 {
    let (middle, ending) = WEIGHTS[super::features::index::MAN];
    taper(middle, ending, pc(pos.white | pos.black)).max(1)
}

/// Interpolates the two phases: all middle game with
/// [`PHASE_MAX`] pieces or more, all ending with none.
#[inline(always)]
pub(crate) fn taper(middle: i32, ending: i32, pieces: i32) -> i32 {
    let phase = pieces.min(PHASE_MAX);
    (middle * phase + ending * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The static score of a quiet position for the side to move, in
/// centi-men, within ±[`EVAL_LIMIT`].
pub fn evaluate(pos: &Position) -> i32 {
    let score = evaluate_white(pos);
    if pos.to_move() == Color::White {
        score
    } else {
        -score
    }
}

/// The evaluation from White's side (the tempo feature included).
pub(crate) fn evaluate_white(pos: &Position) -> i32 {
    score_white(pos, &patterns::COMPILED)
}

/// [`evaluate_white`] with the pattern weights `table`.
#[inline(always)]
fn score_white(pos: &Position, table: &Table) -> i32 {
    let sides = Sides::of(pos);
    let rule = rule(pos, &sides);
    if rule == Rule::TrivialDraw {
        return 0;
    }
    let mut sum = Tapered::default();
    features(pos, &sides, &mut sum);
    if table.active {
        sum.add_phases(table.sum(sides.own[0].men, sides.own[1].men));
    }
    let (middle, ending) = sum.phases();
    let mut score = taper(middle, ending, pc(pos.white | pos.black));
    if rule == Rule::Fortress {
        score /= 8;
    }
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The feature counts of a position, its phase and the rule that applies
/// to it: the tuner's view of [`evaluate_white`].
pub(crate) fn feature_counts(pos: &Position) -> ([i32; FEATURES], i32, Rule) {
    let sides = Sides::of(pos);
    let mut counts = Counts([0; FEATURES]);
    features(pos, &sides, &mut counts);
    let phase = pc(pos.white | pos.black).min(PHASE_MAX);
    (counts.0, phase, rule(pos, &sides))
}

/// The window configurations of `pos` (the tuner's view of the
/// patterns).
pub(crate) fn pattern_indices(pos: &Position) -> PatternIndices {
    let sides = Sides::of(pos);
    patterns::indices(sides.own[0].men, sides.own[1].men)
}

/// Material only (men and kings), for the side to move: the Plain and
/// Greedy baselines.
pub fn material(pos: &Position) -> i32 {
    let k = pos.kings;
    let w = MAN * pc(pos.white & !k) + KING * pc(pos.white & k);
    let b = MAN * pc(pos.black & !k) + KING * pc(pos.black & k);
    if pos.to_move() == Color::White {
        w - b
    } else {
        b - w
    }
}

#[cfg(test)]
mod tests {
    use super::super::features::index::TEMPO;
    use super::*;

    #[test]
    fn the_start_is_worth_the_tempo() {
        let tempo = taper(WEIGHTS[TEMPO].0, WEIGHTS[TEMPO].1, 24);
        assert_eq!(evaluate(&Position::start()), tempo);
        let black_to_move = Position::from_fen("B:W1-12:B21-32").expect("valid");
        assert_eq!(evaluate(&black_to_move), tempo);
    }

    #[test]
    fn symmetric() {
        let a = Position::from_fen("W:W1-10,12,15:B21-32").unwrap();
        let b = Position::from_fen("B:W1-12:B18,21,23-32").unwrap();
        // b is a mirrored by colour and rotation (square s <-> 33 - s).
        assert_eq!(evaluate(&a), evaluate(&b));
        let c = Position::from_fen("W:W5,K9,22:BK30,19,27,28").unwrap();
        let d = Position::from_fen("B:WK3,5,6,14:B11,K24,28").unwrap();
        assert_eq!(evaluate(&c), evaluate(&d));
    }

    #[test]
    fn rules_beyond_the_sum() {
        let draw = Position::from_fen("W:WK1:BK30").unwrap();
        assert_eq!(evaluate(&draw), 0);
        let two_v_one = Position::from_fen("B:WK1,K2:BK30").unwrap();
        assert_eq!(evaluate(&two_v_one), 0);
        let fortress = Position::from_fen("W:WK2,K3,K7:BK19").unwrap();
        let sides = Sides::of(&fortress);
        assert_eq!(rule(&fortress, &sides), Rule::Fortress);
        let off_diagonal = Position::from_fen("W:WK2,K3,K7:BK20").unwrap();
        assert_eq!(rule(&off_diagonal, &Sides::of(&off_diagonal)), Rule::None);
        assert!(evaluate(&fortress).abs() < evaluate(&off_diagonal).abs());
    }

    #[test]
    fn packed_phases_unpack_exactly() {
        let mut sum = Tapered::default();
        for (feature, value) in [(0, 7), (1, -3), (2, 5), (3, -11)] {
            sum.add(feature, value);
        }
        let expected = [(0, 7), (1, -3), (2, 5), (3, -11)]
            .iter()
            .fold((0, 0), |(m, e), &(f, v)| {
                (m + WEIGHTS[f].0 * v, e + WEIGHTS[f].1 * v)
            });
        assert_eq!(sum.phases(), expected);
        let mut negative = Tapered::default();
        negative.add(0, -1);
        assert_eq!(negative.phases(), (-WEIGHTS[0].0, -WEIGHTS[0].1));
    }

    #[test]
    fn zero_pattern_weights_change_nothing() {
        // A zero table read anyway gives the scores of the features alone.
        let mut zero = Table::new(&super::super::PatternWeights::zero());
        let skipped = Table::new(&super::super::PatternWeights::zero());
        assert!(!zero.active);
        zero.active = true;
        for fen in [
            "W:W1-12:B21-32",
            "B:W1-10,12,15:B21-32",
            "W:W1,2,7,10,13:B19,22,25,29,31",
            "B:W5,9,K30:BK14,24,27",
            "W:W2,K3,K7:BK19",
        ] {
            let pos = Position::from_fen(fen).expect("valid");
            assert_eq!(
                score_white(&pos, &zero),
                score_white(&pos, &skipped),
                "{fen}"
            );
        }
    }

    #[test]
    fn patterns_add_to_the_sum() {
        // One weight, of White's configuration of window 0 at the start
        // (its three first rows of e–h full), seen by both sides there.
        let pos = Position::from_fen("W:W1-12:B21-31").expect("valid");
        let i = pattern_indices(&pos);
        let mut pairs = super::super::PatternWeights::zero().pairs().to_vec();
        pairs[usize::from(i.white[0])] = [240, 48];
        let weights = super::super::PatternWeights::from_pairs(pairs).expect("full");
        let table = Table::new(&weights);
        let plain = score_white(&pos, &Table::new(&super::super::PatternWeights::zero()));
        // White holds that configuration, Black (one man short) does not.
        assert_ne!(i.white[0], i.black[0]);
        // (Within the rounding of the taper's division.)
        let added = score_white(&pos, &table) - plain;
        assert!((added - taper(240, 48, 23)).abs() <= 1, "{added}");
    }

    #[test]
    fn material_counts_men_and_kings() {
        let pos = Position::from_fen("B:W1,2,K3:B30").unwrap();
        assert_eq!(material(&pos), 100 - 500);
    }
}
