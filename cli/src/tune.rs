//! `damas tune`: fits the Spanish evaluation's weights to game results by
//! Texel's method, and writes them as the Rust source the engine compiles
//! (`engine/src/draughts/search/weights.rs`).
//!
//! Each position of the data (`damas datagen`'s `FEN RESULT` lines) is
//! reduced to its feature counts ([`damas::spanish::tuning::features`]).
//! The predicted score of a position is `sigmoid(K · eval)`, eval being
//! White's score in centi-men; the loss is the mean squared error against
//! the game's result. First the scale `K` is fitted with the hand-set
//! weights (a golden-section search), then every weight is fitted with
//! `K` fixed by full-batch Adam for `--epochs` passes, starting from the
//! hand-set weights, and rounded. Everything is deterministic: the same
//! data and arguments write the same file.
//!
//! With `--patterns FILE` it fits the pattern weights instead (module
//! `patterns`), on top of the feature weights the engine compiles, and
//! writes the pattern file. `--holdout F` keeps a seeded fraction of the
//! positions out of the fit and reports the error on them before and
//! after, in both modes.

use std::fs;
use std::path::PathBuf;

use clap::Args;
use damas::spanish::tuning::{
    features, weights_source, FEATURES, FEATURE_NAMES, HAND_WEIGHTS, PHASE_MAX,
};
use damas::spanish::Position;

use crate::output::{errln, outln, Failure};

mod patterns;

/// Arguments of `damas tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Labelled positions, `FEN RESULT` per line (`damas datagen`).
    #[arg(long)]
    pub data: PathBuf,
    /// Where to write the feature weights (the engine's `weights.rs`).
    #[arg(
        long,
        required_unless_present = "patterns",
        conflicts_with = "patterns"
    )]
    pub out: Option<PathBuf>,
    /// Fit the pattern weights instead, on top of the compiled feature
    /// weights, and write the pattern file here (the engine's
    /// `engine/data/spanish_patterns.bin`).
    #[arg(long)]
    pub patterns: Option<PathBuf>,
    /// The L2 decay of the pattern weights: the fit minimises the mean
    /// squared error plus this times the sum of the squared weights in
    /// logistic units (`K · weight`), 0 to 1 (default 1e-7).
    #[arg(long, value_parser = decay)]
    pub pattern_decay: Option<f64>,
    /// The fraction of the positions kept out of the fit to measure it,
    /// 0 to 0.5 (drawn by `--seed`).
    #[arg(long, default_value_t = 0.0, value_parser = holdout)]
    pub holdout: f64,
    /// Seed of the held-out draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Passes over the data, 1 to 100,000.
    #[arg(long, default_value_t = 1500,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    pub epochs: usize,
    /// Features not to use (weight 0, not fitted), by name prefix
    /// (`--drop "back row"`); repeat for more.
    #[arg(long)]
    pub drop: Vec<String>,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// `--pattern-decay`: a number from 0 to 1.
fn decay(text: &str) -> Result<f64, String> {
    fraction(text, 1.0)
}

/// `--holdout`: a number from 0 to 0.5.
fn holdout(text: &str) -> Result<f64, String> {
    fraction(text, 0.5)
}

fn fraction(text: &str, max: f64) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=max).contains(&x) => Ok(x),
        _ => Err(format!("expected a number from 0 to {max}")),
    }
}

/// The default of `--pattern-decay`.
pub const PATTERN_DECAY: f64 = 1e-7;

/// Adam's step size, in centi-men.
const LEARNING_RATE: f64 = 1.0;
/// Adam's decay of the mean and of the square of the gradient.
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
/// Most positions read (about 100 bytes of memory each).
const MAX_POSITIONS: usize = 20_000_000;

/// One labelled position: its nonzero counts, phase and White's score.
struct Sample {
    /// `(weight pair, count)` for the nonzero counts.
    counts: Vec<(u32, i16)>,
    /// The part of the evaluation that is not fitted (the compiled
    /// features when the patterns are fitted), phases tapered.
    base: f64,
    phase: f64,
    result: f64,
}

/// One labelled position as read: the position and White's score.
struct Labelled {
    pos: Position,
    result: f64,
}

/// Reads the data; positions a rule scores are skipped.
fn read_positions(args: &TuneArgs) -> Result<Vec<Labelled>, Failure> {
    let text = fs::read_to_string(&args.data)
        .map_err(|err| format!("--data {}: {err}", args.data.display()))?;
    let mut samples = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let bad = |why: &str| format!("{}:{}: {why}", args.data.display(), number + 1);
        if line.trim().is_empty() {
            continue;
        }
        if samples.len() >= MAX_POSITIONS {
            return Err(bad(&format!("more than {MAX_POSITIONS} positions")).into());
        }
        let (fen, result) = line
            .trim()
            .rsplit_once(' ')
            .ok_or_else(|| bad("expected 'FEN RESULT'"))?;
        let pos = Position::from_fen(fen).map_err(|err| bad(&err.to_string()))?;
        let result = match result {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => return Err(bad(&format!("result '{other}' is not 1, 0.5 or 0")).into()),
        };
        if features(&pos).is_none() {
            continue;
        }
        samples.push(Labelled { pos, result });
    }
    if samples.is_empty() {
        return Err(format!("--data {}: no positions to fit", args.data.display()).into());
    }
    Ok(samples)
}

/// The feature counts of a position as a sample.
fn feature_sample(l: &Labelled) -> Result<Sample, Failure> {
    let f = features(&l.pos).ok_or("a position a rule scores")?;
    let mut counts = Vec::new();
    for (i, &c) in f.counts.iter().enumerate() {
        if c != 0 {
            let c = i16::try_from(c)
                .map_err(|_| format!("{}: a feature count beyond ±32767", l.pos.to_fen()))?;
            counts.push((i as u32, c));
        }
    }
    Ok(Sample {
        counts,
        base: 0.0,
        phase: f64::from(f.phase) / f64::from(PHASE_MAX),
        result: l.result,
    })
}

/// The positions of `--data` as samples made by `sample`, split into the
/// fitted and the held-out ones (`--holdout`, drawn by `--seed`); an error
/// when none is left to fit.
fn samples(
    args: &TuneArgs,
    sample: fn(&Labelled) -> Result<Sample, Failure>,
) -> Result<(Vec<Sample>, Vec<Sample>), Failure> {
    let (fit, held) = split(read_positions(args)?, args.holdout, args.seed);
    let fit = fit.iter().map(sample).collect::<Result<Vec<_>, _>>()?;
    let held = held.iter().map(sample).collect::<Result<Vec<_>, _>>()?;
    if fit.is_empty() {
        return Err("--holdout: no positions left to fit".into());
    }
    Ok((fit, held))
}

/// Splits the positions into the fitted ones and the held-out ones: each
/// held out with probability `fraction`, drawn from `seed` and its
/// number (SplitMix64), so that the split repeats.
fn split<T>(items: Vec<T>, fraction: f64, seed: u64) -> (Vec<T>, Vec<T>) {
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for (i, item) in items.into_iter().enumerate() {
        let mut z = seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(i as u64)
            .wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        if ((z >> 11) as f64) < fraction * (1u64 << 53) as f64 {
            held.push(item);
        } else {
            fit.push(item);
        }
    }
    (fit, held)
}

/// Weights as floats: middle game then ending of each feature.
type Params = Vec<f64>;

fn eval(sample: &Sample, params: &[f64]) -> f64 {
    let (mut middle, mut ending) = (0.0, 0.0);
    for &(i, c) in &sample.counts {
        let i = i as usize;
        middle += params[2 * i] * f64::from(c);
        ending += params[2 * i + 1] * f64::from(c);
    }
    sample.base + middle * sample.phase + ending * (1.0 - sample.phase)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn mean_squared_error(samples: &[Sample], params: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let err = sigmoid(k * eval(s, params)) - s.result;
            err * err
        })
        .sum();
    total / samples.len() as f64
}

/// The `K` that minimises the error of `params`, by golden-section search
/// on `log K` (the error is unimodal in `K`).
fn fit_scale(samples: &[Sample], params: &[f64]) -> f64 {
    let (mut lo, mut hi) = ((1e-4f64).ln(), (1e-1f64).ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if mean_squared_error(samples, params, a.exp())
            < mean_squared_error(samples, params, b.exp())
        {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// The gradient of the mean squared error with respect to every weight.
fn gradient(samples: &[Sample], params: &[f64], k: f64, grad: &mut [f64]) {
    grad.fill(0.0);
    for s in samples {
        let p = sigmoid(k * eval(s, params));
        let slope = 2.0 * (p - s.result) * p * (1.0 - p) * k;
        for &(i, c) in &s.counts {
            let i = i as usize;
            let g = slope * f64::from(c);
            grad[2 * i] += g * s.phase;
            grad[2 * i + 1] += g * (1.0 - s.phase);
        }
    }
    let n = samples.len() as f64;
    for g in grad.iter_mut() {
        *g /= n;
    }
}

/// What [`adam`] fits: which weights stay fixed and the L2 decay.
struct Fit<'a> {
    k: f64,
    epochs: usize,
    /// Per weight pair: left as it is.
    fixed: &'a [bool],
    /// `decay · K²`-scaled L2 penalty on every weight (0: none).
    decay: f64,
    quiet: bool,
}

/// Full-batch Adam on the mean squared error (plus the decay), from
/// `params`, for `fit.epochs` passes.
fn adam(samples: &[Sample], params: &mut [f64], fit: &Fit) {
    let (mut mean, mut square) = (vec![0.0; params.len()], vec![0.0; params.len()]);
    let mut grad = vec![0.0; params.len()];
    let l2 = 2.0 * fit.decay * fit.k * fit.k;
    for epoch in 1..=fit.epochs {
        gradient(samples, params, fit.k, &mut grad);
        let t = epoch as i32;
        for i in 0..params.len() {
            if fit.fixed[i / 2] {
                continue;
            }
            let g = grad[i] + l2 * params[i];
            // A weight no position has and that is still zero stays so
            // (the tables are sparse: most configurations never occur).
            if g == 0.0 && mean[i] == 0.0 {
                continue;
            }
            mean[i] = BETA1 * mean[i] + (1.0 - BETA1) * g;
            square[i] = BETA2 * square[i] + (1.0 - BETA2) * g * g;
            let m = mean[i] / (1.0 - BETA1.powi(t));
            let v = square[i] / (1.0 - BETA2.powi(t));
            params[i] -= LEARNING_RATE * m / (v.sqrt() + 1e-12);
        }
        if !fit.quiet && epoch % 100 == 0 {
            let error = mean_squared_error(samples, params, fit.k);
            errln!("tune: epoch {epoch}, error {error:.6}");
        }
    }
}

/// The errors of a fit on the fitted and the held-out positions, before
/// and after, as printed and recorded.
struct Errors {
    before: f64,
    after: f64,
    held_before: Option<f64>,
    held_after: Option<f64>,
}

impl Errors {
    fn lines(&self) -> Vec<String> {
        let mut out = vec![format!("error {:.6} -> {:.6}", self.before, self.after)];
        if let (Some(b), Some(a)) = (self.held_before, self.held_after) {
            out.push(format!("held-out error {b:.6} -> {a:.6}"));
        }
        out
    }
}

/// The mean squared error of the held-out positions, if any.
fn held_error(held: &[Sample], params: &[f64], k: f64) -> Option<f64> {
    (!held.is_empty()).then(|| mean_squared_error(held, params, k))
}

/// The file name of the data, for the record.
fn data_name(args: &TuneArgs) -> String {
    args.data.file_name().map_or_else(
        || args.data.display().to_string(),
        |n| n.to_string_lossy().to_string(),
    )
}

/// Runs the fit and writes the weights.
pub fn run(args: &TuneArgs) -> Result<(), Failure> {
    if let Some(path) = &args.patterns {
        return patterns::run(args, path);
    }
    if args.pattern_decay.is_some() {
        return Err("--pattern-decay applies to --patterns only".into());
    }
    let Some(out) = &args.out else {
        return Err("one of --out and --patterns is needed".into());
    };
    let dropped: Vec<bool> = FEATURE_NAMES
        .iter()
        .map(|name| {
            args.drop
                .iter()
                .any(|prefix| name.starts_with(prefix.as_str()))
        })
        .collect();
    for prefix in &args.drop {
        if !FEATURE_NAMES
            .iter()
            .any(|name| name.starts_with(prefix.as_str()))
        {
            return Err(format!("--drop '{prefix}': no feature has that name").into());
        }
    }
    let (samples, held) = samples(args, feature_sample)?;
    let mut params: Params = Vec::with_capacity(2 * FEATURES);
    for (i, &(middle, ending)) in HAND_WEIGHTS.iter().enumerate() {
        let keep = if dropped[i] { 0.0 } else { 1.0 };
        params.push(f64::from(middle) * keep);
        params.push(f64::from(ending) * keep);
    }
    let k = fit_scale(&samples, &params);
    let before = mean_squared_error(&samples, &params, k);
    let held_before = held_error(&held, &params, k);
    if !args.quiet {
        errln!(
            "tune: {} positions ({} held out), K = {k:.6}, error {before:.6}",
            samples.len(),
            held.len()
        );
    }
    adam(
        &samples,
        &mut params,
        &Fit {
            k,
            epochs: args.epochs,
            fixed: &dropped,
            decay: 0.0,
            quiet: args.quiet,
        },
    );
    let mut weights = [(0, 0); FEATURES];
    for (i, w) in weights.iter_mut().enumerate() {
        *w = (
            params[2 * i].round() as i32,
            params[2 * i + 1].round() as i32,
        );
    }
    let rounded: Params = weights
        .iter()
        .flat_map(|&(m, e)| [f64::from(m), f64::from(e)])
        .collect();
    let errors = Errors {
        before,
        after: mean_squared_error(&samples, &rounded, k),
        held_before,
        held_after: held_error(&held, &rounded, k),
    };
    let mut header = vec![
        format!("Data: {}, {} positions.", data_name(args), samples.len()),
        format!(
            "K = {k:.6}; {} epochs; mean squared error {before:.6} with the hand-set weights, {:.6} tuned.",
            args.epochs, errors.after
        ),
    ];
    if let (Some(b), Some(a)) = (errors.held_before, errors.held_after) {
        header.push(format!(
            "Held out: {} positions (--holdout {} --seed {}), error {b:.6} -> {a:.6}.",
            held.len(),
            args.holdout,
            args.seed
        ));
    }
    if !args.drop.is_empty() {
        header.push(format!("Dropped: {}.", args.drop.join(", ")));
    }
    fs::write(out, weights_source(&weights, &header))
        .map_err(|err| format!("--out {}: {err}", out.display()))?;
    outln!("positions {}", samples.len())?;
    outln!("K {k:.6}")?;
    for line in errors.lines() {
        outln!("{line}")?;
    }
    Ok(())
}
