//! The bench's outputs: the terminal tables (the comparison and its breakdown by 1-thread search time),
//! `summary.md`, `summary.csv`, `positions.csv`, `buckets.csv`, `paired.csv`, the tree profile (`profile.md`,
//! `profile.csv`), `bench.json` and the three SVG charts, all in the output folder.

use super::model::{BenchReport, ConfigSummary, TimeBucket};
use crate::report::charts::{self, LineChart, Series};
use crate::report::csv::Csv;
use crate::report::table::Table;
use crate::report::write_json;
use crate::stats::summary::Spread;
use std::path::{Path, PathBuf};

/// The files one bench writes, in the order they are written.
pub const FILES: [&str; 11] = [
    "bench.json",
    "summary.md",
    "summary.csv",
    "positions.csv",
    "buckets.csv",
    "paired.csv",
    "profile.md",
    "profile.csv",
    "speedup.svg",
    "nps.svg",
    "overhead.svg",
];

/// `1.73` with its spread over repeats: `1.73 ±4%`.
fn with_spread(spread: &Spread, decimals: usize) -> String {
    let relative = spread.relative_half_range();
    if spread.count > 1 {
        format!("{:.decimals$} ±{:.0}%", spread.median, relative * 100.0)
    } else {
        format!("{:.decimals$}", spread.median)
    }
}

fn optional(spread: Option<&Spread>, decimals: usize) -> String {
    spread.map_or_else(|| "-".to_string(), |s| with_spread(s, decimals))
}

/// A share as a percentage with one decimal (`-` where absent).
pub fn percent(share: Option<f64>) -> String {
    share.map_or_else(|| "-".to_string(), |x| format!("{:.1}%", x * 100.0))
}

/// A counter's median over repeats (`-` where the file predates it).
fn count(spread: Option<&Spread>) -> String {
    spread.map_or_else(|| "-".to_string(), |s| format!("{:.0}", s.median))
}

/// The comparison table (medians, spread over repeats as ±half-range). `fixed_time` (a `--movetime` bench)
/// shows the depth reached always as mean and median.
pub fn table(summaries: &[ConfigSummary], fixed_time: bool) -> Table {
    let mut table = Table::new([
        "algorithm",
        "threads",
        "time s",
        "speedup",
        "set speedup",
        "vs lazy",
        "Mnodes",
        "overhead",
        "set overhead",
        "Mnps",
        "NPS ×",
        "NPS eff",
        "same move",
        "depth",
        "deferred",
        "splits",
        "aborted",
        "idle",
        "re-searches",
        "changes",
        "past cut",
        "twice",
    ]);
    for s in summaries {
        let threads = if s.oversubscribed {
            format!("{}*", s.threads)
        } else {
            s.threads.to_string()
        };
        let algorithm = if s.shared_baseline {
            format!("{} (serial)", s.algorithm)
        } else {
            s.algorithm.clone()
        };
        table.push([
            algorithm,
            threads,
            with_spread(&s.total_time_s, 2),
            optional(s.speedup.as_ref(), 2),
            optional(s.whole_set_speedup.as_ref(), 2),
            optional(s.speedup_vs_lazy.as_ref(), 2),
            format!("{:.1}", s.total_nodes.median / 1e6),
            optional(s.node_overhead.as_ref(), 2),
            optional(s.whole_set_overhead.as_ref(), 2),
            with_spread(&scaled(&s.nps, 1e-6), 2),
            optional(s.nps_ratio.as_ref(), 2),
            optional(s.nps_efficiency.as_ref(), 2),
            format!("{:.0}%", s.best_move_agreement.median * 100.0),
            depth(s, fixed_time),
            format!("{:.0}", s.deferred_moves.median),
            format!("{:.0}", s.splits.median),
            format!("{:.0}", s.aborted_tasks.median),
            format!("{:.0}%", s.idle_fraction.median * 100.0),
            count(s.root_researches.as_ref()),
            count(s.best_move_changes.as_ref()),
            percent(s.speculative_share.as_ref().map(|x| x.median)),
            percent(s.duplicate_share.as_ref().map(|x| x.median)),
        ]);
    }
    table
}

/// The depth reached: the mean over positions with the median in brackets (`15.4 (15)`), medians over
/// repeats; to a fixed depth, only the median when the mean is the same.
fn depth(s: &ConfigSummary, fixed_time: bool) -> String {
    let median = s.depth_reached.median;
    match s.depth_mean {
        Some(mean) if fixed_time || (mean.median - median).abs() >= 0.05 => {
            format!("{:.1} ({median:.0})", mean.median)
        }
        _ => format!("{median:.0}"),
    }
}

/// The title of the breakdown by 1-thread search time.
pub const BUCKETS_TITLE: &str = "By 1-thread search time (per-position medians over repeats; geometric means over \
                                 the positions of each range):";

/// The title of the breakdown by search size.
pub const SIZE_BUCKETS_TITLE: &str = "By search size, the geometric mean of the 1-thread and the configuration's \
                                      times (a position's 1-thread time is partly its one search's luck, which the \
                                      other search does not share, so the ranges above overstate the loss on short \
                                      searches; here both searches place a position):";

/// The two breakdowns, by 1-thread search time and by search size, under their titles, as text or Markdown;
/// where there is none, why.
pub fn breakdown(summaries: &[ConfigSummary], fixed_time: bool, markdown: bool) -> String {
    let by_one_thread = bucket_table(summaries, "1-thread time", |s| &s.time_buckets);
    let by_size = bucket_table(summaries, "search size", |s| &s.size_buckets);
    let render = |table: &Table| {
        if markdown {
            table.to_markdown()
        } else {
            table.to_text()
        }
    };
    let separator = if markdown { "\n\n" } else { "\n" };
    let body = match &by_one_thread {
        Some(table) => render(table),
        None if fixed_time => "(none: a fixed-time search has no time to depth; the NPS ratio and the depth \
                               reached above are its figures)\n"
            .to_string(),
        None => "(none: only one thread count was measured)\n".to_string(),
    };
    let mut text = format!("{BUCKETS_TITLE}{separator}{body}");
    if let Some(table) = &by_size {
        text.push_str(&format!("\n{SIZE_BUCKETS_TITLE}{separator}{}", render(table)));
    }
    text
}

/// One breakdown: for each range of [`super::analysis::TIME_BUCKETS`] that holds positions, one row per
/// parallel configuration with its speedup, node overhead and NPS ratio over those positions; `heading` names
/// what the ranges are of, `buckets` picks them. `None` when there is nothing to break down (fixed-time runs,
/// one thread only, or files older than the breakdown).
pub fn bucket_table(
    summaries: &[ConfigSummary],
    heading: &str,
    buckets: fn(&ConfigSummary) -> &Vec<TimeBucket>,
) -> Option<Table> {
    let mut table = Table::new([
        heading,
        "positions",
        "1-thread s",
        "algorithm",
        "threads",
        "speedup",
        "overhead",
        "NPS ×",
    ]);
    let mut any = false;
    for (label, _, _) in super::analysis::TIME_BUCKETS {
        for s in summaries.iter().filter(|s| !s.shared_baseline) {
            let Some(bucket) = buckets(s).iter().find(|b| b.label == label) else {
                continue;
            };
            any = true;
            let threads = if s.oversubscribed {
                format!("{}*", s.threads)
            } else {
                s.threads.to_string()
            };
            let figure = |value: Option<f64>| value.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"));
            table.push([
                label.to_string(),
                bucket.positions.to_string(),
                format!("{:.1}", bucket.one_thread_time_s),
                s.algorithm.clone(),
                threads,
                figure(bucket.speedup),
                figure(bucket.node_overhead),
                figure(bucket.nps_ratio),
            ]);
        }
    }
    any.then_some(table)
}

fn scaled(spread: &Spread, factor: f64) -> Spread {
    Spread {
        median: spread.median * factor,
        min: spread.min * factor,
        max: spread.max * factor,
        count: spread.count,
    }
}

/// Writes every file of [`FILES`] into `dir` and returns their paths.
///
/// # Errors
/// When a file cannot be written.
pub fn write_all(dir: &Path, report: &BenchReport) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = |name: &str| dir.join(name);
    write_json(&path("bench.json"), report)?;
    let paired_rows = super::paired::rows(&report.settings, &report.runs);
    write_text(&path("summary.md"), &markdown(report, &paired_rows))?;
    write_text(&path("summary.csv"), &summary_csv(report).text())?;
    write_text(&path("positions.csv"), &positions_csv(report).text())?;
    write_text(&path("buckets.csv"), &buckets_csv(report).text())?;
    write_text(&path("paired.csv"), &super::paired::csv(&paired_rows).text())?;
    let profile_rows = super::profile::rows(report);
    let fixed_depth = report.settings.depth.is_some();
    write_text(
        &path("profile.md"),
        &super::profile::markdown(&profile_rows, fixed_depth),
    )?;
    write_text(&path("profile.csv"), &super::profile::csv(&profile_rows).text())?;
    let by_algorithm = |value: &dyn Fn(&ConfigSummary) -> Option<f64>| -> Vec<Series> {
        report
            .settings
            .algorithms
            .iter()
            .map(|algorithm| Series {
                name: algorithm.clone(),
                points: report
                    .summaries
                    .iter()
                    .filter(|s| &s.algorithm == algorithm)
                    .filter_map(|s| value(s).map(|v| (s.threads as f64, v)))
                    .collect(),
            })
            .filter(|series| !series.points.is_empty())
            .collect()
    };
    let limit = report.settings.limit();
    let speedup = by_algorithm(&|s| s.speedup.map(|x| x.median));
    let speedup_title = format!("Time-to-depth speedup ({limit})");
    if !speedup.is_empty() {
        charts::draw(
            &path("speedup.svg"),
            &LineChart {
                title: &speedup_title,
                x_label: "threads",
                y_label: "speedup vs 1 thread (geometric mean)",
                series: &speedup,
                ideal: true,
            },
        )?;
    } else {
        // Fixed-time benches have no time to depth: chart the depth reached instead, under the same name.
        let depth = by_algorithm(&|s| Some(s.depth_reached.median));
        let title = format!("Depth reached ({limit})");
        charts::draw(
            &path("speedup.svg"),
            &LineChart {
                title: &title,
                x_label: "threads",
                y_label: "median depth",
                series: &depth,
                ideal: false,
            },
        )?;
    }
    let nps = by_algorithm(&|s| Some(s.nps.median / 1e6));
    let nps_title = format!("Nodes per second ({limit})");
    charts::draw(
        &path("nps.svg"),
        &LineChart {
            title: &nps_title,
            x_label: "threads",
            y_label: "million nodes per second",
            series: &nps,
            ideal: false,
        },
    )?;
    let overhead = by_algorithm(&|s| {
        s.node_overhead
            .map(|x| x.median)
            .or(Some(s.total_nodes.median / 1e6))
    });
    let overhead_title = if report.settings.depth.is_some() {
        format!("Node overhead ({limit})")
    } else {
        format!("Total nodes ({limit})")
    };
    charts::draw(
        &path("overhead.svg"),
        &LineChart {
            title: &overhead_title,
            x_label: "threads",
            y_label: if report.settings.depth.is_some() {
                "nodes vs 1 thread (geometric mean)"
            } else {
                "million nodes"
            },
            series: &overhead,
            ideal: false,
        },
    )?;
    Ok(FILES.iter().map(|name| path(name)).collect())
}

/// The table, its breakdowns by 1-thread time and by search size, and the side-by-side comparison (`paired_rows`) as Markdown with
/// the machine and settings above them, ready for docs/bench.md.
fn markdown(report: &BenchReport, paired_rows: &[super::paired::PairedRow]) -> String {
    let settings = &report.settings;
    let limit = settings.limit();
    let fixed_time = settings.depth.is_none();
    format!(
        "Machine: {}; {}.

Settings: {limit}, positions {}, {} repeats, {} MiB hash{}{}; medians ±half-range over repeats.

{}
{}{}",
        report.machine.summary(),
        report.machine.date_utc,
        settings.source(),
        settings.repeat,
        settings.hash_mib,
        if settings.interleave_positions {
            ", configurations interleaved position by position"
        } else {
            ""
        },
        if settings.knobs.is_empty() {
            String::new()
        } else {
            format!(", {}", settings.knobs.join(" "))
        },
        table(&report.summaries, fixed_time).to_markdown(),
        breakdown(&report.summaries, fixed_time, true),
        super::paired::section(paired_rows, true)
    )
}

pub fn write_text(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A CSV cell: the value with six decimals, empty where absent.
pub fn cell(value: Option<f64>) -> String {
    value.map_or_else(String::new, |v| format!("{v:.6}"))
}

fn summary_csv(report: &BenchReport) -> Csv {
    let mut csv = Csv::new(&[
        "algorithm",
        "threads",
        "oversubscribed",
        "positions",
        "time_s_median",
        "time_s_min",
        "time_s_max",
        "speedup_median",
        "speedup_min",
        "speedup_max",
        "speedup_vs_lazy_median",
        "whole_set_speedup_median",
        "whole_set_speedup_min",
        "whole_set_speedup_max",
        "nodes_median",
        "node_overhead_median",
        "node_overhead_min",
        "node_overhead_max",
        "whole_set_overhead_median",
        "nps_median",
        "nps_min",
        "nps_max",
        "nps_efficiency_median",
        "nps_ratio_median",
        "best_move_agreement_median",
        "score_agreement_median",
        "depth_median",
        "depth_mean_median",
        "deferred_moves_median",
        "splits_median",
        "aborted_tasks_median",
        "idle_fraction_median",
        "root_researches_median",
        "best_move_changes_median",
        "speculative_share_median",
        "duplicate_share_median",
        "repeats",
    ]);
    for s in &report.summaries {
        let opt = |x: Option<&Spread>, f: fn(&Spread) -> f64| cell(x.map(f));
        csv.row(&[
            s.algorithm.clone(),
            s.threads.to_string(),
            s.oversubscribed.to_string(),
            s.positions.to_string(),
            cell(Some(s.total_time_s.median)),
            cell(Some(s.total_time_s.min)),
            cell(Some(s.total_time_s.max)),
            opt(s.speedup.as_ref(), |x| x.median),
            opt(s.speedup.as_ref(), |x| x.min),
            opt(s.speedup.as_ref(), |x| x.max),
            opt(s.speedup_vs_lazy.as_ref(), |x| x.median),
            opt(s.whole_set_speedup.as_ref(), |x| x.median),
            opt(s.whole_set_speedup.as_ref(), |x| x.min),
            opt(s.whole_set_speedup.as_ref(), |x| x.max),
            cell(Some(s.total_nodes.median)),
            opt(s.node_overhead.as_ref(), |x| x.median),
            opt(s.node_overhead.as_ref(), |x| x.min),
            opt(s.node_overhead.as_ref(), |x| x.max),
            opt(s.whole_set_overhead.as_ref(), |x| x.median),
            cell(Some(s.nps.median)),
            cell(Some(s.nps.min)),
            cell(Some(s.nps.max)),
            opt(s.nps_efficiency.as_ref(), |x| x.median),
            opt(s.nps_ratio.as_ref(), |x| x.median),
            cell(Some(s.best_move_agreement.median)),
            cell(Some(s.score_agreement.median)),
            cell(Some(s.depth_reached.median)),
            opt(s.depth_mean.as_ref(), |x| x.median),
            cell(Some(s.deferred_moves.median)),
            cell(Some(s.splits.median)),
            cell(Some(s.aborted_tasks.median)),
            cell(Some(s.idle_fraction.median)),
            opt(s.root_researches.as_ref(), |x| x.median),
            opt(s.best_move_changes.as_ref(), |x| x.median),
            opt(s.speculative_share.as_ref(), |x| x.median),
            opt(s.duplicate_share.as_ref(), |x| x.median),
            s.total_time_s.count.to_string(),
        ]);
    }
    csv
}

fn positions_csv(report: &BenchReport) -> Csv {
    let mut csv = Csv::new(&[
        "algorithm",
        "threads",
        "index",
        "fen",
        "time_ms_median",
        "nodes_median",
        "depth_median",
        "speedup",
        "node_overhead",
        "best_move",
        "same_move_as_1_thread",
        "root_researches_median",
        "best_move_changes_median",
        "speculative_share_median",
        "duplicate_share_median",
    ]);
    for s in &report.summaries {
        for p in &s.per_position {
            csv.row(&[
                s.algorithm.clone(),
                s.threads.to_string(),
                p.index.to_string(),
                p.fen.clone(),
                cell(Some(p.time_ms)),
                cell(Some(p.nodes)),
                cell(Some(p.depth)),
                cell(p.speedup),
                cell(p.node_overhead),
                p.best_move.clone(),
                p.agrees_with_one_thread.to_string(),
                cell(Some(p.root_researches)),
                cell(Some(p.best_move_changes)),
                cell(p.speculative_share),
                cell(p.duplicate_share),
            ]);
        }
    }
    csv
}

fn buckets_csv(report: &BenchReport) -> Csv {
    let mut csv = Csv::new(&[
        "algorithm",
        "threads",
        "bucket",
        "from_s",
        "to_s",
        "positions",
        "one_thread_time_s",
        "speedup",
        "node_overhead",
        "nps_ratio",
        "by",
    ]);
    for s in &report.summaries {
        let breakdowns = [
            ("one_thread_time", &s.time_buckets),
            ("search_size", &s.size_buckets),
        ];
        for (by, buckets) in breakdowns {
            for b in buckets {
                csv.row(&[
                    s.algorithm.clone(),
                    s.threads.to_string(),
                    b.label.clone(),
                    cell(Some(b.from_s)),
                    cell(b.to_s),
                    b.positions.to_string(),
                    cell(Some(b.one_thread_time_s)),
                    cell(b.speedup),
                    cell(b.node_overhead),
                    cell(b.nps_ratio),
                    by.to_string(),
                ]);
            }
        }
    }
    csv
}
