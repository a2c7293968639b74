//! Several table sizes as several draws of the one-thread baseline (`--hash 32,64,128`).
//!
//! A one-thread search is deterministic: the repeats of a bench re-time one tree per position, so every
//! position's baseline is a single draw of the serial search's luck. That luck is large at long depths — the
//! same serial search needs a third or twice and a half the nodes of a position with another table size, and
//! chooses another move in a third of the positions (docs/parallel-search.md) — and repeats cannot average it
//! out. Each table size gives another draw: the whole bench runs once per size, every configuration against the
//! one-thread baseline *of the same size* (so the size's own effect on the tree cancels), and the figures are
//! pooled over all (size, position) pairs.
//!
//! Runs of one size made at different hours (`--pool` of reports at one size) are not more draws: they re-time
//! the same trees. They are *hours*: the VM's one-thread and two-thread speeds drift apart from hour to hour, so
//! each run's ratios (against its own interleaved baseline) carry its hour's luck. Such runs are averaged
//! position by position into the size's one draw, and the interval stays that of the draws.

use super::model::{BenchReport, ConfigSummary};
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
    /// The table sizes they come from.
    pub sizes: usize,
    /// The runs (reports) averaged into those draws: more than `sizes` where one size was run at several hours.
    pub runs: usize,
    /// Geometric mean over the draws of the time to depth against the same size's one thread.
    pub speedup: Option<f64>,
    /// The factor of the speedup's 95% interval (from the draws' spread, as if they were independent).
    pub speedup_interval: Option<f64>,
    /// Geometric mean over the draws of the nodes against the same size's one thread.
    pub node_overhead: Option<f64>,
    /// The whole set's time to depth (the set's one-thread time ÷ its time), each run's median over its
    /// repeats, geometric mean over a size's runs, then over the sizes.
    pub whole_set_speedup: Option<f64>,
    /// The lowest and highest of the whole set's time to depth over every repeat of every run.
    pub whole_set_range: Option<(f64, f64)>,
    /// The whole set's node overhead, pooled like [`whole_set_speedup`](Self::whole_set_speedup).
    pub whole_set_overhead: Option<f64>,
    /// Median over the sizes of the NPS against the same size's one thread.
    pub nps_ratio: Option<f64>,
    /// Median over the sizes of YBWC's share of nodes past a split point's cutoff.
    pub speculative_share: Option<f64>,
    /// Median over the sizes of the share of nodes searched twice (another thread's copy finished first).
    pub duplicate_share: Option<f64>,
}

/// One configuration's figures of one run at one table size, as pooling reads them.
#[derive(Debug, Clone, PartialEq)]
struct SizeFigures {
    algorithm: String,
    threads: usize,
    /// Per position, by index: time to depth against the run's one thread (`None`: not searched).
    speedups: Vec<Option<f64>>,
    /// Per position, by index: nodes against the run's one thread.
    overheads: Vec<Option<f64>>,
    /// Per position: the median nodes; with one thread the tree of the position, the same in every run of one
    /// engine at one size.
    nodes: Vec<f64>,
    /// The run's whole-set time to depth: median, lowest and highest over its repeats.
    whole_set_speedup: Option<(f64, f64, f64)>,
    /// The run's whole-set node overhead, median over its repeats.
    whole_set_overhead: Option<f64>,
    nps_ratio: Option<f64>,
    speculative_share: Option<f64>,
    duplicate_share: Option<f64>,
}

impl From<&ConfigSummary> for SizeFigures {
    fn from(summary: &ConfigSummary) -> Self {
        SizeFigures {
            algorithm: summary.algorithm.clone(),
            threads: summary.threads,
            speedups: summary.per_position.iter().map(|p| p.speedup).collect(),
            overheads: summary.per_position.iter().map(|p| p.node_overhead).collect(),
            nodes: summary.per_position.iter().map(|p| p.nodes).collect(),
            whole_set_speedup: summary
                .whole_set_speedup
                .as_ref()
                .map(|x| (x.median, x.min, x.max)),
            whole_set_overhead: summary.whole_set_overhead.as_ref().map(|x| x.median),
            nps_ratio: summary.nps_ratio.as_ref().map(|x| x.median),
            speculative_share: summary.speculative_share.as_ref().map(|x| x.median),
            duplicate_share: summary.duplicate_share.as_ref().map(|x| x.median),
        }
    }
}

/// Pools the summaries of one bench per table size by configuration.
pub fn pool(by_size: &[(u64, Vec<ConfigSummary>)]) -> Vec<PooledRow> {
    let draws: Vec<(u64, SizeFigures)> = by_size
        .iter()
        .flat_map(|(size, summaries)| summaries.iter().map(|s| (*size, SizeFigures::from(s))))
        .collect();
    pool_figures(&draws)
}

/// The table size a report searched with: the table rounds a size down to a power of two, so 48 MiB draws the
/// same tree as 32.
fn effective_size(mib: u64) -> u64 {
    if mib == 0 { 0 } else { 1 << mib.ilog2() }
}

/// One bench report as `--pool` reads it.
#[derive(Debug, Clone, PartialEq)]
struct ReportDraws {
    /// Where it was read from, for messages.
    name: String,
    /// What it searched and to what limit, in words: reports pool only when these are equal.
    search: String,
    /// The positions it searched, in order (FEN): a set's positions can change between versions (the long set
    /// grew from 12 to 24 on 2026-12-05), and positions pool by index.
    fens: Vec<String>,
    /// The table size it searched with.
    hash_mib: u64,
    /// Whether its one-thread searches are deterministic (a depth limit, not a clock), so that two runs of one
    /// engine at one size visit the same nodes.
    fixed_depth: bool,
    /// Its configurations.
    figures: Vec<SizeFigures>,
}

impl ReportDraws {
    fn new(name: &str, report: &BenchReport) -> Self {
        let settings = &report.settings;
        ReportDraws {
            name: name.to_string(),
            search: format!("{}, {}", settings.source(), settings.limit()),
            fens: report
                .summaries
                .first()
                .map(|summary| summary.per_position.iter().map(|p| p.fen.clone()).collect())
                .unwrap_or_default(),
            hash_mib: settings.hash_mib,
            fixed_depth: settings.depth.is_some(),
            figures: report.summaries.iter().map(SizeFigures::from).collect(),
        }
    }
}

/// Pools bench reports made separately (`--pool`): each configuration's draws are its reports at different
/// table sizes, each against the one-thread baseline of its own report. The reports must search the same
/// positions to the same limit. Reports at one size share one draw of the baseline: a configuration in several
/// of them is averaged position by position into that one draw (runs at several hours), never counted twice,
/// and their one-thread trees must be the same (one engine). Returns the rows and the sizes met.
///
/// # Errors
/// Fewer than two reports, reports of different positions or limits, or reports at one size whose one-thread
/// searches differ (another engine or search).
pub fn pool_reports(reports: &[(String, BenchReport)]) -> Result<(Vec<PooledRow>, Vec<u64>), String> {
    let reports: Vec<ReportDraws> = reports
        .iter()
        .map(|(name, report)| ReportDraws::new(name, report))
        .collect();
    pool_report_draws(&reports)
}

fn pool_report_draws(reports: &[ReportDraws]) -> Result<(Vec<PooledRow>, Vec<u64>), String> {
    let Some(first) = reports.first() else {
        return Err("--pool needs at least two bench.json files".to_string());
    };
    if reports.len() < 2 {
        return Err(format!(
            "--pool {}: give at least two bench.json files (other table sizes, or one size at other hours)",
            first.name
        ));
    }
    let mut draws: Vec<(u64, SizeFigures)> = Vec::new();
    for report in reports {
        if report.search != first.search {
            return Err(format!(
                "{} searched the {}, {} the {}: pool reports of one set and one limit",
                report.name, report.search, first.name, first.search
            ));
        }
        if report.fens != first.fens {
            return Err(format!(
                "{} searched other positions than {} ({} against {}; the long set has 24 positions since \
                 2026-12-05, 12 before): pool reports of one position list",
                report.name,
                first.name,
                report.fens.len(),
                first.fens.len()
            ));
        }
        let size = effective_size(report.hash_mib);
        for figures in &report.figures {
            // Under a clock even one thread's nodes vary from run to run: nothing to compare.
            let other_tree = report.fixed_depth
                && draws.iter().any(|(s, f)| {
                    *s == size && f.threads == 1 && figures.threads == 1 && f.nodes != figures.nodes
                });
            if other_tree {
                return Err(format!(
                    "{}: its 1-thread search with a {size} MiB table visited other nodes than an earlier report's \
                     at that size (the table rounds its size down to a power of two); runs of one size pool only \
                     when they are of one engine and search",
                    report.name
                ));
            }
            draws.push((size, figures.clone()));
        }
    }
    let mut sizes: Vec<u64> = reports.iter().map(|r| effective_size(r.hash_mib)).collect();
    sizes.sort_unstable();
    sizes.dedup();
    Ok((pool_figures(&draws), sizes))
}

/// Pools (table size, figures) draws by configuration, in the order configurations first appear.
fn pool_figures(draws: &[(u64, SizeFigures)]) -> Vec<PooledRow> {
    let mut configurations: Vec<(&str, usize)> = Vec::new();
    for (_, figures) in draws {
        let key = (figures.algorithm.as_str(), figures.threads);
        if !configurations.contains(&key) {
            configurations.push(key);
        }
    }
    configurations
        .into_iter()
        .map(|(algorithm, threads)| {
            let same: Vec<&(u64, SizeFigures)> = draws
                .iter()
                .filter(|(_, f)| f.algorithm == algorithm && f.threads == threads)
                .collect();
            let mut sizes: Vec<u64> = same.iter().map(|(size, _)| *size).collect();
            sizes.sort_unstable();
            sizes.dedup();
            let per_draw = |ratios: fn(&SizeFigures) -> &Vec<Option<f64>>| -> Vec<f64> {
                sizes
                    .iter()
                    .flat_map(|&size| {
                        let runs: Vec<&SizeFigures> =
                            same.iter().filter(|(s, _)| *s == size).map(|(_, f)| f).collect();
                        hours_averaged(&runs, ratios)
                    })
                    .collect()
            };
            let speedups = per_draw(|f| &f.speedups);
            let overheads = per_draw(|f| &f.overheads);
            // A run's whole set is one value: its size's runs are hours, averaged, and the sizes draws.
            let per_size = |value: &dyn Fn(&SizeFigures) -> Option<f64>| -> Option<f64> {
                let by_size: Option<Vec<f64>> = sizes
                    .iter()
                    .map(|&size| {
                        let runs: Vec<f64> = same
                            .iter()
                            .filter(|(s, _)| *s == size)
                            .filter_map(|(_, f)| value(f))
                            .collect();
                        geometric_mean(&runs)
                    })
                    .collect();
                by_size.and_then(|values| geometric_mean(&values))
            };
            let whole_set_range = same.iter().filter_map(|(_, f)| f.whole_set_speedup).fold(
                None,
                |range: Option<(f64, f64)>, (_, low, high)| {
                    Some(range.map_or((low, high), |(l, h)| (l.min(low), h.max(high))))
                },
            );
            let median_of = |value: &dyn Fn(&SizeFigures) -> Option<f64>| -> Option<f64> {
                let values: Vec<f64> = same.iter().filter_map(|(_, s)| value(s)).collect();
                median(&values)
            };
            PooledRow {
                algorithm: algorithm.to_string(),
                threads,
                draws: speedups.len(),
                sizes: sizes.len(),
                runs: same.len(),
                speedup: geometric_mean(&speedups),
                speedup_interval: interval_factor(&speedups),
                node_overhead: geometric_mean(&overheads),
                whole_set_speedup: per_size(&|f| f.whole_set_speedup.map(|(median, _, _)| median)),
                whole_set_range,
                whole_set_overhead: per_size(&|f| f.whole_set_overhead),
                nps_ratio: median_of(&|s| s.nps_ratio),
                speculative_share: median_of(&|s| s.speculative_share),
                duplicate_share: median_of(&|s| s.duplicate_share),
            }
        })
        .collect()
}

/// One size's draws from its runs: per position, the geometric mean of the runs' ratios (the runs re-time one
/// tree at different hours), positions no run searched left out.
fn hours_averaged(runs: &[&SizeFigures], ratios: fn(&SizeFigures) -> &Vec<Option<f64>>) -> Vec<f64> {
    let positions = runs.iter().map(|run| ratios(run).len()).max().unwrap_or(0);
    (0..positions)
        .filter_map(|p| {
            let values: Vec<f64> = runs
                .iter()
                .filter_map(|run| ratios(run).get(p).copied().flatten())
                .collect();
            geometric_mean(&values)
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
pub fn table(rows: &[PooledRow]) -> Table {
    let mut table = Table::new([
        "algorithm",
        "threads",
        "draws",
        "speedup",
        "95% interval",
        "overhead",
        "set speedup",
        "set range",
        "set overhead",
        "NPS ×",
        "past cut",
        "twice",
    ]);
    for row in rows.iter().filter(|r| r.threads > 1) {
        let interval = match (row.speedup, row.speedup_interval) {
            (Some(s), Some(f)) => format!("{:.2}–{:.2}", s / f, s * f),
            _ => "-".to_string(),
        };
        table.push([
            row.algorithm.clone(),
            row.threads.to_string(),
            format!(
                "{} ({} size{}{})",
                row.draws,
                row.sizes,
                if row.sizes == 1 { "" } else { "s" },
                if row.runs > row.sizes {
                    format!(", {} runs", row.runs)
                } else {
                    String::new()
                }
            ),
            figure(row.speedup, 2),
            interval,
            figure(row.node_overhead, 2),
            figure(row.whole_set_speedup, 2),
            row.whole_set_range
                .map_or_else(|| "-".to_string(), |(low, high)| format!("{low:.2}–{high:.2}")),
            figure(row.whole_set_overhead, 2),
            figure(row.nps_ratio, 2),
            percent(row.speculative_share),
            percent(row.duplicate_share),
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
        "sizes",
        "runs",
        "speedup",
        "speedup_interval_factor",
        "node_overhead",
        "whole_set_speedup",
        "whole_set_speedup_min",
        "whole_set_speedup_max",
        "whole_set_overhead",
        "nps_ratio",
        "speculative_share",
        "duplicate_share",
    ]);
    for row in rows {
        csv.row(&[
            row.algorithm.clone(),
            row.threads.to_string(),
            row.draws.to_string(),
            row.sizes.to_string(),
            row.runs.to_string(),
            cell(row.speedup),
            cell(row.speedup_interval),
            cell(row.node_overhead),
            cell(row.whole_set_speedup),
            cell(row.whole_set_range.map(|(low, _)| low)),
            cell(row.whole_set_range.map(|(_, high)| high)),
            cell(row.whole_set_overhead),
            cell(row.nps_ratio),
            cell(row.speculative_share),
            cell(row.duplicate_share),
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
            speedups: speedups.iter().copied().map(Some).collect(),
            overheads: overheads.iter().copied().map(Some).collect(),
            nodes: vec![1000.0; speedups.len()],
            whole_set_speedup: (threads > 1).then(|| {
                let whole = geometric_mean(speedups).unwrap();
                (whole, whole * 0.9, whole * 1.1)
            }),
            whole_set_overhead: (threads > 1).then(|| geometric_mean(overheads).unwrap()),
            nps_ratio: Some(nps),
            speculative_share: (threads > 1).then_some(0.04),
            duplicate_share: (threads > 1).then_some(0.1),
        }
    }

    #[test]
    fn draws_of_every_size_pool_into_one_geometric_mean() {
        let one = || figures(1, &[1.0, 1.0], &[1.0, 1.0], 1.0);
        let by_size = vec![
            (32, one()),
            (32, figures(2, &[1.0, 4.0], &[1.0, 0.5], 1.8)),
            (64, one()),
            (64, figures(2, &[2.0, 2.0], &[1.0, 1.0], 2.0)),
            (128, one()),
            (128, figures(2, &[0.5, 4.0], &[2.0, 1.0], 1.9)),
        ];
        let rows = pool_figures(&by_size);
        let two = rows.iter().find(|r| r.threads == 2).unwrap();
        assert_eq!((two.draws, two.sizes), (6, 3));
        // (1 · 4 · 2 · 2 · 0.5 · 4)^(1/6) = 32^(1/6)
        assert!((two.speedup.unwrap() - 32f64.powf(1.0 / 6.0)).abs() < 1e-9);
        assert!((two.node_overhead.unwrap() - 1.0).abs() < 1e-9);
        assert_eq!(two.nps_ratio, Some(1.9));
        assert_eq!(two.speculative_share, Some(0.04));
        assert!(
            two.speedup_interval.unwrap() > 1.0,
            "six scattered draws leave an interval"
        );
        let text = table(&rows).to_text();
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

    /// A report of `configs` ((algorithm, per-position speedups) at two threads) at `hash_mib` and `depth`.
    fn report(name: &str, hash_mib: u64, depth: u32, configs: &[(&str, &[f64])]) -> ReportDraws {
        ReportDraws {
            name: name.to_string(),
            search: format!("long set, depth {depth}"),
            fens: configs
                .first()
                .map(|(_, speedups)| (0..speedups.len()).map(|i| format!("position {i}")).collect())
                .unwrap_or_default(),
            hash_mib,
            fixed_depth: true,
            figures: configs
                .iter()
                .map(|(algorithm, speedups)| SizeFigures {
                    algorithm: (*algorithm).to_string(),
                    ..figures(2, speedups, &vec![1.0; speedups.len()], 1.9)
                })
                .collect(),
        }
    }

    #[test]
    fn reports_made_apart_pool_by_configuration_over_their_sizes() {
        let reports = vec![
            report("a", 32, 22, &[("ybwc", &[2.0, 2.0]), ("abdada", &[1.0, 1.0])]),
            report("b", 64, 22, &[("lazy", &[1.5, 1.5])]),
            report("c", 64, 22, &[("ybwc", &[0.5, 2.0])]),
        ];
        let (rows, sizes) = pool_report_draws(&reports).expect("distinct (configuration, size) pairs pool");
        assert_eq!(sizes, vec![32, 64]);
        let row = |name: &str| {
            rows.iter()
                .find(|r| r.algorithm == name)
                .expect("a row per configuration")
        };
        let ybwc = row("ybwc");
        assert_eq!((ybwc.draws, ybwc.sizes), (4, 2));
        // (2 · 2 · 0.5 · 2)^(1/4) = 4^(1/4)
        assert!((ybwc.speedup.unwrap() - 4f64.powf(0.25)).abs() < 1e-9);
        assert_eq!((row("lazy").draws, row("lazy").sizes), (2, 1));
        assert_eq!(row("abdada").speedup, Some(1.0));
    }

    /// `report` with its one-thread baseline, whose tree visits `tree_nodes` nodes per position.
    fn with_baseline(mut report: ReportDraws, tree_nodes: f64) -> ReportDraws {
        let positions = report.figures[0].speedups.len();
        report.figures.push(SizeFigures {
            nodes: vec![tree_nodes; positions],
            ..figures(1, &vec![1.0; positions], &vec![1.0; positions], 1.0)
        });
        report
    }

    #[test]
    fn runs_of_one_size_are_hours_averaged_into_its_draws() {
        let reports = vec![
            with_baseline(report("morning", 64, 22, &[("ybwc", &[2.0, 1.0, 1.5])]), 1000.0),
            with_baseline(report("noon", 64, 22, &[("ybwc", &[0.5, 4.0, 1.5])]), 1000.0),
            with_baseline(report("night", 32, 22, &[("ybwc", &[1.0, 1.0, 1.0])]), 900.0),
        ];
        let (rows, sizes) = pool_report_draws(&reports).expect("one engine's runs pool");
        assert_eq!(sizes, vec![32, 64]);
        let ybwc = rows.iter().find(|r| r.threads == 2).expect("the two-thread row");
        // 64 MiB: √(2 · 0.5) = 1, √(1 · 4) = 2, √(1.5 · 1.5) = 1.5; 32 MiB: 1, 1, 1 — six draws, not nine.
        assert_eq!((ybwc.draws, ybwc.sizes, ybwc.runs), (6, 2, 3));
        assert!((ybwc.speedup.unwrap() - 3f64.powf(1.0 / 6.0)).abs() < 1e-9);
        // The whole set: a run is one value (here the geometric mean of its ratios, range ±10%); the 64 MiB
        // runs' 3^(1/3) and 3^(1/3) averaged, then with 32 MiB's 1: 3^(1/6).
        assert!((ybwc.whole_set_speedup.unwrap() - 3f64.powf(1.0 / 6.0)).abs() < 1e-9);
        let (low, high) = ybwc.whole_set_range.unwrap();
        assert!((low - 0.9).abs() < 1e-9 && (high - 1.1 * 3f64.powf(1.0 / 3.0)).abs() < 1e-9);
        assert!((ybwc.whole_set_overhead.unwrap() - 1.0).abs() < 1e-9);
        let text = table(&rows).to_text();
        assert!(text.contains("6 (2 sizes, 3 runs)"), "{text}");
        assert!(
            text.contains("0.90–1.59"),
            "the range over every run's repeats: {text}"
        );
        assert!(csv(&rows).text().lines().nth(1).unwrap().contains(",6,2,3,"));
        let one_run_a_size = pool_report_draws(&reports[1..]).expect("two sizes");
        let row = one_run_a_size.0.iter().find(|r| r.threads == 2).unwrap();
        assert_eq!(row.runs, row.sizes, "a run a size is not an average of hours");
        assert!(!table(&one_run_a_size.0).to_text().contains("runs"));
    }

    #[test]
    fn reports_that_differ_in_engine_or_search_are_refused() {
        let two_engines = vec![
            with_baseline(report("a", 32, 22, &[("ybwc", &[2.0])]), 1000.0),
            with_baseline(report("b", 48, 22, &[("ybwc", &[1.0])]), 1001.0),
        ];
        let error = pool_report_draws(&two_engines).unwrap_err();
        assert!(
            error.starts_with("b:") && error.contains("32 MiB") && error.contains("one engine"),
            "{error}"
        );
        let timed = |mut report: ReportDraws| {
            report.search = "game set, 70 ms a position".to_string();
            report.fixed_depth = false;
            report
        };
        let clocked: Vec<ReportDraws> = two_engines.into_iter().map(timed).collect();
        assert!(
            pool_report_draws(&clocked).is_ok(),
            "under a clock one thread's nodes differ between runs of one engine"
        );
        let deeper = vec![
            report("a", 32, 22, &[("ybwc", &[2.0])]),
            report("b", 64, 20, &[("ybwc", &[1.0])]),
        ];
        let error = pool_report_draws(&deeper).unwrap_err();
        assert!(
            error.contains("depth 20") && error.contains("depth 22"),
            "{error}"
        );
        let grown = vec![
            report("twelve", 64, 22, &[("ybwc", &[2.0])]),
            report("twenty-four", 64, 22, &[("ybwc", &[1.0, 1.5])]),
        ];
        let error = pool_report_draws(&grown).unwrap_err();
        assert!(
            error.starts_with("twenty-four searched other positions than twelve (2 against 1"),
            "{error}"
        );
        let one = vec![report("a", 32, 22, &[("ybwc", &[2.0])])];
        assert!(pool_report_draws(&one).unwrap_err().contains("at least two"));
        assert!(pool_reports(&[]).is_err());
    }
}
