//! What a measurement ran on and with: CPU, cores, operating system, compiler, commit and date. Every result
//! file carries it, because a figure without its machine cannot be compared with anything.

use serde::{Deserialize, Serialize};
use std::process::Command;
use std::time::SystemTime;
#[cfg(test)]
use std::time::UNIX_EPOCH;

/// The machine and build a measurement was taken on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// CPU model name (from /proc/cpuinfo), or "unknown".
    pub cpu: String,
    /// Logical CPUs available to this process.
    pub logical_cpus: usize,
    /// Operating system (from /etc/os-release), or the target OS name.
    pub os: String,
    /// Kernel release, or "unknown".
    pub kernel: String,
    /// `rustc -V` where the measurement ran, or "unknown" (a machine without a toolchain runs prebuilt binaries).
    pub rustc: String,
    /// `git rev-parse HEAD`, or "unknown" outside a repository.
    pub git_commit: String,
    /// Whether the work tree had uncommitted changes.
    pub git_dirty: bool,
    /// When the measurement started, UTC, `YYYY-MM-DD HH:MM:SS`.
    pub date_utc: String,
}

impl Machine {
    /// Reads the machine's description.
    pub fn describe() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find_map(|line| {
                line.strip_prefix("model name")
                    .and_then(|rest| rest.split_once(':'))
            })
            .map_or_else(|| "unknown".to_string(), |(_, name)| name.trim().to_string());
        let os = std::fs::read_to_string("/etc/os-release")
            .ok()
            .and_then(|text| {
                text.lines().find_map(|line| {
                    line.strip_prefix("PRETTY_NAME=")
                        .map(|name| name.trim_matches('"').to_string())
                })
            })
            .unwrap_or_else(|| std::env::consts::OS.to_string());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map_or_else(|_| "unknown".to_string(), |k| k.trim().to_string());
        let git_dirty = command_output("git", &["status", "--porcelain", "--untracked-files=no"])
            .is_some_and(|status| !status.is_empty());
        Machine {
            cpu,
            logical_cpus: logical_cpus(),
            os,
            kernel,
            rustc: command_output("rustc", &["-V"]).unwrap_or_else(|| "unknown".into()),
            git_commit: command_output("git", &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into()),
            git_dirty,
            date_utc: utc_now(),
        }
    }

    /// One line for terminal output and documents.
    pub fn summary(&self) -> String {
        format!(
            "{} ({} logical CPUs), {}, kernel {}, {}, commit {}{}",
            self.cpu,
            self.logical_cpus,
            self.os,
            self.kernel,
            self.rustc,
            short_commit(&self.git_commit),
            if self.git_dirty { " (modified)" } else { "" }
        )
    }
}

/// Logical CPUs available to this process (1 if unknown).
pub fn logical_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn short_commit(commit: &str) -> &str {
    commit.get(..10).unwrap_or(commit)
}

/// The trimmed stdout of a successful command, or `None`.
fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// The current UTC time as `YYYY-MM-DD HH:MM:SS`.
pub fn utc_now() -> String {
    format_utc(SystemTime::now())
}

/// A time as `YYYY-MM-DD HH:MM:SS` (UTC).
pub fn format_utc(time: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(time)
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_of_known_instants() {
        let at = |seconds: u64| UNIX_EPOCH + std::time::Duration::from_secs(seconds);
        assert_eq!(format_utc(at(0)), "1970-01-01 00:00:00");
        assert_eq!(format_utc(at(951_782_400)), "2000-02-29 00:00:00");
        assert_eq!(format_utc(at(1_795_305_599)), "2026-11-21 23:59:59");
    }

    #[test]
    fn describing_the_machine_never_fails() {
        let machine = Machine::describe();
        assert!(machine.logical_cpus >= 1);
        assert!(!machine.summary().is_empty());
    }
}
