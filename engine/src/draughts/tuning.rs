//! The evaluation's features and weights, for the tuner (`damas tune`)
//! and for anyone who wants to look inside the evaluation.
//!
//! The evaluation of a quiet position is a sum over [`FEATURES`] counts
//! (White's minus Black's, [`FEATURE_NAMES`]), each multiplied by a
//! middle-game and an ending weight, interpolated by the number of pieces
//! ([`Features::phase`]): `(Σ middle·count · phase + Σ ending·count ·
//! (24 − phase)) / 24`, from White's side. The weights the engine uses are
//! [`tuned_weights`], compiled in from `engine/src/draughts/search/weights.rs`,
//! a file written by [`weights_source`]. Two rules override the sum
//! ([`features`] returns `None` for those positions): trivial draws and
//! the lone king's fortress.
//!
//!
//! On top of the sum come the **patterns**: a `(middle game, ending)`
//! weight for each configuration of men in each of [`WINDOWS`] windows of
//! the board ([`pattern_indices`]), White's weights minus Black's, read
//! from the embedded file `engine/data/spanish_patterns.bin`
//! ([`compiled_patterns`], [`PatternWeights`]), which `damas tune
//! --patterns` writes.
//!
//! ```
//! use damas::spanish::tuning::{features, tuned_weights, white_score, FEATURES};
//! use damas::spanish::Position;
//! let pos: Position = "W:W1-12:B21-32".parse().unwrap();
//! let f = features(&pos).unwrap();
//! assert_eq!(f.phase, 24);
//! // The start is balanced: only the tempo counts.
//! assert_eq!(f.counts.iter().filter(|&&c| c != 0).count(), 1);
//! let w = tuned_weights();
//! let sum: i32 = (0..FEATURES).map(|i| w[i].0 * f.counts[i]).sum();
//! assert_eq!(white_score(&pos), sum);
//! // The start is its own mirror: the patterns cancel there too.
//! let p = damas::spanish::tuning::pattern_indices(&pos);
//! assert_eq!(p.white, p.black);
//! ```

use std::fmt::Write as _;

use super::search::{evaluate_white, feature_counts, Rule, WEIGHTS};
pub use super::search::{
    PatternFileError, PatternIndices, PatternWeights, CONFIGS, FEATURES, FEATURE_NAMES,
    HAND_WEIGHTS, PHASE_MAX, WINDOWS,
};
use crate::draughts::Position;

/// The feature counts of a position and its phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// White's count minus Black's for each feature, in the order of
    /// [`FEATURE_NAMES`].
    pub counts: [i32; FEATURES],
    /// The pieces on the board, at most [`PHASE_MAX`]: the share of the
    /// middle-game weights, out of `PHASE_MAX`.
    pub phase: i32,
}

/// The features of `pos`, or `None` when a rule rather than the weighted
/// sum gives its score (a trivial draw or the lone king's fortress).
pub fn features(pos: &Position) -> Option<Features> {
    let (counts, phase, rule) = feature_counts(pos);
    (rule == Rule::None).then_some(Features { counts, phase })
}

/// The engine's static evaluation of a quiet position in centi-men, from
/// White's side (the side to move's evaluation with its sign for White).
pub fn white_score(pos: &Position) -> i32 {
    evaluate_white(pos)
}

/// The `(middle game, ending)` weights compiled into the engine.
pub fn tuned_weights() -> [(i32, i32); FEATURES] {
    WEIGHTS
}

/// The configuration of each pattern window of `pos`, for each side in
/// its own view (Black's on the board turned 180° with the colours
/// swapped): the pattern score is `Σ_w weight[w][white[w]] −
/// weight[w][black[w]]`, tapered like the features.
pub fn pattern_indices(pos: &Position) -> PatternIndices {
    super::search::pattern_indices(pos)
}

/// The pattern weights compiled into the engine.
pub fn compiled_patterns() -> PatternWeights {
    super::search::compiled_patterns()
}

/// The Rust source of `engine/src/draughts/search/weights.rs` holding
/// `weights`, with `header` lines (what data and settings produced them)
/// as comments on top.
pub fn weights_source(weights: &[(i32, i32); FEATURES], header: &[String]) -> String {
    let mut out = String::new();
    out.push_str("//! The evaluation's weights, written by `damas tune` (docs/SEARCH.md,\n");
    out.push_str("//! *Tuning*): rerun the pipeline rather than editing by hand.\n");
    for line in header {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("\nuse super::features::FEATURES;\n\n");
    out.push_str("/// `(middle game, ending)` weight of each feature, in centi-men per count.\n");
    out.push_str("pub(crate) const WEIGHTS: [(i32, i32); FEATURES] = [\n");
    for (weight, name) in weights.iter().zip(FEATURE_NAMES) {
        let _ = writeln!(out, "    // {name}\n    ({}, {}),", weight.0, weight.1);
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_weights_are_a_file_weights_source_writes() {
        let text = include_str!("search/weights.rs");
        let body = text
            .split_once("\nuse ")
            .map(|(_, body)| format!("use {body}"))
            .expect("the generated layout");
        let expected = weights_source(&tuned_weights(), &[]);
        let expected_body = expected
            .split_once("\nuse ")
            .map(|(_, body)| format!("use {body}"))
            .expect("the generated layout");
        assert_eq!(body, expected_body);
    }

    #[test]
    fn features_and_score_agree() {
        let w = tuned_weights();
        let patterns = compiled_patterns();
        let p = patterns.pairs();
        for fen in [
            "W:W1-12:B21-32",
            "B:W1-10,12,15:B21-32",
            "W:W1,2,7,10,13:B19,22,25,29,31",
            "B:W5,9,K30:BK14,24,27",
        ] {
            let pos = Position::from_fen(fen).expect("valid");
            let f = features(&pos).expect("no rule");
            let (mut middle, mut ending) = (0..FEATURES).fold((0, 0), |(m, e), i| {
                (m + w[i].0 * f.counts[i], e + w[i].1 * f.counts[i])
            });
            let windows = pattern_indices(&pos);
            for window in 0..WINDOWS {
                let own = p[window * CONFIGS + usize::from(windows.white[window])];
                let opp = p[window * CONFIGS + usize::from(windows.black[window])];
                middle += i32::from(own[0]) - i32::from(opp[0]);
                ending += i32::from(own[1]) - i32::from(opp[1]);
            }
            let expected = (middle * f.phase + ending * (PHASE_MAX - f.phase)) / PHASE_MAX;
            assert_eq!(white_score(&pos), expected, "{fen}");
        }
        let draw = Position::from_fen("W:WK1:BK30").expect("valid");
        assert_eq!(features(&draw), None);
        assert_eq!(white_score(&draw), 0);
    }
}
