//! Match statistics: win/draw/loss tallies, Elo with a 95% interval, the
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

    /// Per-game variance of the score.
    fn variance(&self) -> Option<f64> {
        let n = f64::from(self.games());
        let s = self.score()?;
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        Some(var)
    }

    /// Elo difference and the half-width of its 95% interval. `None` until
    /// a game is played; infinite values are clamped to ±1000.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let sigma = (self.variance()? / n).sqrt();
        let low = score_to_elo(s - 1.96 * sigma);
        let high = score_to_elo(s + 1.96 * sigma);
        Some((score_to_elo(s), (high - low) / 2.0))
    }

    /// Log-likelihood ratio of H1 (elo1) against H0 (elo0), with the
    /// normal approximation to the trinomial used by common test frameworks.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let (Some(s), Some(var)) = (self.score(), self.variance()) else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = elo_to_score(elo0);
        let s1 = elo_to_score(elo1);
        f64::from(self.games()) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }
}

/// Expected score for an Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score, clamped to ±1000.
pub fn score_to_elo(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-1000.0, 1000.0)
}

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
    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let values: Vec<f64> = text
            .split(',')
            .map(|part| part.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("SPRT '{text}': expected elo0,elo1,alpha,beta"))?;
        let [elo0, elo1, alpha, beta] = values[..] else {
            return Err(format!("SPRT '{text}': expected four numbers"));
        };
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5 && elo1 > elo0) {
            return Err(format!(
                "SPRT '{text}': needs elo1 > elo0 and 0 < alpha, beta < 0.5"
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

    /// Judges a tally.
    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        let llr = tally.llr(self.elo0, self.elo1);
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
}

impl Standings {
    /// Empty standings for `engines` engines.
    pub fn new(engines: usize) -> Standings {
        Standings {
            games: vec![0; engines],
            place_sum: vec![0.0; engines],
            points: vec![0.0; engines],
        }
    }

    /// Adds one game: `seats[i]` is the engine in seat i, `places[i]` that
    /// seat's place (1-based; equal places are ties).
    pub fn add(&mut self, seats: &[usize], places: &[u32]) {
        for (seat, &engine) in seats.iter().enumerate() {
            self.games[engine] += 1;
            self.place_sum[engine] += f64::from(places[seat]);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let (elo, err) = even.elo().expect("games played");
        assert!(elo.abs() < 1e-9);
        assert!(err > 100.0 && err < 400.0, "{err}");
        let strong = Tally {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        let (elo, _) = strong.elo().expect("games played");
        assert!((elo - 190.8).abs() < 0.5, "{elo}");
        assert_eq!(Tally::default().elo(), None);
    }

    #[test]
    fn sprt_accepts_clear_results_and_waits_on_close_ones() {
        let sprt = Sprt::parse("0,10,0.05,0.05").expect("valid");
        let clear = Tally {
            wins: 900,
            draws: 100,
            losses: 100,
        };
        assert_eq!(sprt.verdict(&clear), SprtVerdict::AcceptH1);
        let bad = Tally {
            wins: 100,
            draws: 100,
            losses: 900,
        };
        assert_eq!(sprt.verdict(&bad), SprtVerdict::AcceptH0);
        let close = Tally {
            wins: 5,
            draws: 2,
            losses: 5,
        };
        assert_eq!(sprt.verdict(&close), SprtVerdict::Continue);
        assert!(Sprt::parse("10,0,0.05,0.05").is_err());
        assert!(Sprt::parse("0,10,0.05").is_err());
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
    }
}
