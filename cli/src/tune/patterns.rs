//! `damas tune --patterns FILE`: fits the pattern weights of the Spanish
//! evaluation (docs/SEARCH.md, *Patterns*) and writes the pattern file
//! the engine embeds (`engine/data/spanish_patterns.bin`).
//!
//! The feature weights stay those the engine compiles: each position's
//! evaluation is their tapered sum (fixed) plus the pattern weights of
//! its windows, White's configurations minus Black's. `K` is fitted to the
//! features alone (so the error before is that of the engine without
//! patterns), then every pattern weight by full-batch Adam from zero with
//! the L2 decay `--pattern-decay`, rounded to `i16`. Deterministic: the
//! same data and arguments write the same file.

use std::fs;
use std::path::Path;

use damas::spanish::tuning::{
    features, pattern_indices, tuned_weights, PatternWeights, CONFIGS, PHASE_MAX, WINDOWS,
};

use super::{
    adam, fit_scale, held_error, mean_squared_error, samples, Errors, Fit, Labelled, Sample,
    TuneArgs,
};
use crate::output::{errln, outln, Failure};

/// A position as a sample of the pattern fit.
fn pattern_sample(l: &Labelled) -> Result<Sample, Failure> {
    let f = features(&l.pos).ok_or("a position a rule scores")?;
    let w = tuned_weights();
    let (mut middle, mut ending) = (0.0, 0.0);
    for (i, &c) in f.counts.iter().enumerate() {
        middle += f64::from(w[i].0 * c);
        ending += f64::from(w[i].1 * c);
    }
    let phase = f64::from(f.phase) / f64::from(PHASE_MAX);
    let windows = pattern_indices(&l.pos);
    let mut counts: Vec<(u32, i16)> = Vec::with_capacity(2 * WINDOWS);
    for window in 0..WINDOWS {
        let base = (window * CONFIGS) as u32;
        let (own, opp) = (
            base + u32::from(windows.white[window]),
            base + u32::from(windows.black[window]),
        );
        // The same configuration for both sides cancels.
        if own != opp {
            counts.push((own, 1));
            counts.push((opp, -1));
        }
    }
    Ok(Sample {
        counts,
        base: middle * phase + ending * (1.0 - phase),
        phase,
        result: l.result,
    })
}

/// Fits the pattern weights and writes them to `path`.
pub fn run(args: &TuneArgs, path: &Path) -> Result<(), Failure> {
    let (samples, held) = samples(args, pattern_sample)?;
    let mut params = vec![0.0; 2 * WINDOWS * CONFIGS];
    let k = fit_scale(&samples, &params);
    let before = mean_squared_error(&samples, &params, k);
    let held_before = held_error(&held, &params, k);
    if !args.quiet {
        errln!(
            "tune: patterns, {} positions ({} held out), K = {k:.6}, error {before:.6}",
            samples.len(),
            held.len()
        );
    }
    let fixed = vec![false; WINDOWS * CONFIGS];
    adam(
        &samples,
        &mut params,
        &Fit {
            k,
            epochs: args.epochs,
            fixed: &fixed,
            decay: args.pattern_decay.unwrap_or(super::PATTERN_DECAY),
            quiet: args.quiet,
        },
    );
    let round = |x: f64| x.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
    let pairs: Vec<[i16; 2]> = params
        .chunks_exact(2)
        .map(|p| [round(p[0]), round(p[1])])
        .collect();
    let rounded: Vec<f64> = pairs
        .iter()
        .flat_map(|p| [f64::from(p[0]), f64::from(p[1])])
        .collect();
    let errors = Errors {
        before,
        after: mean_squared_error(&samples, &rounded, k),
        held_before,
        held_after: held_error(&held, &rounded, k),
    };
    let used = pairs.iter().filter(|p| **p != [0, 0]).count();
    let weights =
        PatternWeights::from_pairs(pairs).map_err(|err| format!("the fitted weights: {err}"))?;
    fs::write(path, weights.to_bytes())
        .map_err(|err| format!("--patterns {}: {err}", path.display()))?;
    outln!("positions {}", samples.len())?;
    outln!("K {k:.6}")?;
    for line in errors.lines() {
        outln!("{line}")?;
    }
    outln!("pattern weights {used} of {} nonzero", WINDOWS * CONFIGS)?;
    Ok(())
}
