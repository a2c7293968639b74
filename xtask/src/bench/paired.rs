//! Paired comparisons, position by position: is one configuration's node count (or time) really different from
//! another's, or within the noise?
//!
//! A parallel search of one position at depth 22 scatters by a factor of two or more from run to run, and the
//! positions differ from one another more still, so the medians of two configurations' totals differ by 10–20%
//! between runs of one binary. What the two configurations share is the positions: each position is searched by
//! both, in the same interleaved run. The comparison takes, for every position, the mean over the repeats of the
//! logarithm of each configuration's nodes (or time), and their difference; the mean of those differences over
//! the positions is the logarithm of the ratio (a geometric mean of per-position ratios), and their scatter over
//! the positions gives its standard error and a 95% interval (Student's t, positions − 1 degrees of freedom).
//! An interval that leaves out 1 is a difference the positions show; one that holds 1 is not.
//!
//! The positions are treated as independent draws. Those of the game set follow one another in one game with
//! the table kept, so their interval is somewhat too narrow; the long set's are independent middlegames.

use super::analysis::{runs_of, searched_positions};
use super::model::{PositionRun, Run, Settings};
use crate::report::csv::Csv;
use crate::report::table::Table;
use statrs::distribution::{ContinuousCDF, StudentsT};

/// The title of the paired comparison in the terminal output and in `summary.md`.
pub const TITLE: &str = "Side by side, position by position (geometric mean over the positions of this \
                         configuration's nodes and time ÷ the reference's, each position's repeats averaged; 95% \
                         interval over the positions):";

/// A ratio of two configurations' searches over the positions, with its 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedRatio {
    /// The geometric mean over the positions of the per-position ratios.
    pub ratio: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Positions compared.
    pub positions: usize,
}

impl PairedRatio {
    /// The ratio and interval from per-position differences of logarithms; `None` with fewer than two positions
    /// or a value that is not finite.
    pub fn of(log_differences: &[f64]) -> Option<PairedRatio> {
        let n = log_differences.len();
        if n < 2 || log_differences.iter().any(|d| !d.is_finite()) {
            return None;
        }
        let mean = log_differences.iter().sum::<f64>() / n as f64;
        let variance = log_differences.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let standard_error = (variance / n as f64).sqrt();
        let t = StudentsT::new(0.0, 1.0, (n - 1) as f64).ok()?.inverse_cdf(0.975);
        Some(PairedRatio {
            ratio: mean.exp(),
            low: (mean - t * standard_error).exp(),
            high: (mean + t * standard_error).exp(),
            positions: n,
        })
    }

    /// `lower` or `higher` when the interval leaves out 1, `within noise` when it holds it.
    pub fn verdict(&self) -> &'static str {
        if self.high < 1.0 {
            "lower"
        } else if self.low > 1.0 {
            "higher"
        } else {
            "within noise"
        }
    }

    /// `0.93 (0.84–1.03)`.
    pub fn display(&self) -> String {
        format!("{:.2} ({:.2}–{:.2})", self.ratio, self.low, self.high)
    }
}

/// One configuration against its reference at one thread count.
#[derive(Debug, Clone, PartialEq)]
pub struct PairedRow {
    /// Threads of both.
    pub threads: usize,
    /// The configuration compared.
    pub configuration: String,
    /// What it is compared with.
    pub reference: String,
    /// Positions compared (those with a move to search).
    pub positions: usize,
    /// Its nodes ÷ the reference's.
    pub nodes: Option<PairedRatio>,
    /// Its time ÷ the reference's (searches to a depth only: with `--movetime` the time is the limit).
    pub time: Option<PairedRatio>,
}

/// The mean over `runs` of the logarithm of `value` at each of `positions`; `None` where a run lacks a
/// position or a value is not positive.
fn mean_logs(runs: &[&Run], positions: &[usize], value: fn(&PositionRun) -> u64) -> Option<Vec<f64>> {
    if runs.is_empty() {
        return None;
    }
    positions
        .iter()
        .map(|&p| {
            let mut sum = 0.0;
            for run in runs {
                let v = value(run.positions.get(p)?);
                if v == 0 {
                    return None;
                }
                sum += (v as f64).ln();
            }
            Some(sum / runs.len() as f64)
        })
        .collect()
}

/// The paired ratio of `runs` against `reference_runs` over `positions`, for one per-position value.
pub fn ratio(
    reference_runs: &[&Run],
    runs: &[&Run],
    positions: &[usize],
    value: fn(&PositionRun) -> u64,
) -> Option<PairedRatio> {
    let reference = mean_logs(reference_runs, positions, value)?;
    let own = mean_logs(runs, positions, value)?;
    let differences: Vec<f64> = own.iter().zip(&reference).map(|(a, b)| a - b).collect();
    PairedRatio::of(&differences)
}

/// Nodes and (with a depth limit) time of `runs` against `reference_runs` over `positions`.
pub fn compare(
    reference_runs: &[&Run],
    runs: &[&Run],
    positions: &[usize],
    depth_limited: bool,
) -> (Option<PairedRatio>, Option<PairedRatio>) {
    (
        ratio(reference_runs, runs, positions, |p| p.nodes),
        depth_limited
            .then(|| ratio(reference_runs, runs, positions, |p| p.time_us))
            .flatten(),
    )
}

/// The algorithm a configuration label runs: its first word (`abdada` of `abdada --cutoff-checks true`).
fn algorithm_of(label: &str) -> &str {
    label.split_whitespace().next().unwrap_or(label)
}

/// What a configuration of `settings` is compared with: the first configuration of the same algorithm when it
/// is not that one (`--variant`s of one algorithm against the first of them), otherwise lazy SMP when it was run
/// (the baseline of parallel search); `None` for lazy SMP itself without variants.
pub fn reference_of<'s>(settings: &'s Settings, configuration: &str) -> Option<&'s str> {
    let first_of_algorithm = settings
        .algorithms
        .iter()
        .find(|label| algorithm_of(label) == algorithm_of(configuration))?;
    if first_of_algorithm != configuration {
        return Some(first_of_algorithm);
    }
    settings
        .algorithms
        .iter()
        .find(|label| label.as_str() == super::analysis::LAZY && label.as_str() != configuration)
        .map(String::as_str)
}

/// Every configuration of a bench against its reference ([`reference_of`]) at every thread count above one.
pub fn rows(settings: &Settings, runs: &[Run]) -> Vec<PairedRow> {
    let positions = searched_positions(runs);
    let mut threads: Vec<usize> = settings.threads.iter().copied().filter(|&t| t > 1).collect();
    threads.sort_unstable();
    threads.dedup();
    let mut rows = Vec::new();
    for &t in &threads {
        for configuration in &settings.algorithms {
            let Some(reference) = reference_of(settings, configuration) else {
                continue;
            };
            let (own, theirs) = (runs_of(runs, configuration, t), runs_of(runs, reference, t));
            if own.is_empty() || theirs.is_empty() {
                continue;
            }
            let (nodes, time) = compare(&theirs, &own, &positions, settings.depth.is_some());
            rows.push(PairedRow {
                threads: t,
                configuration: configuration.clone(),
                reference: reference.to_string(),
                positions: positions.len(),
                nodes,
                time,
            });
        }
    }
    rows
}

/// The rows as a table; `None` when there are none.
pub fn table(rows: &[PairedRow]) -> Option<Table> {
    let mut table = Table::new([
        "configuration",
        "threads",
        "against",
        "positions",
        "nodes ×",
        "nodes",
        "time ×",
        "time",
    ]);
    let ratio = |r: &Option<PairedRatio>| r.map_or_else(|| "-".to_string(), |r| r.display());
    let verdict = |r: &Option<PairedRatio>| r.map_or("-", |r| r.verdict());
    for row in rows {
        table.push([
            row.configuration.clone(),
            row.threads.to_string(),
            row.reference.clone(),
            row.positions.to_string(),
            ratio(&row.nodes),
            verdict(&row.nodes).to_string(),
            ratio(&row.time),
            verdict(&row.time).to_string(),
        ]);
    }
    (!rows.is_empty()).then_some(table)
}

/// The comparison under its title, as text or Markdown; empty when nothing is compared.
pub fn section(rows: &[PairedRow], markdown: bool) -> String {
    match table(rows) {
        Some(table) if markdown => format!("\n{TITLE}\n\n{}", table.to_markdown()),
        Some(table) => format!("\n{TITLE}\n{}", table.to_text()),
        None => String::new(),
    }
}

/// The rows as `paired.csv`: ratios and interval ends, empty cells where a figure is absent.
pub fn csv(rows: &[PairedRow]) -> Csv {
    use super::output::cell;
    let mut csv = Csv::new(&[
        "configuration",
        "threads",
        "reference",
        "positions",
        "nodes_ratio",
        "nodes_low",
        "nodes_high",
        "time_ratio",
        "time_low",
        "time_high",
    ]);
    for row in rows {
        let parts = |r: &Option<PairedRatio>| {
            [
                cell(r.map(|r| r.ratio)),
                cell(r.map(|r| r.low)),
                cell(r.map(|r| r.high)),
            ]
        };
        let [nodes_ratio, nodes_low, nodes_high] = parts(&row.nodes);
        let [time_ratio, time_low, time_high] = parts(&row.time);
        csv.row(&[
            row.configuration.clone(),
            row.threads.to_string(),
            row.reference.clone(),
            row.positions.to_string(),
            nodes_ratio,
            nodes_low,
            nodes_high,
            time_ratio,
            time_low,
            time_high,
        ]);
    }
    csv
}

/// For `--compare`: every configuration both result files ran, the new runs against the old ones, position by
/// position (the 1-thread baseline as `1-thread baseline`); `None` when the files searched other positions.
pub fn between(old: &[Run], new: &[Run], depth_limited: bool) -> Option<Vec<PairedRow>> {
    let fens = |runs: &[Run]| -> Option<Vec<String>> {
        let first = runs.iter().find(|r| r.threads == 1)?;
        Some(first.positions.iter().map(|p| p.fen.clone()).collect())
    };
    if fens(old)? != fens(new)? {
        return None;
    }
    let searched_in_old = searched_positions(old);
    let positions: Vec<usize> = searched_positions(new)
        .into_iter()
        .filter(|p| searched_in_old.contains(p))
        .collect();
    let mut configurations: Vec<(String, usize)> = Vec::new();
    for run in new {
        let key = (
            if run.threads == 1 {
                String::new()
            } else {
                run.algorithm.clone()
            },
            run.threads,
        );
        if !configurations.contains(&key) {
            configurations.push(key);
        }
    }
    let mut rows = Vec::new();
    for (label, threads) in configurations {
        let (theirs, own) = (runs_of(old, &label, threads), runs_of(new, &label, threads));
        if theirs.is_empty() {
            continue;
        }
        let (nodes, time) = compare(&theirs, &own, &positions, depth_limited);
        rows.push(PairedRow {
            threads,
            configuration: if threads == 1 {
                "1-thread baseline".to_string()
            } else {
                label
            },
            reference: "old".to_string(),
            positions: positions.len(),
            nodes,
            time,
        });
    }
    Some(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::analysis::tests::{position, settings, timed_run};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn the_interval_is_students_over_the_positions() {
        // Four positions at ratios 0.8, 0.9, 0.9 and 1.0 of the reference.
        let differences: Vec<f64> = [0.8f64, 0.9, 0.9, 1.0].iter().map(|r| r.ln()).collect();
        let paired = PairedRatio::of(&differences).unwrap();
        let mean = differences.iter().sum::<f64>() / 4.0;
        let sd = (differences.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / 3.0).sqrt();
        // Student's t at 97.5% with 3 degrees of freedom.
        let half = 3.182_446_305_284_263 * sd / 2.0;
        assert!(close(paired.ratio, mean.exp()));
        assert!((paired.low - (mean - half).exp()).abs() < 1e-6, "{paired:?}");
        assert!((paired.high - (mean + half).exp()).abs() < 1e-6, "{paired:?}");
        assert_eq!(paired.positions, 4);
        assert_eq!(paired.verdict(), "within noise", "{paired:?}");
        assert_eq!(paired.display(), "0.90 (0.78–1.04)");

        let steady: Vec<f64> = [0.80f64, 0.82, 0.79, 0.81].iter().map(|r| r.ln()).collect();
        assert_eq!(PairedRatio::of(&steady).unwrap().verdict(), "lower");
        let higher: Vec<f64> = steady.iter().map(|d| -d).collect();
        assert_eq!(PairedRatio::of(&higher).unwrap().verdict(), "higher");
        assert_eq!(PairedRatio::of(&[0.1]), None, "one position has no scatter");
        assert_eq!(PairedRatio::of(&[0.1, f64::NAN]), None);
    }

    #[test]
    fn variants_are_compared_with_the_first_of_their_algorithm_and_algorithms_with_lazy() {
        let mut s = settings();
        s.algorithms = vec![
            "lazy".into(),
            "abdada --cutoff-checks true".into(),
            "abdada".into(),
            "ybwc".into(),
        ];
        assert_eq!(reference_of(&s, "lazy"), None);
        assert_eq!(reference_of(&s, "abdada --cutoff-checks true"), Some("lazy"));
        assert_eq!(reference_of(&s, "abdada"), Some("abdada --cutoff-checks true"));
        assert_eq!(reference_of(&s, "ybwc"), Some("lazy"));
        s.algorithms.remove(0);
        assert_eq!(
            reference_of(&s, "abdada --cutoff-checks true"),
            None,
            "no lazy SMP run"
        );
        assert_eq!(reference_of(&s, "ybwc"), None);
    }

    #[test]
    fn rows_pair_each_position_over_its_repeats() {
        let mut s = settings();
        s.algorithms = vec!["abdada --brothers-keep-places false".into(), "abdada".into()];
        // Three positions and one without a move; the variant searches half the nodes of the reference in
        // every position, in 0.9 and 0.7 of its time in alternate repeats (geometric mean of the two per
        // position: √0.63), and the positions differ a hundredfold from one another.
        let runs = vec![
            timed_run("abdada", 1, 0, &[10, 1000, 100, 0], &[100, 10_000, 1000, 0]),
            timed_run(
                "abdada --brothers-keep-places false",
                2,
                0,
                &[10, 1000, 100, 0],
                &[200, 20_000, 2000, 0],
            ),
            timed_run("abdada", 2, 0, &[9, 900, 90, 0], &[100, 10_000, 1000, 0]),
            timed_run(
                "abdada --brothers-keep-places false",
                2,
                1,
                &[10, 1000, 100, 0],
                &[200, 20_000, 2000, 0],
            ),
            timed_run("abdada", 2, 1, &[7, 700, 70, 0], &[100, 10_000, 1000, 0]),
        ];
        let rows = rows(&s, &runs);
        assert_eq!(rows.len(), 1, "{rows:?}");
        let row = &rows[0];
        assert_eq!(
            (row.configuration.as_str(), row.reference.as_str(), row.threads),
            ("abdada", "abdada --brothers-keep-places false", 2)
        );
        let nodes = row.nodes.unwrap();
        assert_eq!(row.positions, 3, "the position without a move is left out");
        assert_eq!(nodes.positions, 3);
        assert!(close(nodes.ratio, 0.5) && close(nodes.low, 0.5) && close(nodes.high, 0.5));
        assert_eq!(nodes.verdict(), "lower");
        let time = row.time.unwrap();
        assert!(close(time.ratio, 0.63f64.sqrt()), "{time:?}");
        assert_eq!(time.verdict(), "lower");

        let text = section(&rows, false);
        assert!(
            text.starts_with(&format!("\n{TITLE}\n")) && text.contains("0.50 (0.50–0.50)"),
            "{text}"
        );
        let csv = csv(&rows).text();
        assert_eq!(csv.lines().count(), 2, "{csv}");
        assert!(
            csv.lines()
                .nth(1)
                .unwrap()
                .starts_with("abdada,2,abdada --brothers-keep-places false,3,0.500000")
        );

        // With a time limit only the nodes are compared.
        s.depth = None;
        s.movetime_ms = Some(70);
        assert_eq!(super::rows(&s, &runs)[0].time, None);
        // Nothing to compare: no section.
        assert_eq!(section(&[], true), "");
        // One position has no scatter to judge by: no ratio, the position still counted.
        let single = vec![
            timed_run("abdada", 1, 0, &[10], &[100]),
            timed_run("abdada --brothers-keep-places false", 2, 0, &[10], &[200]),
            timed_run("abdada", 2, 0, &[9], &[100]),
        ];
        let lone = &super::rows(&s, &single)[0];
        assert_eq!((lone.positions, lone.nodes), (1, None));
        assert!(section(std::slice::from_ref(lone), false).contains(" - "));
    }

    #[test]
    fn two_files_are_compared_position_by_position_when_they_searched_the_same_positions() {
        let old = vec![
            timed_run("ybwc", 1, 0, &[10, 100, 1000], &[100, 1000, 10_000]),
            timed_run("ybwc", 2, 0, &[6, 60, 600], &[110, 1100, 11_000]),
        ];
        let new = vec![
            timed_run("lazy", 1, 0, &[10, 100, 1000], &[100, 1000, 10_000]),
            timed_run("ybwc", 2, 0, &[5, 50, 500], &[100, 1000, 10_000]),
            timed_run("abdada", 2, 0, &[5, 50, 500], &[100, 1000, 10_000]),
        ];
        let rows = between(&old, &new, true).unwrap();
        assert_eq!(
            rows.len(),
            2,
            "the baseline and ybwc; abdada is not in the old file: {rows:?}"
        );
        assert_eq!(rows[0].configuration, "1-thread baseline");
        assert!(
            close(rows[0].nodes.unwrap().ratio, 1.0) && rows[0].nodes.unwrap().verdict() == "within noise"
        );
        assert_eq!(
            (rows[1].configuration.as_str(), rows[1].reference.as_str()),
            ("ybwc", "old")
        );
        assert!(close(rows[1].nodes.unwrap().ratio, 1.0 / 1.1));
        assert!(close(rows[1].time.unwrap().ratio, 5.0 / 6.0));

        let mut elsewhere = new.clone();
        elsewhere[0].positions[1] = position(1, 1000, 100_000, "e2e4");
        elsewhere[0].positions[1].fen = "another position".into();
        assert_eq!(between(&old, &elsewhere, true), None);
    }
}
