//! Several table sizes as several draws of the one-thread baseline (`--hash 32,64,128`).
//!
//! A one-thread search is deterministic: the repeats of a bench re-time one tree per position, so every
//! position's baseline is a single draw of the serial search's luck. That luck is large at long depths — the
//! same serial search needs a third or twice and a half the nodes of a position with another table size, and
//! chooses another move in a third of the positions (docs/parallel-search.md) — and repeats cannot average it
//! out. Each table size gives another draw: the whole bench runs once per size, every configuration against the
//! one-thread baseline *of the same size* (so the size's own effect on the tree cancels), and the figures are
//! pooled over all (size, position) pairs.

use super::model::ConfigSummary;
use super::output::{cell, percent};
use crate::report::csv::Csv;
use crate::report::table::Table;
use crate::stats::summary::{geometric_mean, median};

/// One configuration's figures pooled over the table sizes.
#[derive(Debug, Clone, PartialEq)]
pub struct PooledRow {
    /// The configuration's label.
    pub algorithm: String,
    /// Its thread count.
    pub threads: usize,
    /// The (table size, position) pairs pooled.
    pub draws: usize,
    /// Geometric mean over the draws of the time to depth against the same size's one thread.
    pub speedup: Option<f64>,
    /// The factor of the speedup's 95% interval (from the draws' spread, as if they were independent).
    pub speedup_interval: Option<f64>,
    /// Geometric mean over the draws of the nodes against the same size's one thread.
    pub node_overhead: Option<f64>,
    /// Median over the sizes of the NPS against the same size's one thread.
    pub nps_ratio: Option<f64>,
    /// Median over the sizes of YBWC's share of nodes past a split point's cutoff.
    pub speculative_share: Option<f64>,
}

/// One configuration's figures at one table size, as pooling reads them.
#[derive(Debug, Clone, PartialEq)]
struct SizeFigures {
    algorithm: String,
    threads: usize,
    /// Per position: time to depth against the size's one thread.
    speedups: Vec<f64>,
    /// Per position: nodes against the size's one thread.
    overheads: Vec<f64>,
    nps_ratio: Option<f64>,
    speculative_share: Option<f64>,
}

impl From<&ConfigSummary> for SizeFigures {
    fn from(summary: &ConfigSummary) -> Self {
        SizeFigures {
            algorithm: summary.algorithm.clone(),
            threads: summary.threads,
            speedups: summary.per_position.iter().filter_map(|p| p.speedup).collect(),
            overheads: summary
                .per_position
                .iter()
                .filter_map(|p| p.node_overhead)
                .collect(),
            nps_ratio: summary.nps_ratio.as_ref().map(|x| x.median),
            speculative_share: summary.speculative_share.as_ref().map(|x| x.median),
        }
    }
}

/// Pools the summaries of one bench per table size by configuration.
pub fn pool(by_size: &[(u64, Vec<ConfigSummary>)]) -> Vec<PooledRow> {
    let figures: Vec<Vec<SizeFigures>> = by_size
        .iter()
        .map(|(_, summaries)| summaries.iter().map(SizeFigures::from).collect())
        .collect();
    pool_figures(&figures)
}

fn pool_figures(by_size: &[Vec<SizeFigures>]) -> Vec<PooledRow> {
    let Some(first) = by_size.first() else {
        return Vec::new();
    };
    first
        .iter()
        .map(|config| {
            let same: Vec<&SizeFigures> = by_size
                .iter()
                .filter_map(|size| {
                    size.iter()
                        .find(|s| s.algorithm == config.algorithm && s.threads == config.threads)
                })
                .collect();
            let speedups: Vec<f64> = same.iter().flat_map(|s| s.speedups.iter().copied()).collect();
            let overheads: Vec<f64> = same.iter().flat_map(|s| s.overheads.iter().copied()).collect();
            let median_of = |value: &dyn Fn(&SizeFigures) -> Option<f64>| -> Option<f64> {
                let values: Vec<f64> = same.iter().filter_map(|s| value(s)).collect();
                median(&values)
            };
            PooledRow {
                algorithm: config.algorithm.clone(),
                threads: config.threads,
                draws: speedups.len(),
                speedup: geometric_mean(&speedups),
                speedup_interval: interval_factor(&speedups),
                node_overhead: geometric_mean(&overheads),
                nps_ratio: median_of(&|s| s.nps_ratio),
                speculative_share: median_of(&|s| s.speculative_share),
            }
        })
        .collect()
}

/// exp(1.96 · sd / √n) of the ratios' logarithms: a geometric mean's 95% interval is [g ÷ f, g × f].
fn interval_factor(ratios: &[f64]) -> Option<f64> {
    let logs: Vec<f64> = ratios.iter().filter(|r| **r > 0.0).map(|r| r.ln()).collect();
    if logs.len() < 2 {
        return None;
    }
    let n = logs.len() as f64;
    let mean = logs.iter().sum::<f64>() / n;
    let variance = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1.0);
    Some((1.96 * (variance / n).sqrt()).exp())
}

fn figure(value: Option<f64>, decimals: usize) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.decimals$}"))
}

/// The pooled table: one row per configuration with more than one thread.
pub fn table(rows: &[PooledRow], sizes: &[u64]) -> Table {
    let mut table = Table::new([
        "algorithm",
        "threads",
        "draws",
        "speedup",
        "95% interval",
        "overhead",
        "NPS ×",
        "past cut",
    ]);
    for row in rows.iter().filter(|r| r.threads > 1) {
        let interval = match (row.speedup, row.speedup_interval) {
            (Some(s), Some(f)) => format!("{:.2}–{:.2}", s / f, s * f),
            _ => "-".to_string(),
        };
        table.push([
            row.algorithm.clone(),
            row.threads.to_string(),
            format!("{} ({} sizes)", row.draws, sizes.len()),
            figure(row.speedup, 2),
            interval,
            figure(row.node_overhead, 2),
            figure(row.nps_ratio, 2),
            percent(row.speculative_share),
        ]);
    }
    table
}

/// `pooled.csv`: the pooled rows.
pub fn csv(rows: &[PooledRow]) -> Csv {
    let mut csv = Csv::new(&[
        "algorithm",
        "threads",
        "draws",
        "speedup",
        "speedup_interval_factor",
        "node_overhead",
        "nps_ratio",
        "speculative_share",
    ]);
    for row in rows {
        csv.row(&[
            row.algorithm.clone(),
            row.threads.to_string(),
            row.draws.to_string(),
            cell(row.speedup),
            cell(row.speedup_interval),
            cell(row.node_overhead),
            cell(row.nps_ratio),
            cell(row.speculative_share),
        ]);
    }
    csv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(threads: usize, speedups: &[f64], overheads: &[f64], nps: f64) -> SizeFigures {
        SizeFigures {
            algorithm: "ybwc".into(),
            threads,
            speedups: speedups.to_vec(),
            overheads: overheads.to_vec(),
            nps_ratio: Some(nps),
            speculative_share: (threads > 1).then_some(0.04),
        }
    }

    #[test]
    fn draws_of_every_size_pool_into_one_geometric_mean() {
        let one = || figures(1, &[1.0, 1.0], &[1.0, 1.0], 1.0);
        let by_size = vec![
            vec![one(), figures(2, &[1.0, 4.0], &[1.0, 0.5], 1.8)],
            vec![one(), figures(2, &[2.0, 2.0], &[1.0, 1.0], 2.0)],
            vec![one(), figures(2, &[0.5, 4.0], &[2.0, 1.0], 1.9)],
        ];
        let rows = pool_figures(&by_size);
        let two = rows.iter().find(|r| r.threads == 2).unwrap();
        assert_eq!(two.draws, 6);
        // (1 · 4 · 2 · 2 · 0.5 · 4)^(1/6) = 32^(1/6)
        assert!((two.speedup.unwrap() - 32f64.powf(1.0 / 6.0)).abs() < 1e-9);
        assert!((two.node_overhead.unwrap() - 1.0).abs() < 1e-9);
        assert_eq!(two.nps_ratio, Some(1.9));
        assert_eq!(two.speculative_share, Some(0.04));
        assert!(
            two.speedup_interval.unwrap() > 1.0,
            "six scattered draws leave an interval"
        );
        let text = table(&rows, &[32, 64, 128]).to_text();
        assert!(text.contains("6 (3 sizes)"), "{text}");
        assert_eq!(
            text.lines().filter(|l| l.contains("ybwc")).count(),
            1,
            "one thread is not a row: {text}"
        );
        assert_eq!(
            csv(&rows).text().lines().count(),
            3,
            "a header and both configurations"
        );
    }

    #[test]
    fn identical_draws_have_no_interval_width_and_one_draw_none() {
        assert_eq!(interval_factor(&[1.5, 1.5, 1.5]), Some(1.0));
        assert_eq!(interval_factor(&[1.5]), None);
        assert!(pool(&[]).is_empty());
    }
}
