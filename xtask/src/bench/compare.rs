//! `cargo xtask bench --compare OLD.json NEW.json`: the change of every figure of every configuration the two
//! result files share, with a verdict that calls a change real only when the repeats' ranges do not overlap, and
//! the new runs against the old ones position by position (`paired`) where both searched the same positions.

use super::model::{BenchReport, ConfigSummary};
use crate::report::table::Table;
use crate::stats::summary::{Direction, Spread, compare};
use std::path::Path;

/// The figures compared, with the direction that counts as better.
fn metrics(s: &ConfigSummary) -> Vec<(&'static str, Option<Spread>, Direction)> {
    vec![
        ("time s", Some(s.total_time_s), Direction::LowerIsBetter),
        ("speedup", s.speedup, Direction::HigherIsBetter),
        (
            "whole-set speedup",
            s.whole_set_speedup,
            Direction::HigherIsBetter,
        ),
        ("speedup vs lazy", s.speedup_vs_lazy, Direction::HigherIsBetter),
        ("node overhead", s.node_overhead, Direction::LowerIsBetter),
        (
            "whole-set overhead",
            s.whole_set_overhead,
            Direction::LowerIsBetter,
        ),
        ("nps", Some(s.nps), Direction::HigherIsBetter),
        ("depth", Some(s.depth_reached), Direction::HigherIsBetter),
    ]
}

/// Compares two result files and returns the table to print.
///
/// # Errors
/// When a file cannot be read, is not a bench result of this version, or the two share no configuration.
pub fn run(old_path: &Path, new_path: &Path) -> Result<String, String> {
    let old = BenchReport::read(old_path)?;
    let new = BenchReport::read(new_path)?;
    let mut notes = Vec::new();
    let (a, b) = (&old.settings, &new.settings);
    if (a.depth, a.movetime_ms, a.source(), a.hash_mib) != (b.depth, b.movetime_ms, b.source(), b.hash_mib) {
        notes.push("warning: the two benches searched with different limits, positions or hash".to_string());
    }
    if old.machine.cpu != new.machine.cpu || old.machine.logical_cpus != new.machine.logical_cpus {
        notes.push(format!(
            "warning: different machines ({} ×{} vs {} ×{}): times are not comparable",
            old.machine.cpu, old.machine.logical_cpus, new.machine.cpu, new.machine.logical_cpus
        ));
    }
    let table = comparison_table(&old.summaries, &new.summaries);
    let Some(table) = table else {
        return Err("the two files share no (algorithm, threads) configuration".into());
    };
    let mut text = format!(
        "old: {} ({})\nnew: {} ({})\n",
        old_path.display(),
        old.machine.summary(),
        new_path.display(),
        new.machine.summary()
    );
    for note in notes {
        text += &(note + "\n");
    }
    text += &table.to_text();
    text += "verdict: a change is real only when each run's median lies outside the other run's range over its \
             repeats\n";
    match super::paired::between(&old.runs, &new.runs, a.depth.is_some() && b.depth.is_some()) {
        Some(rows) => text += &super::paired::section(&rows, false),
        None => text += "\n(no comparison position by position: the two benches searched other positions)\n",
    }
    Ok(text)
}

/// One row per (configuration, metric) present in both; `None` when nothing is shared.
pub fn comparison_table(old: &[ConfigSummary], new: &[ConfigSummary]) -> Option<Table> {
    let mut table = Table::new([
        "algorithm",
        "threads",
        "metric",
        "old",
        "new",
        "change",
        "verdict",
    ]);
    let mut any = false;
    for n in new {
        let Some(o) = old
            .iter()
            .find(|o| o.algorithm == n.algorithm && o.threads == n.threads)
        else {
            continue;
        };
        any = true;
        for ((name, old_value, direction), (_, new_value, _)) in metrics(o).into_iter().zip(metrics(n)) {
            let (Some(old_value), Some(new_value)) = (old_value, new_value) else {
                continue;
            };
            let (change, verdict) = compare(&old_value, &new_value, direction);
            table.push([
                n.algorithm.clone(),
                n.threads.to_string(),
                name.to_string(),
                format!("{:.4}", old_value.median),
                format!("{:.4}", new_value.median),
                format!("{:+.1}%", change * 100.0),
                verdict.label().to_string(),
            ]);
        }
    }
    any.then_some(table)
}
