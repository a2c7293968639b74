//! Summaries of repeated measurements: median and spread of a sample, geometric means of ratios, speedups,
//! overheads and the noise verdict of `cargo xtask bench --compare`.
//!
//! Timings on shared machines are noisy and skewed (a run is slowed, rarely sped up), so a sample is summarised
//! by its median and its range rather than mean and standard deviation; ratios over positions of very different
//! sizes are combined with the geometric mean, which weighs a 2× on a 10 ms position like a 2× on a 10 s one.

use serde::{Deserialize, Serialize};

/// Median and range of a sample of repeated measurements.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// The median.
    pub median: f64,
    /// The smallest value.
    pub min: f64,
    /// The largest value.
    pub max: f64,
    /// How many values.
    pub count: usize,
}

impl Spread {
    /// The summary of `values`, or `None` for an empty sample or one holding a NaN.
    pub fn of(values: &[f64]) -> Option<Spread> {
        if values.is_empty() || values.iter().any(|v| v.is_nan()) {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        Some(Spread {
            median: median_of_sorted(&sorted),
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            count: sorted.len(),
        })
    }

    /// Half the range relative to the median: ±0.05 means the repeats lay within about ±5% of it.
    pub fn relative_half_range(&self) -> f64 {
        if self.median == 0.0 {
            0.0
        } else {
            (self.max - self.min) / 2.0 / self.median.abs()
        }
    }
}

fn median_of_sorted(sorted: &[f64]) -> f64 {
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    }
}

/// The median of `values` (`None` when empty or holding a NaN).
pub fn median(values: &[f64]) -> Option<f64> {
    Spread::of(values).map(|s| s.median)
}

/// The geometric mean of positive `values` (`None` when empty or when any value is not positive and finite).
pub fn geometric_mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|&v| !(v.is_finite() && v > 0.0)) {
        return None;
    }
    let log_sum: f64 = values.iter().map(|v| v.ln()).sum();
    Some((log_sum / values.len() as f64).exp())
}

/// Time-to-depth speedup: how many times faster `time` is than `baseline` (`None` for a zero time).
pub fn speedup(baseline: f64, time: f64) -> Option<f64> {
    (baseline > 0.0 && time > 0.0).then(|| baseline / time)
}

/// Node overhead: nodes searched relative to the baseline's (1.10 = 10% more nodes).
pub fn overhead(baseline_nodes: f64, nodes: f64) -> Option<f64> {
    (baseline_nodes > 0.0 && nodes > 0.0).then(|| nodes / baseline_nodes)
}

/// NPS efficiency: the NPS gained per thread relative to one thread (1.0 = perfectly linear).
pub fn nps_efficiency(nps_one_thread: f64, nps: f64, threads: usize) -> Option<f64> {
    (nps_one_thread > 0.0 && threads > 0).then(|| nps / (nps_one_thread * threads as f64))
}

/// Whether a larger value of a metric is better (speedup, NPS) or worse (time, node overhead).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Direction {
    /// Larger is better.
    HigherIsBetter,
    /// Smaller is better.
    LowerIsBetter,
}

/// The verdict on a change between two measurements of one metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// Better by more than the noise of either run.
    Better,
    /// Worse by more than the noise of either run.
    Worse,
    /// The change is within the noise of the runs.
    Noise,
}

impl Verdict {
    /// The word shown in tables.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Better => "better",
            Verdict::Worse => "worse",
            Verdict::Noise => "noise",
        }
    }
}

/// The relative change from `old` to `new` (+0.10 = 10% larger) and its verdict.
///
/// A change counts only when the two runs' ranges do not overlap: the new median lies outside the old run's
/// range *and* the old median outside the new one's. With single runs (no range) a change under 2% is
/// called noise, the run-to-run variation this project sees on an idle machine.
pub fn compare(old: &Spread, new: &Spread, direction: Direction) -> (f64, Verdict) {
    let change = if old.median == 0.0 {
        0.0
    } else {
        new.median / old.median - 1.0
    };
    let single = old.count < 2 && new.count < 2;
    let separated = if single {
        change.abs() > 0.02
    } else {
        (new.median > old.max || new.median < old.min) && (old.median > new.max || old.median < new.min)
    };
    let verdict = if !separated || change == 0.0 {
        Verdict::Noise
    } else if (change > 0.0) == (direction == Direction::HigherIsBetter) {
        Verdict::Better
    } else {
        Verdict::Worse
    };
    (change, verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn median_of_odd_and_even_samples() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[7.0]), Some(7.0));
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[1.0, f64::NAN]), None);
    }

    #[test]
    fn spread_keeps_the_range_and_count() {
        let spread = Spread::of(&[10.0, 12.0, 9.0, 11.0, 30.0]).unwrap();
        assert_eq!(spread.median, 11.0);
        assert_eq!((spread.min, spread.max, spread.count), (9.0, 30.0, 5));
        assert!(close(spread.relative_half_range(), 21.0 / 2.0 / 11.0));
    }

    #[test]
    fn geometric_mean_of_ratios() {
        assert!(close(geometric_mean(&[2.0, 8.0]).unwrap(), 4.0));
        assert!(close(geometric_mean(&[1.5]).unwrap(), 1.5));
        // A 2x and a 0.5x cancel: the property the arithmetic mean (1.25) lacks.
        assert!(close(geometric_mean(&[2.0, 0.5]).unwrap(), 1.0));
        assert_eq!(geometric_mean(&[]), None);
        assert_eq!(geometric_mean(&[1.0, 0.0]), None);
        assert_eq!(geometric_mean(&[1.0, -2.0]), None);
    }

    #[test]
    fn speedup_overhead_and_efficiency() {
        assert!(close(speedup(10.0, 5.0).unwrap(), 2.0));
        assert_eq!(speedup(10.0, 0.0), None);
        assert!(close(overhead(1_000.0, 1_080.0).unwrap(), 1.08));
        assert_eq!(overhead(0.0, 10.0), None);
        assert!(close(nps_efficiency(1e6, 1.9e6, 2).unwrap(), 0.95));
        assert_eq!(nps_efficiency(0.0, 1.0, 2), None);
    }

    #[test]
    fn compare_calls_overlapping_ranges_noise() {
        let old = Spread::of(&[100.0, 104.0, 98.0]).unwrap();
        let new = Spread::of(&[103.0, 99.0, 105.0]).unwrap();
        let (change, verdict) = compare(&old, &new, Direction::HigherIsBetter);
        assert!(close(change, 103.0 / 100.0 - 1.0));
        assert_eq!(verdict, Verdict::Noise);
    }

    #[test]
    fn compare_separated_ranges_by_direction() {
        let old = Spread::of(&[100.0, 101.0, 99.0]).unwrap();
        let new = Spread::of(&[120.0, 118.0, 121.0]).unwrap();
        assert_eq!(compare(&old, &new, Direction::HigherIsBetter).1, Verdict::Better);
        assert_eq!(compare(&old, &new, Direction::LowerIsBetter).1, Verdict::Worse);
        assert_eq!(compare(&new, &old, Direction::LowerIsBetter).1, Verdict::Better);
    }

    #[test]
    fn compare_needs_both_medians_outside_the_other_range() {
        // The new median is above the old range, but the new run is so noisy that the old median lies inside it.
        let old = Spread::of(&[100.0, 101.0, 99.0]).unwrap();
        let new = Spread::of(&[90.0, 105.0, 130.0]).unwrap();
        assert_eq!(compare(&old, &new, Direction::HigherIsBetter).1, Verdict::Noise);
    }

    #[test]
    fn compare_single_runs_uses_a_two_percent_threshold() {
        let one = |v| Spread::of(&[v]).unwrap();
        assert_eq!(
            compare(&one(100.0), &one(101.5), Direction::HigherIsBetter).1,
            Verdict::Noise
        );
        assert_eq!(
            compare(&one(100.0), &one(97.0), Direction::HigherIsBetter).1,
            Verdict::Worse
        );
    }
}
