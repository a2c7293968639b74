//! `cargo xtask sprt`: the strength test of a change. It builds the engine of two git revisions (or takes a
//! prebuilt binary for either side), plays them against each other in one-thread games that fill the machine
//! until a pentanomial GSPRT decides, and prints the block a strength commit carries in its message: the
//! revisions and their `Bench`, the bounds, games, W/D/L, the pentanomial counts, Elo with its interval and
//! the LLR — the way Stockfish's fishtest and OpenBench report a test.
//!
//! The games are `cargo xtask match`'s ([`crate::matches`]): the same clocks, rules, adjudication, fault
//! handling, PGN and JSON. Builds are cached by commit under `target/sprt/bin/`, so a test against the same
//! base twice builds it once.

use crate::cargo;
use crate::matches;
use crate::report::machine;
use crate::stats::elo::{Pentanomial, signed, unsigned};
use crate::stats::sprt::Sprt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Options of `cargo xtask sprt`.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "Example: is the working tree's HEAD stronger than main? Until the SPRT decides, at \
    8 s + 0.08 s per game, one-thread games on every logical CPU:\n\n  \
    cargo xtask sprt --base main --test HEAD\n\n\
    A binary on either side skips the build: --test target/release/eldest. The summary block at the end goes \
    into the commit message (docs/strength.md, \"Testing a change\")."
)]
pub struct Args {
    /// The engine under test: a git revision (built in target/sprt) or the path of an engine binary.
    #[arg(long, value_name = "REV|PATH", default_value = "HEAD")]
    test: String,
    /// The baseline: a git revision or the path of an engine binary.
    #[arg(long, value_name = "REV|PATH")]
    base: String,
    /// Time control: BASE+INC in seconds.
    #[arg(long, value_name = "BASE+INC", default_value = "8+0.08")]
    tc: String,
    /// H0: the Elo difference (logistic) the test accepts when the change is no gain.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    elo0: f64,
    /// H1: the Elo difference the test accepts as a gain.
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Games at the same time (default: the machine's logical CPUs, one one-thread game each).
    #[arg(long, value_name = "N")]
    concurrency: Option<u64>,
    /// The most games before the test stops undecided.
    #[arg(long, value_name = "N", default_value_t = 40_000)]
    games: u64,
    /// Openings file (default: cargo xtask match's, tools/strength/openings-wide.epd).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Seed of the openings' shuffle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A UCI option for both engines, NAME=VALUE (repeatable); Eldest's defaults are Threads 1 and Hash 16.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Where builds, the PGN and the JSON go.
    #[arg(long, value_name = "DIR", default_value = "target/sprt")]
    out: PathBuf,
    /// Continue the test of the same command line after an interruption (a closed session, a reboot): the
    /// games already in --out are kept and counted, and the test goes on until it decides.
    #[arg(long)]
    resume: bool,
}

/// One side of the test: its binary and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Side {
    /// The name in the games: `base-<short hash>` or `test-<file name>`.
    name: String,
    /// The engine binary.
    binary: PathBuf,
    /// The full commit hash when the side is a revision.
    commit: Option<String>,
    /// What the user gave.
    given: String,
}

/// Builds (or finds) both engines, plays the test and prints the summary block.
///
/// # Errors
/// A message when a revision is unknown or does not build, a binary is not an engine, or the match fails.
pub fn run(args: &Args) -> Result<(), String> {
    // The bounds are checked before anything is built.
    let bounds = [
        format!("elo0={}", args.elo0),
        format!("elo1={}", args.elo1),
        format!("alpha={}", args.alpha),
        format!("beta={}", args.beta),
    ];
    Sprt::parse(&bounds)?;
    let options = engine_options(&args.options)?;
    let out = if args.out.is_absolute() {
        args.out.clone()
    } else {
        cargo::workspace_root().join(&args.out)
    };
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let base = resolve("base", &args.base, &out)?;
    let test = resolve("test", &args.test, &out)?;
    if base.name == test.name {
        return Err(format!(
            "--base and --test are the same engine ({}); give two revisions or binaries",
            base.name
        ));
    }
    let benches = [bench_signature(&test.binary), bench_signature(&base.binary)];
    let bench = |side: usize| {
        benches[side].map_or_else(|| "none: not an Eldest binary".to_string(), |n| n.to_string())
    };
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| machine::logical_cpus() as u64)
        .max(1);
    let stem = out.join(format!("{}-vs-{}", test.name, base.name));
    let pgn = stem.with_extension("pgn");
    let mut words: Vec<String> = vec![
        "--tc".into(),
        args.tc.clone(),
        "--games".into(),
        args.games.to_string(),
        "--concurrency".into(),
        concurrency.to_string(),
        "--seed".into(),
        args.seed.to_string(),
        "--no-build".into(),
        "--pgn".into(),
        pgn.display().to_string(),
        "--event".into(),
        format!("eldest sprt {} vs {}", test.name, base.name),
        "--sprt".into(),
    ];
    words.extend(bounds);
    if args.resume {
        words.push("--resume".into());
    }
    if let Some(openings) = &args.openings {
        words.extend(["--openings".into(), openings.display().to_string()]);
    }
    for side in [&test, &base] {
        words.push("--engine".into());
        words.push(format!(
            "cmd={},name={}{options}",
            side.binary.display(),
            side.name
        ));
    }
    println!(
        "sprt: {} (Bench: {}) against {} (Bench: {}), {concurrency} games at a time",
        test.name,
        bench(0),
        base.name,
        bench(1)
    );
    let pairings = matches::run_words(&words)?;
    let Some(pairing) = pairings.first() else {
        return Err("the match played no pairing".into());
    };
    print!(
        "{}",
        summary_block(&test, &base, benches[0], &args.tc, &options, pairing)
    );
    Ok(())
}

/// `,option.NAME=VALUE` for each `--option NAME=VALUE` (a later one replaces an earlier one of the same name).
/// Nothing is added: Eldest's defaults are already one thread and a 16 MiB table.
fn engine_options(given: &[String]) -> Result<String, String> {
    let mut options: Vec<(String, String)> = Vec::new();
    for option in given {
        let (name, value) = option
            .split_once('=')
            .filter(|(name, _)| !name.trim().is_empty())
            .ok_or_else(|| format!("--option '{option}' is not NAME=VALUE"))?;
        if option.contains(',') {
            return Err(format!("--option '{option}': a value may not hold a comma"));
        }
        options.retain(|(known, _)| !known.eq_ignore_ascii_case(name.trim()));
        options.push((name.trim().to_string(), value.trim().to_string()));
    }
    Ok(options
        .iter()
        .map(|(name, value)| format!(",option.{name}={value}"))
        .collect())
}

/// A binary path as given, or a revision built (once) into `out/bin/eldest-<commit>`.
fn resolve(role: &str, given: &str, out: &Path) -> Result<Side, String> {
    let path = PathBuf::from(given);
    if path.is_file() {
        let file = path
            .file_name()
            .map_or_else(|| "eldest".into(), |f| f.to_string_lossy().into_owned());
        return Ok(Side {
            name: format!("{role}-{file}"),
            binary: path,
            commit: None,
            given: given.into(),
        });
    }
    let commit = git(&["rev-parse", "--verify", "--quiet", &format!("{given}^{{commit}}")])
        .map_err(|_| format!("--{role} '{given}' is neither a file nor a git revision of this repository"))?;
    let short: String = commit.chars().take(10).collect();
    let binary = out.join("bin").join(format!("eldest-{short}"));
    if !binary.is_file() {
        build_revision(&commit, out, &binary)?;
    }
    Ok(Side {
        name: format!("{role}-{short}"),
        binary,
        commit: Some(commit),
        given: given.into(),
    })
}

/// Exports `commit`'s tree (`git archive`, so the working tree is never touched), builds its engine in release
/// mode with a target directory shared by every revision (dependencies are built once), and copies the binary.
fn build_revision(commit: &str, out: &Path, binary: &Path) -> Result<(), String> {
    let short: String = commit.chars().take(10).collect();
    let source = out.join("src").join(&short);
    let _ = std::fs::remove_dir_all(&source);
    std::fs::create_dir_all(&source).map_err(|e| format!("cannot create {}: {e}", source.display()))?;
    eprintln!("sprt: building {short} (git archive + cargo build --release -p eldest)");
    let root = cargo::workspace_root();
    let mut archive = Command::new("git")
        .arg("-C")
        .arg(&root)
        .args(["archive", "--format=tar", commit])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git archive: {e}"))?;
    let tar_input = archive.stdout.take().ok_or("git archive gave no output")?;
    let unpacked = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(&source)
        .stdin(tar_input)
        .status()
        .map_err(|e| format!("cannot run tar: {e}"))?;
    let archived = archive.wait().map_err(|e| format!("git archive failed: {e}"))?;
    if !archived.success() || !unpacked.success() {
        return Err(format!("could not export commit {short} (git archive | tar)"));
    }
    let target = out.join("build");
    let built = Command::new("cargo")
        .current_dir(&source)
        .args(["build", "--release", "--quiet", "-p", "eldest", "--target-dir"])
        .arg(&target)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !built.success() {
        return Err(format!(
            "commit {short} does not build (cargo build --release -p eldest)"
        ));
    }
    std::fs::create_dir_all(out.join("bin"))
        .map_err(|e| format!("cannot create {}/bin: {e}", out.display()))?;
    std::fs::copy(target.join("release").join("eldest"), binary)
        .map_err(|e| format!("cannot copy the engine of {short}: {e}"))?;
    let _ = std::fs::remove_dir_all(&source);
    Ok(())
}

/// `git ARGS` in the workspace; its trimmed output, or an error when it fails.
fn git(args: &[&str]) -> Result<String, String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(cargo::workspace_root())
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).trim().to_string());
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// The node count of `BINARY bench` (its last line reads `N nodes M nps`); `None` for an engine that has no
/// such command (any UCI engine can be tested). Its stdin is closed, so an engine that ignores the argument and
/// waits for UCI commands ends at once.
fn bench_signature(binary: &Path) -> Option<u64> {
    let output = Command::new(binary)
        .arg("bench")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    parse_bench(&String::from_utf8_lossy(&output.stdout))
}

/// The N of the last line of the form `N nodes ...`.
fn parse_bench(text: &str) -> Option<u64> {
    text.lines().rev().find_map(|line| {
        let mut words = line.split_whitespace();
        let nodes = words.next()?.parse().ok()?;
        (words.next() == Some("nodes")).then_some(nodes)
    })
}

/// The block for the commit message, in the layout of fishtest's and OpenBench's reports.
fn summary_block(
    test: &Side,
    base: &Side,
    test_bench: Option<u64>,
    tc: &str,
    options: &str,
    pairing: &matches::PairingTally,
) -> String {
    let describe = |side: &Side| match &side.commit {
        Some(commit) => format!("{} ({})", &commit[..commit.len().min(10)], side.given),
        None => side.given.clone(),
    };
    let conditions: Vec<&str> = std::iter::once(tc)
        .chain(options.split(",option.").filter(|o| !o.is_empty()))
        .collect();
    let wdl = &pairing.wdl;
    let elo = pairing.elo.map_or_else(
        || "no complete pair".to_string(),
        |e| {
            format!(
                "{} ± {} (95%) [{}, {}]",
                signed(e.elo),
                unsigned(e.elo_error),
                signed(e.elo_low),
                signed(e.elo_high)
            )
        },
    );
    let sprt = pairing.sprt.as_ref().map_or_else(String::new, |state| {
        format!(
            "LLR   | {:.2} ({:.2}, {:.2}) [{}, {}]: {}\n",
            state.llr,
            state.lower_bound,
            state.upper_bound,
            state.parameters.elo0,
            state.parameters.elo1,
            state.decision
        )
    });
    let counts = pentanomial_counts(&pairing.pentanomial);
    let bench = test_bench.map_or_else(String::new, |nodes| format!("Bench: {nodes}\n\n"));
    format!(
        "\n{bench}\
         Test  | {} vs {}\n\
         Elo   | {elo}\n\
         SPRT  | {}\n\
         {sprt}\
         Games | N: {} W: {} L: {} D: {}\n\
         Penta | [{}]\n",
        describe(test),
        describe(base),
        conditions.join(" "),
        wdl.wins + wdl.draws + wdl.losses,
        wdl.wins,
        wdl.losses,
        wdl.draws,
        counts
    )
}

/// `LL, LD, WL+DD, WD, WW` counts as fishtest prints them.
fn pentanomial_counts(pentanomial: &Pentanomial) -> String {
    pentanomial
        .counts()
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_lines_give_the_node_count() {
        let text = "position 44/44: ...\ndepth 12, 44 positions\n5083724 nodes 3079419 nps\n";
        assert_eq!(parse_bench(text), Some(5_083_724));
        assert_eq!(parse_bench("no bench here\n"), None);
        assert_eq!(parse_bench("12 nodes\n7 positions\n"), Some(12));
    }

    #[test]
    fn engine_options_are_the_users_and_the_last_of_a_name_wins() {
        assert_eq!(engine_options(&[]).unwrap(), "");
        assert_eq!(
            engine_options(&["Hash=64".into(), "Move Overhead=50".into(), "hash=32".into()]).unwrap(),
            ",option.Move Overhead=50,option.hash=32"
        );
        assert!(
            engine_options(&["Threads".into()])
                .unwrap_err()
                .contains("NAME=VALUE")
        );
        assert!(engine_options(&["=3".into()]).unwrap_err().contains("NAME=VALUE"));
        assert!(engine_options(&["X=1,2".into()]).unwrap_err().contains("comma"));
    }

    #[test]
    fn an_unknown_revision_is_a_clear_error() {
        let out = std::env::temp_dir().join(format!("xtask-sprt-{}", std::process::id()));
        let error = resolve("base", "no-such-revision-anywhere", &out).unwrap_err();
        assert!(error.contains("neither a file nor a git revision"), "{error}");
    }
}
