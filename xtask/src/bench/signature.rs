//! `cargo xtask bench --signature`: runs `eldest bench` (the single-thread signature) and checks its node count
//! against the newest `Bench: N` line in the git history — the check CI and contributors share.

use std::path::Path;
use std::process::Command;

/// Runs the signature bench with `engine` and compares it with the history of the repository at `repo`.
///
/// # Errors
/// When the bench or git cannot run, no `Bench:` line exists, or the counts differ.
pub fn check(engine: &Path, repo: &Path) -> Result<String, String> {
    let output = Command::new(engine)
        .arg("bench")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", engine.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} bench failed: {}",
            engine.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let measured = parse_bench_line(stdout.lines().last().unwrap_or(""))?;
    let log = Command::new("git")
        .current_dir(repo)
        .args(["log", "--format=%B"])
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !log.status.success() {
        return Err(format!(
            "git log failed: {}",
            String::from_utf8_lossy(&log.stderr)
        ));
    }
    let expected = newest_signature(&String::from_utf8_lossy(&log.stdout))
        .ok_or("no `Bench: N` line in the git history")?;
    if measured.0 == expected {
        Ok(format!(
            "bench signature {} matches the newest `Bench:` line ({} nps)",
            measured.0, measured.1
        ))
    } else {
        Err(format!(
            "bench signature {} differs from the newest `Bench: {expected}` line in git log: a commit that changes \
             the search must state its new node count",
            measured.0
        ))
    }
}

/// `<N> nodes <M> nps` → (N, M).
pub fn parse_bench_line(line: &str) -> Result<(u64, u64), String> {
    match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        [nodes, "nodes", nps, "nps"] => match (nodes.parse(), nps.parse()) {
            (Ok(nodes), Ok(nps)) => Ok((nodes, nps)),
            _ => Err(format!("malformed bench line {line:?}")),
        },
        _ => Err(format!("expected `<N> nodes <M> nps`, got {line:?}")),
    }
}

/// The number of the first `Bench: N` line in `log` (newest commit first, as `git log` prints).
pub fn newest_signature(log: &str) -> Option<u64> {
    log.lines()
        .find_map(|line| line.trim().strip_prefix("Bench:")?.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_lines_parse_or_fail_clearly() {
        assert_eq!(
            parse_bench_line("5083724 nodes 3532625 nps"),
            Ok((5_083_724, 3_532_625))
        );
        assert!(parse_bench_line("5083724 nodes").is_err());
        assert!(parse_bench_line("x nodes 1 nps").is_err());
    }

    #[test]
    fn newest_signature_is_the_first_in_the_log() {
        let log = "Faster YBWC\n\nBench: 123\nOlder change\nBench: 99\n";
        assert_eq!(newest_signature(log), Some(123));
        assert_eq!(newest_signature("no signature here\nBench: soon\n"), None);
    }
}
