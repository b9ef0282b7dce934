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

use std::fs;
use std::path::PathBuf;

use clap::Args;
use damas::spanish::tuning::{
    features, weights_source, FEATURES, FEATURE_NAMES, HAND_WEIGHTS, PHASE_MAX,
};
use damas::spanish::Position;

use crate::output::{errln, outln, Failure};

/// Arguments of `damas tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Labelled positions, `FEN RESULT` per line (`damas datagen`).
    #[arg(long)]
    pub data: PathBuf,
    /// Where to write the weights (the engine's `weights.rs`).
    #[arg(long)]
    pub out: PathBuf,
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

/// Adam's step size, in centi-men.
const LEARNING_RATE: f64 = 1.0;
/// Adam's decay of the mean and of the square of the gradient.
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
/// Most positions read (about 100 bytes of memory each).
const MAX_POSITIONS: usize = 20_000_000;

/// One labelled position: its nonzero counts, phase and White's score.
struct Sample {
    /// `(feature, count)` for the nonzero counts.
    counts: Vec<(u8, i16)>,
    phase: f64,
    result: f64,
}

/// Reads and reduces the data; positions a rule scores are skipped.
fn read_samples(args: &TuneArgs) -> Result<Vec<Sample>, Failure> {
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
        let Some(f) = features(&pos) else { continue };
        let mut counts = Vec::new();
        for (i, &c) in f.counts.iter().enumerate() {
            if c != 0 {
                let c = i16::try_from(c).map_err(|_| bad("a feature count beyond ±32767"))?;
                counts.push((i as u8, c));
            }
        }
        samples.push(Sample {
            counts,
            phase: f64::from(f.phase) / f64::from(PHASE_MAX),
            result,
        });
    }
    if samples.is_empty() {
        return Err(format!("--data {}: no positions to fit", args.data.display()).into());
    }
    Ok(samples)
}

/// Weights as floats: middle game then ending of each feature.
type Params = Vec<f64>;

fn eval(sample: &Sample, params: &[f64]) -> f64 {
    let (mut middle, mut ending) = (0.0, 0.0);
    for &(i, c) in &sample.counts {
        let i = usize::from(i);
        middle += params[2 * i] * f64::from(c);
        ending += params[2 * i + 1] * f64::from(c);
    }
    middle * sample.phase + ending * (1.0 - sample.phase)
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
            let i = usize::from(i);
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

/// Runs the fit and writes the weights.
pub fn run(args: &TuneArgs) -> Result<(), Failure> {
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
    let samples = read_samples(args)?;
    let mut params: Params = Vec::with_capacity(2 * FEATURES);
    for (i, &(middle, ending)) in HAND_WEIGHTS.iter().enumerate() {
        let keep = if dropped[i] { 0.0 } else { 1.0 };
        params.push(f64::from(middle) * keep);
        params.push(f64::from(ending) * keep);
    }
    let k = fit_scale(&samples, &params);
    let before = mean_squared_error(&samples, &params, k);
    if !args.quiet {
        errln!(
            "tune: {} positions, K = {k:.6}, error {before:.6}",
            samples.len()
        );
    }
    let (mut mean, mut square) = (vec![0.0; params.len()], vec![0.0; params.len()]);
    let mut grad = vec![0.0; params.len()];
    for epoch in 1..=args.epochs {
        gradient(&samples, &params, k, &mut grad);
        let t = epoch as i32;
        for i in 0..params.len() {
            if dropped[i / 2] {
                continue;
            }
            mean[i] = BETA1 * mean[i] + (1.0 - BETA1) * grad[i];
            square[i] = BETA2 * square[i] + (1.0 - BETA2) * grad[i] * grad[i];
            let m = mean[i] / (1.0 - BETA1.powi(t));
            let v = square[i] / (1.0 - BETA2.powi(t));
            params[i] -= LEARNING_RATE * m / (v.sqrt() + 1e-12);
        }
        if !args.quiet && epoch % 100 == 0 {
            let error = mean_squared_error(&samples, &params, k);
            errln!("tune: epoch {epoch}, error {error:.6}");
        }
    }
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
    let after = mean_squared_error(&samples, &rounded, k);
    let data_name = args.data.file_name().map_or_else(
        || args.data.display().to_string(),
        |n| n.to_string_lossy().to_string(),
    );
    let mut header = vec![
        format!("Data: {data_name}, {} positions.", samples.len()),
        format!(
            "K = {k:.6}; {} epochs; mean squared error {before:.6} with the hand-set weights, {after:.6} tuned.",
            args.epochs
        ),
    ];
    if !args.drop.is_empty() {
        header.push(format!("Dropped: {}.", args.drop.join(", ")));
    }
    fs::write(&args.out, weights_source(&weights, &header))
        .map_err(|err| format!("--out {}: {err}", args.out.display()))?;
    outln!("positions {}", samples.len())?;
    outln!("K {k:.6}")?;
    outln!("error {before:.6} -> {after:.6}")?;
    Ok(())
}
