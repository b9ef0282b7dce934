//! Match statistics: win/draw/loss tallies, the pentanomial count of
//! paired games, Elo with a 95% interval that never degenerates, the
//! sequential probability ratio test, and places for many players.

/// Wins, draws and losses of the first engine against the second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score of the first engine, in 0..=1.
    pub fn score(&self) -> Option<f64> {
        let n = f64::from(self.games());
        (n > 0.0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n)
    }
}

/// Game pairs (one opening, seats swapped) counted by the first engine's
/// score over the pair in half points: index 0 is two losses, 2 a win and
/// a loss or two draws, 4 two wins. Pairs are the unit of the statistics,
/// as fastchess and OpenBench count them: the two games of an opening are
/// not independent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs per score, 0 to 4 half points.
    pub counts: [u32; 5],
}

/// An Elo difference with its 95% interval, or as much as the games
/// allow to say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EloEstimate {
    /// Fewer than [`MIN_PAIRS`] pairs.
    TooFewGames,
    /// A two-sided interval.
    Interval {
        /// The estimate.
        elo: f64,
        /// Lower 95% bound.
        low: f64,
        /// Upper 95% bound.
        high: f64,
    },
    /// Only a lower bound (the first engine scored (nearly) everything).
    AtLeast(f64),
    /// Only an upper bound (it scored (nearly) nothing).
    AtMost(f64),
}

impl EloEstimate {
    fn map(self, f: impl Fn(f64) -> f64) -> EloEstimate {
        match self {
            EloEstimate::TooFewGames => EloEstimate::TooFewGames,
            EloEstimate::Interval { elo, low, high } => EloEstimate::Interval {
                elo: f(elo),
                low: f(low),
                high: f(high),
            },
            EloEstimate::AtLeast(low) => EloEstimate::AtLeast(f(low)),
            EloEstimate::AtMost(high) => EloEstimate::AtMost(f(high)),
        }
    }
}

/// Pairs needed before any estimate.
pub const MIN_PAIRS: u32 = 4;

/// The pairs the sequential test's ratio adds to each of the five pair
/// scores before it estimates the spread (see [`Pentanomial::llr`]).
pub const SPRT_PRIOR_PAIRS: f64 = 0.5;

impl std::fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // -0.0 prints as "-0.0": show it as the zero it is.
        let clean = |elo: f64| if elo == 0.0 { 0.0 } else { elo };
        match self.map(clean) {
            EloEstimate::TooFewGames => {
                write!(f, "too few games (fewer than {MIN_PAIRS} pairs)")
            }
            EloEstimate::Interval { elo, low, high } => {
                write!(f, "{elo:+.1} (95%: {low:+.1} to {high:+.1})")
            }
            EloEstimate::AtLeast(low) => write!(f, "at least {low:+.1} (95%, one-sided)"),
            EloEstimate::AtMost(high) => write!(f, "at most {high:+.1} (95%, one-sided)"),
        }
    }
}

impl Pentanomial {
    /// Adds a pair whose score for the first engine is `half_points`
    /// (0..=4; larger values count as 4).
    pub fn add(&mut self, half_points: u8) {
        self.counts[usize::from(half_points.min(4))] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Mean score per game and the variance of a pair's mean score, from
    /// `counts` (possibly regularised).
    fn moments(counts: [f64; 5]) -> Option<(f64, f64)> {
        let n: f64 = counts.iter().sum();
        if n <= 0.0 {
            return None;
        }
        let score = |i: usize| i as f64 / 4.0;
        let mean = (0..5).map(|i| counts[i] * score(i)).sum::<f64>() / n;
        let var = (0..5)
            .map(|i| counts[i] * (score(i) - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }

    /// Elo of the first engine over the second. Below [`MIN_PAIRS`] pairs:
    /// too few games. When the normal interval reaches a score of 0 or 1
    /// (a clean sweep, or nearly), only the other bound is given; with no
    /// spread at all (every pair the same) the chance of another result
    /// is bounded by the rule of three (3/pairs at 95%).
    pub fn elo(&self) -> EloEstimate {
        let pairs = self.pairs();
        let counts = self.counts.map(f64::from);
        let Some((mean, var)) = Self::moments(counts) else {
            return EloEstimate::TooFewGames;
        };
        if pairs < MIN_PAIRS {
            return EloEstimate::TooFewGames;
        }
        let n = f64::from(pairs);
        let half_width = if var > 0.0 {
            1.96 * (var / n).sqrt()
        } else {
            // Every pair scored `mean`; another result, at most this far
            // away, has a chance of at most 3/n.
            3.0 / n * mean.max(1.0 - mean)
        };
        let (low, high) = (mean - half_width, mean + half_width);
        match (low > 0.0, high < 1.0) {
            (true, true) => EloEstimate::Interval {
                elo: score_to_elo(mean),
                low: score_to_elo(low),
                high: score_to_elo(high),
            },
            (true, false) => EloEstimate::AtLeast(score_to_elo(low)),
            (false, true) => EloEstimate::AtMost(score_to_elo(high)),
            (false, false) => EloEstimate::TooFewGames,
        }
    }

    /// Log-likelihood ratio of H1 (elo1) against H0 (elo0), by the normal
    /// approximation over pairs (the generalised SPRT of fishtest and
    /// OpenBench). Every cell gets [`SPRT_PRIOR_PAIRS`] more pairs, so that
    /// a few identical pairs (five level pairs, whose spread is zero) do
    /// not pass for a certainty, while a clean sweep still moves the ratio;
    /// over hundreds of pairs the prior is lost in the counts.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let counts = self.counts.map(|c| f64::from(c) + SPRT_PRIOR_PAIRS);
        // The prior in every cell keeps the spread above zero.
        let Some((mean, var)) = Self::moments(counts) else {
            return 0.0;
        };
        let (s0, s1) = (elo_to_score(elo0), elo_to_score(elo1));
        f64::from(self.pairs()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// Expected score for an Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score strictly between 0 and 1.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Largest Elo an SPRT hypothesis may name.
const MAX_SPRT_ELO: f64 = 1000.0;

/// A sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative.
    pub elo1: f64,
    /// Type I error.
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// H1 accepted: the first engine is stronger by at least elo1.
    AcceptH1,
    /// H0 accepted.
    AcceptH0,
    /// Not decided yet.
    Continue,
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta`: finite Elo values within ±1000 with
    /// elo0 < elo1, and error rates strictly between 0 and 1 whose sum is
    /// below 1 (otherwise the bounds cross).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let values: Vec<f64> = text
            .split(',')
            .map(|part| part.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("--sprt '{text}': expected elo0,elo1,alpha,beta"))?;
        let [elo0, elo1, alpha, beta] = values[..] else {
            return Err(format!("--sprt '{text}': expected four numbers"));
        };
        let elo_ok = |e: f64| e.is_finite() && e.abs() <= MAX_SPRT_ELO;
        if !(elo_ok(elo0) && elo_ok(elo1)) {
            return Err(format!(
                "--sprt '{text}': elo0 and elo1 must be finite, within ±{MAX_SPRT_ELO}"
            ));
        }
        if elo0 >= elo1 {
            return Err(format!("--sprt '{text}': needs elo0 < elo1"));
        }
        let rate_ok = |r: f64| r > 0.0 && r < 1.0;
        if !(rate_ok(alpha) && rate_ok(beta) && alpha + beta < 1.0) {
            return Err(format!(
                "--sprt '{text}': alpha and beta must lie strictly between 0 and 1, with alpha + beta < 1"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Judges the pairs played so far: no verdict before [`MIN_PAIRS`]
    /// pairs, since the ratio of one or two identical pairs has almost no
    /// spread to divide by and would decide at once.
    pub fn verdict(&self, pairs: &Pentanomial) -> SprtVerdict {
        if pairs.pairs() < MIN_PAIRS {
            return SprtVerdict::Continue;
        }
        let llr = pairs.llr(self.elo0, self.elo1);
        let (low, high) = self.bounds();
        if llr >= high {
            SprtVerdict::AcceptH1
        } else if llr <= low {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// Places and points of every engine over a match of any player count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standings {
    /// Per engine: games played.
    pub games: Vec<u32>,
    /// Per engine: sum of places (1 = first).
    pub place_sum: Vec<f64>,
    /// Per engine: points (one per rival beaten, half per tie).
    pub points: Vec<f64>,
    /// Per engine: games in first place (shared first places included).
    pub firsts: Vec<u32>,
    /// Per engine: sum of squared places (for the interval of the average).
    pub place_squares: Vec<f64>,
}

impl Standings {
    /// Empty standings for `engines` engines.
    pub fn new(engines: usize) -> Standings {
        Standings {
            games: vec![0; engines],
            place_sum: vec![0.0; engines],
            points: vec![0.0; engines],
            firsts: vec![0; engines],
            place_squares: vec![0.0; engines],
        }
    }

    /// Adds one game: `seats[i]` is the engine in seat i, `places[i]` that
    /// seat's place (1-based; equal places are ties).
    pub fn add(&mut self, seats: &[usize], places: &[u32]) {
        for (seat, &engine) in seats.iter().enumerate() {
            self.games[engine] += 1;
            self.place_sum[engine] += f64::from(places[seat]);
            self.place_squares[engine] += f64::from(places[seat]).powi(2);
            if places[seat] == 1 {
                self.firsts[engine] += 1;
            }
            for (other, &other_place) in places.iter().enumerate() {
                if other == seat {
                    continue;
                }
                self.points[engine] += match places[seat].cmp(&other_place) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
            }
        }
    }

    /// Average place of an engine.
    pub fn average_place(&self, engine: usize) -> Option<f64> {
        (self.games[engine] > 0).then(|| self.place_sum[engine] / f64::from(self.games[engine]))
    }

    /// The 95% interval of an engine's average place (normal approximation
    /// over its games; an engine plays each game in one seat, so its
    /// places are independent samples). `None` below two games.
    pub fn place_interval(&self, engine: usize) -> Option<(f64, f64)> {
        let n = f64::from(self.games[engine]);
        if n < 2.0 {
            return None;
        }
        let mean = self.place_sum[engine] / n;
        let variance = ((self.place_squares[engine] - n * mean * mean) / (n - 1.0)).max(0.0);
        let half = 1.96 * (variance / n).sqrt();
        Some((mean - half, mean + half))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(counts: [u32; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    #[test]
    fn elo_of_even_and_lopsided_pairs() {
        let Some(EloEstimate::Interval { elo, low, high }) = Some(pairs([5, 0, 10, 0, 5]).elo())
        else {
            panic!("an interval");
        };
        assert!(elo.abs() < 1e-9);
        assert!((high + low).abs() < 1e-9, "symmetric: {low} {high}");
        // Mean 0.5, pair variance 0.125, 20 pairs: 1.96 * 0.0791 = 0.155.
        assert!((high - score_to_elo(0.5 + 1.96 * (0.125f64 / 20.0).sqrt())).abs() < 1e-9);
        let strong = pairs([0, 5, 10, 20, 5]).elo();
        let EloEstimate::Interval { elo, low, high } = strong else {
            panic!("an interval: {strong}");
        };
        assert!((elo - score_to_elo(0.65625)).abs() < 1e-9);
        assert!(low < elo && elo < high);
    }

    #[test]
    fn the_interval_never_degenerates() {
        assert_eq!(Pentanomial::default().elo(), EloEstimate::TooFewGames);
        // 2-0 (one pair won twice): nothing to say.
        assert_eq!(pairs([0, 0, 0, 0, 1]).elo(), EloEstimate::TooFewGames);
        // A clean sweep of 10 pairs: a lower bound only, from 1 - 3/10.
        assert_eq!(
            pairs([0, 0, 0, 0, 10]).elo(),
            EloEstimate::AtLeast(score_to_elo(0.7))
        );
        assert_eq!(
            pairs([10, 0, 0, 0, 0]).elo(),
            EloEstimate::AtMost(score_to_elo(0.3))
        );
        // All pairs level: an interval around 0 of width 3/n * 0.5.
        assert_eq!(
            pairs([0, 0, 10, 0, 0]).elo(),
            EloEstimate::Interval {
                elo: 0.0,
                low: score_to_elo(0.35),
                high: score_to_elo(0.65)
            }
        );
        // Nearly a sweep: the upper bound would pass a score of 1.
        assert!(matches!(
            pairs([0, 0, 0, 1, 9]).elo(),
            EloEstimate::AtLeast(low) if low > 0.0 && low.is_finite()
        ));
        assert_eq!(
            pairs([0, 0, 0, 0, 6]).elo().to_string(),
            "at least +0.0 (95%, one-sided)"
        );
        for estimate in [pairs([0, 0, 0, 0, 10]).elo(), pairs([1, 2, 3, 2, 1]).elo()] {
            assert!(!estimate.to_string().contains("inf"), "{estimate}");
            assert!(!estimate.to_string().contains("NaN"), "{estimate}");
        }
    }

    #[test]
    fn sprt_accepts_clear_results_and_waits_on_close_ones() {
        let sprt = Sprt::parse("0,10,0.05,0.05").expect("valid");
        assert_eq!(
            sprt.verdict(&pairs([10, 50, 200, 300, 100])),
            SprtVerdict::AcceptH1
        );
        assert_eq!(
            sprt.verdict(&pairs([100, 300, 200, 50, 10])),
            SprtVerdict::AcceptH0
        );
        assert_eq!(sprt.verdict(&pairs([1, 2, 3, 2, 1])), SprtVerdict::Continue);
        // One lost pair (e.g. two forfeits) decides nothing.
        assert_eq!(sprt.verdict(&pairs([1, 0, 0, 0, 0])), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(&pairs([3, 0, 0, 0, 0])), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(&pairs([4, 0, 0, 0, 0])), SprtVerdict::Continue);
        assert_eq!(
            sprt.verdict(&pairs([40, 0, 0, 0, 0])),
            SprtVerdict::AcceptH0
        );
        // Level pairs only: no spread, but no certainty either (five of
        // them once accepted H0, a match of 11 games ending there).
        assert_eq!(sprt.verdict(&pairs([0, 0, 5, 0, 0])), SprtVerdict::Continue);
        assert_eq!(
            sprt.verdict(&pairs([0, 0, 50, 0, 0])),
            SprtVerdict::Continue
        );
        // A sweep moves the ratio despite no spread.
        assert_eq!(
            sprt.verdict(&pairs([0, 0, 0, 0, 200])),
            SprtVerdict::AcceptH1
        );
    }

    #[test]
    fn sprt_parameters_are_checked() {
        assert!(Sprt::parse("0,5,0.05,0.05").is_ok());
        for bad in [
            "10,0,0.05,0.05",
            "5,5,0.05,0.05",
            "0,10,0.05",
            "-inf,10,0.05,0.05",
            "0,inf,0.05,0.05",
            "NaN,10,0.05,0.05",
            "0,10,NaN,0.05",
            "0,10,0,0.05",
            "0,10,0.05,1",
            "0,10,-0.1,0.05",
            "0,10,0.6,0.6",
            "0,2000,0.05,0.05",
            "a,b,c,d",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn standings_points_and_places_add_up() {
        let mut standings = Standings::new(2);
        // Three seats, engines 0,1,0; places 2,1,3.
        standings.add(&[0, 1, 0], &[2, 1, 3]);
        assert_eq!(standings.games, vec![2, 1]);
        assert_eq!(standings.points, vec![1.0, 2.0]);
        // Total points in a game of n players is n(n-1)/2 = 3.
        assert_eq!(standings.points.iter().sum::<f64>(), 3.0);
        assert_eq!(standings.average_place(1), Some(1.0));
        assert_eq!(standings.average_place(0), Some(2.5));
        assert_eq!(standings.firsts, vec![0, 1]);
        // Places 2 and 3: mean 2.5, sample variance 0.5, half width
        // 1.96 * sqrt(0.5 / 2) = 0.98.
        let (low, high) = standings.place_interval(0).expect("two games");
        assert!(
            (low - 1.52).abs() < 1e-9 && (high - 3.48).abs() < 1e-9,
            "{low} {high}"
        );
        assert_eq!(standings.place_interval(1), None);
    }
}
