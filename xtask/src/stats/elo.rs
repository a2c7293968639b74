//! Elo arithmetic on game results: the logistic Elo difference, its 95% interval, the likelihood of superiority
//! and normalized Elo, from win/draw/loss counts (each game on its own) or from pentanomial counts (the results
//! of colour-swapped game pairs). The formulas are those of fastchess and OpenBench, so the figures can be
//! compared with theirs; the unit tests check fastchess's published test values.

use serde::Serialize;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference that gives an expected `score` in [0, 1]: −400·log10(1/score − 1), infinite at 0
/// and 1.
pub fn logistic_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // The same as −400·log10(1/s − 1), written so that a 50% score gives +0.0 rather than −0.0.
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// The expected score of a side that is `elo` logistic Elo stronger: 1 / (1 + 10^(−elo/400)).
pub fn score_from_logistic_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Scale from a normalized t-value to normalized Elo: 800 / ln 10.
pub const NORMALIZED_ELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// One game's result from one side's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The side won.
    Win,
    /// The game was drawn.
    Draw,
    /// The side lost.
    Loss,
}

/// Win, draw and loss counts of one side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts one more game.
    pub fn record(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// The number of games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, (W + D/2) / N; `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / games as f64)
    }
}

/// The results of game pairs — the two games of one opening with colours swapped — by the pair's total:
/// loss+loss scores 0, loss+draw ½, draw+draw or win+loss 1, win+draw 1½, win+win 2 points of 2.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    /// Pairs with two losses.
    pub loss_loss: u64,
    /// Pairs with a loss and a draw.
    pub loss_draw: u64,
    /// Pairs with a win and a loss.
    pub win_loss: u64,
    /// Pairs with two draws.
    pub draw_draw: u64,
    /// Pairs with a win and a draw.
    pub win_draw: u64,
    /// Pairs with two wins.
    pub win_win: u64,
}

impl Pentanomial {
    /// The mean score per game of each of the five pair classes, in the order of [`Pentanomial::counts`].
    pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// Counts one finished pair from the two games' outcomes (in either order).
    pub fn record(&mut self, first: Outcome, second: Outcome) {
        use Outcome::{Draw, Loss, Win};
        match (first, second) {
            (Loss, Loss) => self.loss_loss += 1,
            (Loss, Draw) | (Draw, Loss) => self.loss_draw += 1,
            (Win, Loss) | (Loss, Win) => self.win_loss += 1,
            (Draw, Draw) => self.draw_draw += 1,
            (Win, Draw) | (Draw, Win) => self.win_draw += 1,
            (Win, Win) => self.win_win += 1,
        }
    }

    /// The number of pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts().iter().sum()
    }

    /// The counts of the five pair scores 0, ¼, ½, ¾, 1 (win+loss and draw+draw merged: both score ½).
    pub fn counts(&self) -> [u64; 5] {
        [
            self.loss_loss,
            self.loss_draw,
            self.win_loss + self.draw_draw,
            self.win_draw,
            self.win_win,
        ]
    }
}

/// An Elo estimate with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EloEstimate {
    /// What the estimate was computed from: `"pentanomial"` (game pairs) or `"wdl"` (single games).
    pub model: &'static str,
    /// Mean points per game.
    pub score: f64,
    /// Standard error of the mean score.
    pub score_stderr: f64,
    /// Logistic Elo difference.
    pub elo: f64,
    /// Lower end of the 95% interval of the Elo difference.
    pub elo_low: f64,
    /// Upper end of the 95% interval.
    pub elo_high: f64,
    /// Half the interval's width: the "±" figure (the interval is not symmetric around `elo`).
    pub elo_error: f64,
    /// Likelihood of superiority: the probability that the side is the stronger, Φ((score − ½) / stderr).
    pub los: f64,
    /// Normalized Elo (Elo per unit of the result's standard deviation, as fishtest and fastchess define it).
    pub normalized_elo: f64,
    /// Half the width of normalized Elo's 95% interval.
    pub normalized_elo_error: f64,
}

impl EloEstimate {
    /// The estimate from single-game counts (a trinomial model); `None` before the first game.
    pub fn from_wdl(wdl: &Wdl) -> Option<EloEstimate> {
        let games = wdl.games();
        let score = wdl.score()?;
        let frequencies = [wdl.losses, wdl.draws, wdl.wins].map(|count| count as f64 / games as f64);
        let variance = variance_around(&[0.0, 0.5, 1.0], &frequencies, score);
        // Normalized Elo divides the score's distance from ½ by the per-game standard deviation.
        let normalized = |s: f64| (s - 0.5) / variance.sqrt() * NORMALIZED_ELO_SCALE;
        Some(EloEstimate::new(
            "wdl",
            score,
            variance / games as f64,
            normalized,
        ))
    }

    /// The estimate from game pairs; `None` before the first complete pair.
    pub fn from_pentanomial(pentanomial: &Pentanomial) -> Option<EloEstimate> {
        let pairs = pentanomial.pairs();
        if pairs == 0 {
            return None;
        }
        let frequencies = pentanomial.counts().map(|count| count as f64 / pairs as f64);
        let score: f64 = Pentanomial::PAIR_SCORES
            .iter()
            .zip(&frequencies)
            .map(|(a, p)| a * p)
            .sum();
        let variance = variance_around(&Pentanomial::PAIR_SCORES, &frequencies, score);
        // A pair's score is the mean of two games, so one game's deviation is √2 times the pair's.
        let normalized = |s: f64| (s - 0.5) / (2.0 * variance).sqrt() * NORMALIZED_ELO_SCALE;
        Some(EloEstimate::new(
            "pentanomial",
            score,
            variance / pairs as f64,
            normalized,
        ))
    }

    fn new(
        model: &'static str,
        score: f64,
        score_variance: f64,
        normalized: impl Fn(f64) -> f64,
    ) -> EloEstimate {
        let stderr = score_variance.sqrt();
        let los = if stderr > 0.0 {
            normal_cdf((score - 0.5) / stderr)
        } else if score > 0.5 {
            1.0
        } else if score < 0.5 {
            0.0
        } else {
            0.5
        };
        if stderr == 0.0 {
            // Every game (or pair) had the same result: the data say nothing about the spread, so the interval
            // is unbounded and normalized Elo, which divides by the spread, is undefined.
            return EloEstimate {
                model,
                score,
                score_stderr: 0.0,
                elo: logistic_elo(score),
                elo_low: f64::NEG_INFINITY,
                elo_high: f64::INFINITY,
                elo_error: f64::INFINITY,
                los,
                normalized_elo: f64::NAN,
                normalized_elo_error: f64::NAN,
            };
        }
        let low = score - Z95 * stderr;
        let high = score + Z95 * stderr;
        let (elo_low, elo_high) = (logistic_elo(low), logistic_elo(high));
        EloEstimate {
            model,
            score,
            score_stderr: stderr,
            elo: logistic_elo(score),
            elo_low,
            elo_high,
            elo_error: (elo_high - elo_low) / 2.0,
            los,
            normalized_elo: normalized(score),
            normalized_elo_error: (normalized(high) - normalized(low)) / 2.0,
        }
    }

    /// `+29.4 ± 31.2 [−1.8, +60.6]`; with a 0% or 100% score the estimate and interval end are infinite.
    pub fn display(&self) -> String {
        format!(
            "{} ± {} [{}, {}]",
            signed(self.elo),
            unsigned(self.elo_error),
            signed(self.elo_low),
            signed(self.elo_high)
        )
    }
}

/// `+12.3`, `-4.0`, `+inf`, `-inf`, `n/a`.
pub fn signed(value: f64) -> String {
    if value.is_nan() {
        "n/a".into()
    } else if value.is_infinite() {
        if value > 0.0 { "+inf".into() } else { "-inf".into() }
    } else {
        format!("{value:+.1}")
    }
}

/// `12.3`, `inf`, `n/a`.
pub fn unsigned(value: f64) -> String {
    if value.is_nan() {
        "n/a".into()
    } else if value.is_finite() {
        format!("{value:.1}")
    } else {
        "inf".into()
    }
}

/// Σ pᵢ (aᵢ − mean)²: the variance of a discrete distribution of `scores` with `frequencies` around `mean`.
pub fn variance_around(scores: &[f64], frequencies: &[f64], mean: f64) -> f64 {
    scores
        .iter()
        .zip(frequencies)
        .map(|(a, p)| p * (a - mean).powi(2))
        .sum()
}

/// The standard normal distribution function Φ(x) = ½ erfc(−x/√2), with `statrs`'s erfc.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * statrs::function::erf::erfc(-x / std::f64::consts::SQRT_2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
        (actual - expected).abs() <= tolerance
    }

    #[test]
    fn logistic_elo_of_known_scores() {
        assert!(close(logistic_elo(0.75), 190.848, 0.001)); // 400·log10(3)
        assert_eq!(logistic_elo(0.5), 0.0);
        assert!(logistic_elo(0.5).is_sign_positive());
        assert_eq!(logistic_elo(1.0), f64::INFINITY);
        assert_eq!(logistic_elo(0.0), f64::NEG_INFINITY);
        assert!(close(score_from_logistic_elo(logistic_elo(0.3)), 0.3, 1e-12));
    }

    #[test]
    fn the_normal_distribution_function_matches_known_values() {
        // Φ(1) = 0.8413447460685429, Φ(−0.5) = 0.3085375387259869 (Abramowitz & Stegun, table 26.1).
        // statrs's erfc is good to about 1e-11 here: far finer than the 0.1% LOS is printed to.
        assert!(close(normal_cdf(1.0), 0.841_344_746_068_542_9, 1e-10));
        assert!(close(normal_cdf(-0.5), 0.308_537_538_725_986_9, 1e-10));
        assert!(close(normal_cdf(Z95), 0.975, 1e-7));
        assert_eq!(normal_cdf(0.0), 0.5);
    }

    // Published values: fastchess, app/tests/elo_test.cpp ("EloWDL 1/2", "EloPentanomial 1/2/3"), which checks
    // them to 1% relative. Its Stats(w, l, d) takes wins, losses, draws; Stats(ll, ld, wl, dd, wd, ww) pairs.
    #[test]
    fn wdl_estimate_matches_fastchess() {
        let first = EloEstimate::from_wdl(&Wdl {
            wins: 76,
            draws: 123,
            losses: 89,
        })
        .unwrap();
        assert!(close(first.normalized_elo, -20.76, 0.01), "{first:?}");
        assert!(close(first.normalized_elo_error, 40.13, 0.01), "{first:?}");
        assert_eq!(format!("{:.2}", first.los * 100.0), "15.53");

        let second = EloEstimate::from_wdl(&Wdl {
            wins: 136,
            draws: 111,
            losses: 96,
        })
        .unwrap();
        assert!(close(second.elo, 40.70, 0.01), "{second:?}");
        assert!(close(second.elo_error, 30.43, 0.01), "{second:?}");
        assert!(close(second.normalized_elo, 49.77, 0.01), "{second:?}");
        assert!(close(second.normalized_elo_error, 36.77, 0.01), "{second:?}");
        assert_eq!(format!("{:.2}", second.los * 100.0), "99.60");
    }

    #[test]
    fn wdl_estimate_matches_the_python_runner() {
        // tools/strength/README.md: a 30/60/10 match is +70.4 ± 43 [+29, +114].
        let estimate = EloEstimate::from_wdl(&Wdl {
            wins: 30,
            draws: 60,
            losses: 10,
        })
        .unwrap();
        assert!(close(estimate.elo, 70.4, 0.05));
        assert!(
            close(estimate.elo_low, 29.0, 0.5) && close(estimate.elo_high, 114.0, 0.5),
            "{estimate:?}"
        );
    }

    #[test]
    fn pentanomial_estimate_matches_fastchess() {
        let pairs = |ll, ld, wl, dd, wd, ww| Pentanomial {
            loss_loss: ll,
            loss_draw: ld,
            win_loss: wl,
            draw_draw: dd,
            win_draw: wd,
            win_win: ww,
        };
        let first = EloEstimate::from_pentanomial(&pairs(34, 54, 31, 32, 64, 75)).unwrap();
        assert!(close(first.normalized_elo, 57.94, 0.01), "{first:?}");
        assert!(close(first.normalized_elo_error, 28.28, 0.01), "{first:?}");
        assert!(close(first.elo, 55.58, 0.01), "{first:?}");
        assert!(close(first.elo_error, 27.65, 0.01), "{first:?}");
        assert_eq!(format!("{:.2}", first.los * 100.0), "100.00");

        let second = EloEstimate::from_pentanomial(&pairs(332, 433, 457, 41, 333, 334)).unwrap();
        assert!(close(second.normalized_elo, -9.17, 0.01), "{second:?}");
        assert!(close(second.normalized_elo_error, 10.96, 0.01), "{second:?}");
        assert!(close(second.elo, -8.64, 0.01), "{second:?}");
        assert!(close(second.elo_error, 10.33, 0.01), "{second:?}");
        assert_eq!(format!("{:.2}", second.los * 100.0), "5.05");

        let third = EloEstimate::from_pentanomial(&pairs(7895, 8757, 5485, 200, 568, 9999)).unwrap();
        assert!(close(third.normalized_elo, -19.01, 0.01), "{third:?}");
        assert!(close(third.normalized_elo_error, 2.65, 0.01), "{third:?}");
        assert!(close(third.elo, -21.04, 0.01), "{third:?}");
        assert!(close(third.elo_error, 2.95, 0.01), "{third:?}");
    }

    #[test]
    fn pairs_are_counted_by_their_total() {
        let mut pentanomial = Pentanomial::default();
        pentanomial.record(Outcome::Win, Outcome::Loss);
        pentanomial.record(Outcome::Draw, Outcome::Draw);
        pentanomial.record(Outcome::Draw, Outcome::Win);
        assert_eq!(pentanomial.counts(), [0, 0, 2, 1, 0]);
        assert_eq!(pentanomial.pairs(), 3);
    }

    #[test]
    fn no_games_no_estimate_and_perfect_scores_are_infinite() {
        assert!(EloEstimate::from_wdl(&Wdl::default()).is_none());
        assert!(EloEstimate::from_pentanomial(&Pentanomial::default()).is_none());
        let all_wins = EloEstimate::from_wdl(&Wdl {
            wins: 4,
            draws: 0,
            losses: 0,
        })
        .unwrap();
        assert_eq!(all_wins.elo, f64::INFINITY);
        assert_eq!(all_wins.los, 1.0);
        assert_eq!(all_wins.display(), "+inf ± inf [-inf, +inf]");
        // One pair with a loss and a draw: a score, but no spread to build an interval on.
        let one_pair = Pentanomial {
            loss_draw: 1,
            ..Pentanomial::default()
        };
        let estimate = EloEstimate::from_pentanomial(&one_pair).unwrap();
        assert!((estimate.elo + 190.848).abs() < 0.001);
        assert_eq!(estimate.display(), "-190.8 ± inf [-inf, +inf]");
        assert!(estimate.normalized_elo.is_nan());
        assert_eq!(signed(estimate.normalized_elo), "n/a");
    }
}
