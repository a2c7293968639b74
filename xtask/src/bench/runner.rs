//! Runs `eldest bench --json` for one configuration and collects its per-position results. The engine times
//! each search itself, so process start-up and table allocation never enter a figure.

use super::model::{PositionRun, Run, Settings};
use indicatif::ProgressBar;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// One configuration to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job<'a> {
    /// The configuration's label: an algorithm name as `eldest bench --algorithm` takes it, followed by the
    /// knob flags of a `--variant` if it is one.
    pub algorithm: &'a str,
    /// Threads.
    pub threads: usize,
    /// Which repetition.
    pub repeat: usize,
}

/// Runs `job` with `engine` on every position, or on the one of index `only` (`eldest bench --only`), advancing
/// `progress` by one per position.
///
/// # Errors
/// When the engine cannot start, fails, or writes something that is not its bench output.
pub fn run(
    engine: &Path,
    settings: &Settings,
    job: Job<'_>,
    only: Option<usize>,
    progress: &ProgressBar,
) -> Result<Run, String> {
    let busy = (settings.idle_check_ms > 0)
        .then(|| machine_busy_percent(Duration::from_millis(settings.idle_check_ms)))
        .flatten();
    let mut command = match settings.launcher.split_first() {
        Some((program, words)) => {
            let mut command = Command::new(program);
            command.args(words).arg(engine);
            command
        }
        None => Command::new(engine),
    };
    command.arg("bench");
    if let Some(depth) = settings.depth {
        command.arg(depth.to_string());
    }
    if let Some(ms) = settings.movetime_ms {
        command.args(["--movetime", &ms.to_string()]);
    }
    let mut label = job.algorithm.split_whitespace();
    let algorithm = label.next().ok_or("a configuration without an algorithm")?;
    command.args(["--threads", &job.threads.to_string(), "--algorithm", algorithm]);
    command.args(["--hash", &settings.hash_mib.to_string(), "--json"]);
    if let Some(set) = &settings.set {
        command.args(["--set", set]);
    } else if settings.positions != "built-in" {
        command.args(["--positions", &settings.positions]);
        if settings.keep_tables {
            command.arg("--keep-tables");
        }
    }
    if settings.count_duplicates {
        command.arg("--count-duplicates");
    }
    // The serial tree of a one-thread run is its own.
    if settings.serial_tree && job.threads > 1 {
        command.arg("--serial-tree");
    }
    if let Some(index) = only {
        command.args(["--only", &(index + 1).to_string()]);
    }
    command.args(&settings.knobs).args(label);
    let what = format!("{} ×{} (repeat {})", job.algorithm, job.threads, job.repeat + 1);
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", engine.display()))?;
    // Drain stderr on its own thread so a chatty engine can never block on a full pipe.
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let stderr_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut positions = Vec::new();
    let mut last_line = String::new();
    let mut parse_error = None;
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("{what}: cannot read the engine's output: {e}"))?;
        if line.starts_with('{') {
            match serde_json::from_str::<PositionRun>(&line) {
                Ok(position) => {
                    positions.push(position);
                    progress.inc(1);
                }
                Err(error) => {
                    parse_error
                        .get_or_insert_with(|| format!("{what}: malformed result line {line:?}: {error}"));
                }
            }
        } else if !line.trim().is_empty() {
            last_line = line;
        }
    }
    let status = child.wait().map_err(|e| format!("{what}: {e}"))?;
    let stderr = stderr_reader.join().unwrap_or_default();
    if !status.success() {
        let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
        return Err(format!(
            "{what}: {} exited with {status}: {}",
            engine.display(),
            tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
        ));
    }
    if let Some(error) = parse_error {
        return Err(error);
    }
    check_totals(&positions, &last_line).map_err(|e| format!("{what}: {e}"))?;
    Ok(Run {
        algorithm: job.algorithm.to_string(),
        threads: job.threads,
        repeat: job.repeat,
        machine_busy_before_percent: busy.unwrap_or(0.0),
        positions,
    })
}

/// The engine's last line must be `<N> nodes <M> nps` with N the sum of the positions' nodes.
fn check_totals(positions: &[PositionRun], last_line: &str) -> Result<(), String> {
    let words: Vec<&str> = last_line.split_whitespace().collect();
    let total = match words.as_slice() {
        [nodes, "nodes", _, "nps"] => nodes.parse::<u64>().ok(),
        _ => None,
    }
    .ok_or_else(|| format!("expected `<N> nodes <M> nps` as the last line, got {last_line:?}"))?;
    let sum: u64 = positions.iter().map(|p| p.nodes).sum();
    if sum != total {
        return Err(format!(
            "the positions' nodes add up to {sum}, the engine reports {total}"
        ));
    }
    if positions.is_empty() {
        return Err("the engine reported no position".into());
    }
    Ok(())
}

/// The share of all CPUs busy over `window`, in percent, from /proc/stat (`None` where it cannot be read).
/// A 2-thread figure taken while something else runs is meaningless, so each run records this.
pub fn machine_busy_percent(window: Duration) -> Option<f64> {
    let before = cpu_times()?;
    std::thread::sleep(window);
    let after = cpu_times()?;
    let total = after.0.checked_sub(before.0)?;
    let idle = after.1.checked_sub(before.1)?;
    (total > 0).then(|| 100.0 * (total - idle) as f64 / total as f64)
}

/// (total, idle) jiffies of all CPUs.
fn cpu_times() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().next()?.strip_prefix("cpu ")?;
    let values: Vec<u64> = line.split_whitespace().filter_map(|v| v.parse().ok()).collect();
    let idle = values.get(3)? + values.get(4).copied().unwrap_or(0);
    Some((values.iter().sum(), idle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(nodes: u64) -> PositionRun {
        crate::bench::analysis::tests::position(0, nodes, 10, "a1a2")
    }

    #[test]
    fn totals_line_must_match_the_positions() {
        let positions = [position(10), position(32)];
        assert!(check_totals(&positions, "42 nodes 1000 nps").is_ok());
        assert!(
            check_totals(&positions, "43 nodes 1000 nps")
                .unwrap_err()
                .contains("add up to 42")
        );
        assert!(check_totals(&positions, "42 nodes").is_err());
        assert!(check_totals(&[], "0 nodes 0 nps").is_err());
    }

    #[test]
    fn machine_load_is_a_percentage() {
        if let Some(busy) = machine_busy_percent(Duration::from_millis(50)) {
            assert!((0.0..=100.0).contains(&busy), "{busy}");
        }
    }
}
