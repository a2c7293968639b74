//! `cargo xtask bench`: the four parallel algorithms side by side on this machine — time to depth, nodes, NPS,
//! speedups, node overhead, agreement with one thread and each algorithm's own counters — as a terminal table,
//! CSV, JSON and SVG charts; `--compare` for two result files and `--signature` for the single-thread check.
//!
//! The searches run in the release `eldest` binary (`eldest bench --json`), which times each search itself, so
//! the figures exclude process start-up; a prebuilt binary can be given with `--engine` on machines without a
//! toolchain. Runs are interleaved — every configuration once, then again — so a slow spell of the machine
//! spreads over all of them instead of falsifying one.

mod analysis;
mod compare;
mod model;
mod output;
mod paired;
mod pooled;
mod profile;
mod runner;
mod signature;

use crate::cargo;
use crate::report::machine::{Machine, logical_cpus};
use eldest_search::ParallelAlgorithm;
use eldest_search::bench::BenchSet;
use indicatif::{ProgressBar, ProgressStyle};
use model::{BenchReport, ConfigSummary, SCHEMA_VERSION, Settings};
use output::write_text;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Default search depth of the short set (and of a positions file): about five minutes for the default
/// comparison on a 2-core machine. The long and game sets have their own ([`BenchSet::default_depth`]).
const DEFAULT_DEPTH: u32 = 16;
/// A machine busier than this (percent of all CPUs) before a run makes its figures suspect.
const BUSY_WARNING_PERCENT: f64 = 15.0;

/// How `cargo xtask bench` orders its searches.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interleave {
    /// Each configuration's run searches the whole set before the next configuration's run.
    Runs,
    /// Every configuration searches one position before any searches the next.
    Positions,
}

/// Options of `cargo xtask bench`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  cargo xtask bench\n  cargo xtask bench --threads 1,2,4,8,16 --depth 16 \
                        --repeat 5 --out bench-16\n  cargo xtask bench --set long --threads 1,2 --repeat 5\n  \
                        cargo xtask bench --set long --threads 1,2 --repeat 2 --hash 32,64,128   (three draws of the \
                        1-thread baseline)\n  \
                        cargo xtask bench --set game --movetime 70\n  target/release/xtask bench --engine target/release/eldest   \
                        (a machine without Rust)\n  cargo xtask bench --set long --threads 1 --launcher \"mpirun -np 2\" \
                        --engine target/release/eldest   (the cluster build)\n  cargo xtask bench --compare old/bench.json new/bench.json\n  \
                        cargo xtask bench --report old/bench.json --out old-again   (summarise again)\n  \
                        cargo xtask bench --pool a/hash-32/bench.json b/hash-16/bench.json   (pool runs made apart)\n  \
                        cargo xtask bench --signature\n\nMetrics: docs/bench.md"
)]
pub struct Args {
    /// Algorithms to compare, comma-separated [default: lazy,ybwc,abdada,simplified-abdada, or none when
    /// --variant is given].
    #[arg(long, value_delimiter = ',')]
    algorithms: Vec<ParallelAlgorithm>,
    /// One more configuration: an algorithm and its knob flags in one quoted string, as "ybwc
    /// --min-split-depth 2". Repeat it to compare knob values side by side in one interleaved run, all
    /// against the same 1-thread baseline; such a row is labelled by its string.
    #[arg(long = "variant", value_name = "ALGORITHM FLAGS")]
    variants: Vec<String>,
    /// Thread counts, comma-separated (default: 1, 2, 4, … up to the logical CPUs, and the CPU count itself).
    /// One thread is always measured: it is the baseline.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Vec<u32>,
    /// Allow more threads than logical CPUs (such rows are marked `*`).
    #[arg(long)]
    oversubscribe: bool,
    /// Search every position to this depth [default: 16 for the short set and a positions file, the set's
    /// depth for long and game (22)].
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Search every position for this many milliseconds instead (no time-to-depth figures then).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: Option<u64>,
    /// Positions file, one FEN or EPD a line (default: the 44 built-in bench positions).
    #[arg(long)]
    positions: Option<PathBuf>,
    /// A built-in position set: short (the 44 signature positions), long (middlegames of 5-30 s each at one
    /// thread) or game (consecutive positions of one game, searched in order with the table and histories
    /// kept).
    #[arg(long, conflicts_with = "positions")]
    set: Option<BenchSet>,
    /// Keep the table and histories between the positions of the --positions file (consecutive positions of a
    /// game) instead of clearing them before each.
    #[arg(long, requires = "positions")]
    keep_tables: bool,
    /// Count the work searched twice (the `twice` column; `eldest bench --count-duplicates`). It costs one
    /// table probe more per node with several threads, about 2% of two threads' speed, so it is off unless asked.
    #[arg(long)]
    count_duplicates: bool,
    /// Compare every run of several threads with the serial tree (`eldest bench --serial-tree`): each of its
    /// engine processes first searches every position with one thread, recording its positions, and the
    /// profile gets a table of how much of each parallel tree lies in the serial one. It costs speed and the
    /// serial searches' time, so it is off unless asked; not with --movetime.
    #[arg(long, conflicts_with = "movetime")]
    serial_tree: bool,
    /// How the runs are interleaved: `runs` (each configuration searches the whole set, then the next) or
    /// `positions` (every configuration searches a position, in an order that turns with the position, before
    /// any searches the next, so the machine's drift over minutes falls on all of them alike; only for sets
    /// whose tables are cleared before each position, not the game set).
    #[arg(long, value_enum, default_value_t = Interleave::Runs)]
    interleave: Interleave,
    /// Milliseconds to watch the machine's load before each run (each position's, with --interleave
    /// positions): a run started on a busy machine is flagged in the report. 0 skips the watch, for quick
    /// smoke runs whose figures nobody reads.
    #[arg(long, default_value_t = model::default_idle_check_ms(), value_parser = clap::value_parser!(u64).range(0..=10_000))]
    idle_check_ms: u64,
    /// Runs of every configuration (medians and spreads are over these).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    repeat: u32,
    /// Transposition table in MiB. Several sizes, comma-separated powers of two (32,64,128), run the whole
    /// bench once per size into the output folder's hash-N/ and pool the figures over every (size, position):
    /// each size is another draw of the deterministic 1-thread baseline (docs/bench.md).
    #[arg(long, value_delimiter = ',', default_value = "64", value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: Vec<u64>,
    /// Output folder for bench.json, the CSV files and the charts.
    #[arg(long, default_value = "target/bench")]
    out: PathBuf,
    /// A prebuilt eldest binary (skips `cargo build --release`).
    #[arg(long)]
    engine: Option<PathBuf>,
    /// Start every run of the engine under this command, whose words come before the engine's path: "mpirun -np
    /// 2" runs the cluster build (`--features cluster`) as two MPI ranks of --threads threads each
    /// (docs/cluster.md). Not checked against the CPU count.
    #[arg(long, value_name = "COMMAND")]
    launcher: Option<String>,
    /// The parallel algorithms' research knobs (engine defaults if absent), passed on to `eldest bench`.
    #[command(flatten)]
    knobs: eldest_search::parallel::cli::KnobArgs,
    /// The static evaluation (the embedded network if absent, the engine's default), passed on to `eldest bench`.
    #[command(flatten)]
    eval: eldest_search::EvalArgs,
    /// Only run `eldest bench` and check its node count against the newest `Bench:` line of git log.
    #[arg(long, conflicts_with_all = ["compare", "depth", "movetime", "positions", "set", "threads", "kind", "file"])]
    signature: bool,
    /// Compare two bench.json files instead of measuring (every file option here also reads a gzipped
    /// bench.json.gz, as committed under docs/bench/).
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"])]
    compare: Option<Vec<PathBuf>>,
    /// Pool bench.json files made apart instead of measuring: the same set and limit at different table sizes
    /// (a --hash list's hash-N/bench.json, single runs), each configuration over the sizes it was measured at,
    /// runs of one size (one engine's, at other hours) averaged position by position into that size's draws,
    /// with the whole set's ratios beside the geometric means; writes pooled.md and pooled.csv to --out.
    #[arg(long, num_args = 2.., value_name = "BENCH_JSON", conflicts_with_all = ["compare", "signature"])]
    pool: Option<Vec<PathBuf>>,
    /// Summarise a bench.json made earlier again, with this tool, instead of measuring: its figures recomputed
    /// from its raw runs, the tables printed and every output file written to --out (older results get the
    /// figures added since).
    #[arg(long, value_name = "BENCH_JSON", conflicts_with_all = ["compare", "signature", "pool"])]
    report: Option<PathBuf>,
}

/// Runs the command.
///
/// # Errors
/// Bad options, a failed build or engine, an unwritable output folder.
pub fn run(args: &Args) -> Result<(), String> {
    if let Some(files) = &args.compare {
        print!("{}", compare::run(&files[0], &files[1])?);
        return Ok(());
    }
    if let Some(files) = &args.pool {
        return pool_files(files, &args.out);
    }
    if let Some(file) = &args.report {
        return report_again(file, &args.out);
    }
    if args.signature {
        println!(
            "{}",
            signature::check(
                &engine(args)?,
                &std::env::current_dir().map_err(|e| e.to_string())?
            )?
        );
        return Ok(());
    }
    let count = match &args.positions {
        Some(path) => count_positions(path)?,
        None => args.set.unwrap_or(BenchSet::Short).fens().len(),
    };
    let settings = settings(args, engine)?;
    let sizes = table_sizes(&args.hash)?;
    if sizes.len() == 1 {
        measure(&settings, count, &args.out)?;
        return Ok(());
    }
    measure_table_sizes(&settings, count, &sizes, &args.out)
}

/// The whole bench once per table size into `out/hash-N/`, then the figures pooled over the sizes
/// (`pooled.md`, `pooled.csv`).
fn measure_table_sizes(settings: &Settings, count: usize, sizes: &[u64], out: &Path) -> Result<(), String> {
    let mut by_size = Vec::new();
    for &size in sizes {
        let at_size = Settings {
            hash_mib: size,
            ..settings.clone()
        };
        by_size.push((size, measure(&at_size, count, &out.join(format!("hash-{size}")))?));
    }
    write_pooled(
        &pooled::pool(&by_size),
        sizes,
        "Each size's own report is in hash-N/.",
        out,
    )
}

/// `--pool`: bench reports made apart, pooled over their table sizes. Each is summarised again from its raw
/// runs first, so that older files carry the figures added since (the whole set's ratios).
fn pool_files(files: &[PathBuf], out: &Path) -> Result<(), String> {
    let mut reports = Vec::new();
    for file in files {
        let mut report = BenchReport::read(file)?;
        report.summaries = analysis::summarise(&report.settings, &report.runs, report.machine.logical_cpus)
            .map_err(|e| format!("{}: {e}", file.display()))?;
        reports.push((file.display().to_string(), report));
    }
    let (rows, sizes) = pooled::pool_reports(&reports)?;
    let names: Vec<&str> = reports.iter().map(|(name, _)| name.as_str()).collect();
    write_pooled(&rows, &sizes, &format!("Pooled from {}.", names.join(", ")), out)
}

/// Prints the pooled table and writes it to `out/pooled.md` and `out/pooled.csv`.
fn write_pooled(rows: &[pooled::PooledRow], sizes: &[u64], origin: &str, out: &Path) -> Result<(), String> {
    let table = pooled::table(rows);
    let sizes_text = sizes.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    println!("pooled over the table sizes {sizes_text} MiB (each against its own 1-thread baseline):");
    print!("{}", table.to_text());
    let markdown = format!(
        "Pooled over the table sizes {sizes_text} MiB: every configuration against the 1-thread baseline of the \
         same size, geometric means over the (size, position) draws, runs of one size averaged position by position \
         into its draws; the 95% interval treats the draws as independent. {origin}\n\n{}",
        table.to_markdown()
    );
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    write_text(&out.join("pooled.md"), &markdown)?;
    write_text(&out.join("pooled.csv"), &pooled::csv(rows).text())?;
    println!("wrote {}", out.join("pooled.md").display());
    Ok(())
}

/// The table sizes to measure, once each. Several must be powers of two: the table rounds its size down to one,
/// so 48 and 32 would draw the same tree twice.
fn table_sizes(sizes: &[u64]) -> Result<Vec<u64>, String> {
    let mut unique: Vec<u64> = Vec::new();
    for &size in sizes {
        if !unique.contains(&size) {
            unique.push(size);
        }
    }
    if unique.len() > 1
        && let Some(odd) = unique.iter().find(|s| !s.is_power_of_two())
    {
        return Err(format!(
            "--hash {odd}: give several table sizes as powers of two (the table rounds its size down to one, so \
             two sizes could search with the same table)"
        ));
    }
    if unique.is_empty() {
        return Err("--hash needs a size".to_string());
    }
    Ok(unique)
}

fn engine(args: &Args) -> Result<PathBuf, String> {
    match &args.engine {
        Some(path) if path.is_file() => Ok(path.clone()),
        Some(path) => Err(format!("no engine binary at {}", path.display())),
        None => {
            eprintln!("building the engine (cargo build --release -p eldest)…");
            cargo::build_release(&["-p", "eldest"])?;
            Ok(cargo::release_path("eldest"))
        }
    }
}

/// The run's settings from the command line, the engine found by `engine` last: everything that can be refused
/// is checked before the engine is built, so a mistyped `--variant` does not wait for a release build first.
fn settings(args: &Args, engine: impl FnOnce(&Args) -> Result<PathBuf, String>) -> Result<Settings, String> {
    let cpus = logical_cpus();
    let mut threads: Vec<usize> = if args.threads.is_empty() {
        let mut t: Vec<usize> = std::iter::successors(Some(1usize), |t| Some(t * 2))
            .take_while(|&t| t <= cpus)
            .collect();
        t.push(cpus);
        t
    } else {
        args.threads.iter().map(|&t| t as usize).collect()
    };
    threads.push(1);
    threads.sort_unstable();
    threads.dedup();
    if !args.oversubscribe
        && args.launcher.is_none()
        && let Some(too_many) = threads.iter().find(|&&t| t > cpus)
    {
        return Err(format!(
            "{too_many} threads is more than this machine's {cpus} logical CPUs; pass --oversubscribe to measure it \
             anyway (such figures show contention, not scaling)"
        ));
    }
    let mut knobs = args.knobs.to_flags();
    let mut algorithms: Vec<String> = Vec::new();
    let named: Vec<ParallelAlgorithm> = if args.algorithms.is_empty() && args.variants.is_empty() {
        ParallelAlgorithm::ALL.to_vec()
    } else {
        args.algorithms.clone()
    };
    let labels = named
        .iter()
        .map(|algorithm| Ok(algorithm.name().to_string()))
        .chain(args.variants.iter().map(|words| variant_label(words, &knobs)));
    for label in labels {
        let label = label?;
        if !algorithms.contains(&label) {
            algorithms.push(label);
        }
    }
    let mut eval = args.eval.clone();
    if let Some(file) = &eval.file {
        // The engine may run elsewhere than here; bench.json names the net file wholly.
        eval.file =
            Some(std::fs::canonicalize(file).map_err(|e| format!("--eval-file {}: {e}", file.display()))?);
    }
    knobs.extend(eval.to_flags());
    let positions = match &args.positions {
        Some(path) => std::fs::canonicalize(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?
            .display()
            .to_string(),
        None => "built-in".into(),
    };
    let set = match (&args.positions, args.set) {
        (Some(_), _) => None,
        (None, set) => Some(set.unwrap_or(BenchSet::Short)),
    };
    let default_depth = match set {
        Some(set) if set != BenchSet::Short => set.default_depth(),
        _ => DEFAULT_DEPTH,
    };
    let keep_tables = args.keep_tables || set.is_some_and(BenchSet::keeps_tables);
    let interleave_positions = args.interleave == Interleave::Positions;
    if interleave_positions && keep_tables {
        return Err(
            "--interleave positions searches each position in an engine of its own, but these positions follow \
             each other with the table and histories kept (the game set, --keep-tables): use --interleave runs"
                .into(),
        );
    }
    Ok(Settings {
        algorithms,
        threads,
        oversubscribe: args.oversubscribe,
        depth: if args.movetime.is_some() {
            None
        } else {
            Some(args.depth.unwrap_or(default_depth))
        },
        movetime_ms: args.movetime,
        positions,
        set: set.map(|set| set.name().to_string()),
        keep_tables,
        count_duplicates: args.count_duplicates,
        serial_tree: args.serial_tree,
        interleave_positions,
        repeat: args.repeat as usize,
        hash_mib: args.hash.first().copied().unwrap_or(64),
        knobs,
        engine: engine(args)?.display().to_string(),
        launcher: args
            .launcher
            .as_deref()
            .map(|words| words.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
        idle_check_ms: args.idle_check_ms,
    })
}

/// The words of a `--variant`: an algorithm, then knob flags of the knob table.
#[derive(clap::Parser, Debug)]
#[command(name = "--variant", no_binary_name = true, disable_help_flag = true)]
struct VariantWords {
    algorithm: ParallelAlgorithm,
    #[command(flatten)]
    knobs: eldest_search::parallel::cli::KnobArgs,
}

/// A `--variant`'s configuration label, its words normalised (`ybwc --min-split-depth 2`): the runs carry it,
/// and [`runner::run`] splits it back into the algorithm and its flags. A knob given for every configuration
/// (`global_knobs`) cannot be set again by one variant: the engine would see it twice.
fn variant_label(words: &str, global_knobs: &[String]) -> Result<String, String> {
    use clap::Parser;
    let parsed = VariantWords::try_parse_from(words.split_whitespace()).map_err(|e| {
        // clap's message without its "error: " prefix and usage lines: this is one value of a larger command.
        let message = e.to_string();
        let lines: Vec<&str> = message
            .lines()
            .take_while(|line| !line.starts_with("Usage"))
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect();
        format!(
            "--variant {words:?}: {}",
            lines.join(" ").trim_start_matches("error: ")
        )
    })?;
    // A knob of another algorithm would be passed on and silently ignored: the run would measure the plain
    // algorithm under the variant's name.
    if let Some((knob, _)) = parsed
        .knobs
        .values
        .iter()
        .find(|(knob, _)| !knob.algorithms.contains(&parsed.algorithm))
    {
        let readers: Vec<&str> = knob.algorithms.iter().map(|a| a.name()).collect();
        return Err(format!(
            "--variant {words:?}: {} does not read --{} (a knob of {})",
            parsed.algorithm.name(),
            knob.flag,
            readers.join(", ")
        ));
    }
    let flags = parsed.knobs.to_flags();
    if let Some(twice) = flags
        .iter()
        .step_by(2)
        .find(|flag| global_knobs.iter().step_by(2).any(|g| g == *flag))
    {
        return Err(format!(
            "--variant {words:?} sets {twice}, which is also given for every configuration: give it in one place"
        ));
    }
    Ok(std::iter::once(parsed.algorithm.name().to_string())
        .chain(flags)
        .collect::<Vec<_>>()
        .join(" "))
}

/// Counts the positions of a file the way `eldest bench` reads it (it validates them itself).
fn count_positions(path: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let count = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .count();
    if count == 0 {
        return Err(format!("{} holds no position", path.display()));
    }
    Ok(count)
}

/// The jobs in run order: per repeat, the 1-thread baseline, then every configuration at every other thread
/// count. The baseline is the plain search: a first configuration's algorithm without a variant's knob flags.
fn jobs(settings: &Settings) -> Vec<runner::Job<'_>> {
    let baseline = settings
        .algorithms
        .first()
        .and_then(|label| label.split_whitespace().next())
        .unwrap_or("lazy");
    let mut jobs = Vec::new();
    for repeat in 0..settings.repeat {
        jobs.push(runner::Job {
            algorithm: baseline,
            threads: 1,
            repeat,
        });
        for algorithm in &settings.algorithms {
            for &threads in settings.threads.iter().filter(|&&t| t > 1) {
                jobs.push(runner::Job {
                    algorithm,
                    threads,
                    repeat,
                });
            }
        }
    }
    jobs
}

/// Searches one job, on every position (`None`) or on one.
type SearchOne<'f> = dyn FnMut(&runner::Job<'_>, Option<usize>) -> Result<model::Run, String> + 'f;

/// `--interleave positions`: per repeat, every job searches position 0, then every job position 1, and so on,
/// the jobs' order turned by one at each position so that none always searches first; each job's positions are
/// gathered into its run, as if it had searched them in one process. `run_one` searches one job on one position.
fn interleaved_by_position(
    jobs: &[runner::Job<'_>],
    positions: usize,
    run_one: &mut SearchOne<'_>,
) -> Result<Vec<model::Run>, String> {
    let mut runs: Vec<model::Run> = jobs
        .iter()
        .map(|job| model::Run {
            algorithm: job.algorithm.to_string(),
            threads: job.threads,
            repeat: job.repeat,
            machine_busy_before_percent: 0.0,
            positions: Vec::with_capacity(positions),
        })
        .collect();
    let repeats = jobs.iter().map(|job| job.repeat + 1).max().unwrap_or(0);
    for repeat in 0..repeats {
        let of_repeat: Vec<usize> = (0..jobs.len()).filter(|&j| jobs[j].repeat == repeat).collect();
        for position in 0..positions {
            for turn in 0..of_repeat.len() {
                let j = of_repeat[(turn + position) % of_repeat.len()];
                let mut one = run_one(&jobs[j], Some(position))?;
                let run = &mut runs[j];
                run.machine_busy_before_percent = run
                    .machine_busy_before_percent
                    .max(one.machine_busy_before_percent);
                run.positions.append(&mut one.positions);
            }
        }
    }
    Ok(runs)
}

/// Prints a report's tables and writes its files into `out`.
fn present(report: &BenchReport, out: &Path) -> Result<(), String> {
    let settings = &report.settings;
    println!("{}", report.machine.summary());
    println!(
        "{}, {} positions ({} with a move; {}), {} repeats, {} MiB hash; medians ±half-range over repeats; \
         * = more threads than CPUs",
        settings.limit(),
        report.runs.first().map_or(0, |r| r.positions.len()),
        report.summaries.first().map_or(0, |s| s.positions),
        settings.source(),
        settings.repeat,
        settings.hash_mib
    );
    let fixed_time = settings.depth.is_none();
    print!("{}", output::table(&report.summaries, fixed_time).to_text());
    println!();
    print!("{}", output::breakdown(&report.summaries, fixed_time, false));
    print!(
        "{}",
        paired::section(&paired::rows(settings, &report.runs), false)
    );
    let profile_rows = profile::rows(report);
    if !profile_rows.is_empty() {
        println!("\ntree profile (per run; × against 1 thread; ‰ per thousand main-search nodes):");
        print!(
            "{}",
            profile::table(&profile_rows, settings.depth.is_some()).to_text()
        );
        println!(
            "main-search nodes by remaining depth (× against 1 thread; the band's share of main-search nodes):"
        );
        print!(
            "{}",
            profile::depth_table(&profile_rows, settings.depth.is_some()).to_text()
        );
        if profile::has_move_loops(&profile_rows) {
            println!("table cutoffs and move loops by kind of node (× against 1 thread; moves: per node):");
            print!(
                "{}",
                profile::kind_table(&profile_rows, settings.depth.is_some()).to_text()
            );
        }
        if profile::has_serial_tree(&profile_rows) {
            println!(
                "against the serial tree (× against the serial search in the same process; reached: share of its \
                 positions visited):"
            );
            print!("{}", profile::serial_tree_table(&profile_rows).to_text());
        }
    }
    let files = output::write_all(out, report)?;
    println!(
        "wrote {} (the bench took {:.0} s)",
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        report.elapsed_s
    );
    Ok(())
}

/// `--report`: a bench.json made earlier summarised again by this tool, from its raw runs, its tables printed
/// and every output file written to `out`.
fn report_again(file: &Path, out: &Path) -> Result<(), String> {
    let mut report = BenchReport::read(file)?;
    report.summaries = analysis::summarise(&report.settings, &report.runs, report.machine.logical_cpus)?;
    present(&report, out)
}

/// Runs every job, summarises, prints the table and writes the files; returns the summaries.
fn measure(settings: &Settings, positions: usize, out: &Path) -> Result<Vec<ConfigSummary>, String> {
    let machine = Machine::describe();
    let jobs = jobs(settings);
    let limit = settings.limit();
    eprintln!("machine: {}", machine.summary());
    eprintln!(
        "{} runs: {} × threads {:?} × {} repeats, {positions} positions ({}), {limit}, {} MiB hash",
        jobs.len(),
        settings.algorithms.join(","),
        settings.threads,
        settings.repeat,
        settings.source(),
        settings.hash_mib
    );
    let progress = ProgressBar::new((jobs.len() * positions) as u64);
    progress.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions  {elapsed_precise} elapsed, ~{eta} left  {msg}",
        )
        .map_err(|e| e.to_string())?,
    );
    let started = Instant::now();
    let mut busy_warned = false;
    if settings.idle_check_ms == 0 {
        eprintln!("note: --idle-check-ms 0: the machine's load is not watched before the runs");
    }
    let mut run_one = |job: &runner::Job<'_>, only: Option<usize>| -> Result<model::Run, String> {
        progress.set_message(format!(
            "{} ×{} (repeat {}/{})",
            job.algorithm,
            job.threads,
            job.repeat + 1,
            settings.repeat
        ));
        let run = runner::run(Path::new(&settings.engine), settings, *job, only, &progress)?;
        let expected = if only.is_some() { 1 } else { positions };
        if run.positions.len() != expected || only.is_some_and(|index| run.positions[0].index != index) {
            return Err(format!(
                "{} searched {} positions where {expected} were expected: is it built from other sources than \
                 this xtask (its built-in sets differ)?",
                settings.engine,
                run.positions.len()
            ));
        }
        if run.machine_busy_before_percent > BUSY_WARNING_PERCENT && !busy_warned {
            busy_warned = true;
            progress.suspend(|| {
                eprintln!(
                    "warning: the machine was {:.0}% busy before a run: figures taken beside other work are not \
                     trustworthy",
                    run.machine_busy_before_percent
                );
            });
        }
        Ok(run)
    };
    let runs = if settings.interleave_positions {
        interleaved_by_position(&jobs, positions, &mut run_one)?
    } else {
        jobs.iter()
            .map(|job| run_one(job, None))
            .collect::<Result<Vec<_>, _>>()?
    };
    progress.finish_and_clear();
    let summaries = analysis::summarise(settings, &runs, machine.logical_cpus)?;
    let report = BenchReport {
        schema: SCHEMA_VERSION,
        machine,
        settings: settings.clone(),
        elapsed_s: started.elapsed().as_secs_f64(),
        summaries,
        runs,
    };
    present(&report, out)?;
    Ok(report.summaries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_table_sizes_are_distinct_powers_of_two() {
        assert_eq!(table_sizes(&[64]), Ok(vec![64]));
        assert_eq!(table_sizes(&[48]), Ok(vec![48]), "one size may be any");
        assert_eq!(table_sizes(&[32, 64, 32, 128]), Ok(vec![32, 64, 128]));
        let error = table_sizes(&[32, 48]).unwrap_err();
        assert!(
            error.contains("--hash 48") && error.contains("powers of two"),
            "{error}"
        );
        assert!(table_sizes(&[]).is_err());
    }

    #[test]
    fn a_variant_is_labelled_by_its_normalised_words() {
        assert_eq!(
            variant_label("ybwc  --min-split-depth 2", &[]).unwrap(),
            "ybwc --min-split-depth 2"
        );
        // Flags come back in the knob table's order, so one configuration has one label.
        assert_eq!(
            variant_label("abdada --cutoff-checks true --abdada-min-depth 4", &[]).unwrap(),
            variant_label("abdada --abdada-min-depth 4 --cutoff-checks true", &[]).unwrap()
        );
        assert_eq!(variant_label("lazy", &[]).unwrap(), "lazy");
    }

    #[test]
    fn a_bad_variant_is_refused_with_its_words() {
        for words in [
            "",
            "alphabeta",
            "ybwc --min-split-depth 65",
            "ybwc --no-such-knob 1",
            "ybwc 2",
            "lazy --min-split-depth 5",
            "ybwc --abdada-history shared",
        ] {
            let error = variant_label(words, &[]).unwrap_err();
            assert!(error.starts_with(&format!("--variant {words:?}")), "{error}");
        }
        let error = variant_label("lazy --defer-depth 4", &[]).unwrap_err();
        assert!(
            error.contains("lazy does not read --defer-depth (a knob of simplified-abdada)"),
            "{error}"
        );
        let global = ["--min-split-depth".to_string(), "4".to_string()];
        let error = variant_label("ybwc --min-split-depth 2", &global).unwrap_err();
        assert!(error.contains("also given for every configuration"), "{error}");
        assert!(variant_label("ybwc --split-group 5", &global).is_ok());
    }

    #[test]
    fn interleaving_by_position_turns_the_order_and_gathers_each_jobs_positions() {
        let job = |algorithm, threads, repeat| runner::Job {
            algorithm,
            threads,
            repeat,
        };
        let jobs = [
            job("ybwc", 1, 0),
            job("ybwc", 2, 0),
            job("abdada", 2, 0),
            job("ybwc", 1, 1),
            job("ybwc", 2, 1),
            job("abdada", 2, 1),
        ];
        let mut calls = Vec::new();
        let mut run_one = |job: &runner::Job<'_>, only: Option<usize>| {
            let index = only.expect("one position at a time");
            calls.push((job.algorithm.to_string(), job.threads, job.repeat, index));
            Ok(model::Run {
                algorithm: job.algorithm.to_string(),
                threads: job.threads,
                repeat: job.repeat,
                machine_busy_before_percent: if index == 1 { 40.0 } else { 1.0 },
                positions: vec![analysis::tests::position(index, 100, 10, "a1a2")],
            })
        };
        let runs = interleaved_by_position(&jobs, 3, &mut run_one).unwrap();
        let order: Vec<_> = calls
            .iter()
            .map(|(a, t, r, p)| (a.as_str(), *t, *r, *p))
            .collect();
        assert_eq!(
            &order[..6],
            [
                ("ybwc", 1, 0, 0),
                ("ybwc", 2, 0, 0),
                ("abdada", 2, 0, 0),
                ("ybwc", 2, 0, 1),
                ("abdada", 2, 0, 1),
                ("ybwc", 1, 0, 1),
            ],
            "every job on a position before the next, the first job turning"
        );
        assert_eq!(order.len(), 18);
        assert!(
            order[9..].iter().all(|&(_, _, repeat, _)| repeat == 1),
            "repeats in turn"
        );
        assert_eq!(runs.len(), jobs.len());
        for (run, job) in runs.iter().zip(&jobs) {
            assert_eq!(
                (run.algorithm.as_str(), run.threads, run.repeat),
                (job.algorithm, job.threads, job.repeat)
            );
            let indices: Vec<usize> = run.positions.iter().map(|p| p.index).collect();
            assert_eq!(indices, [0, 1, 2]);
            assert_eq!(
                run.machine_busy_before_percent, 40.0,
                "the busiest look before any of its searches"
            );
        }
        let mut failing = |_: &runner::Job<'_>, _: Option<usize>| Err("engine gone".to_string());
        assert_eq!(
            interleaved_by_position(&jobs, 3, &mut failing).unwrap_err(),
            "engine gone"
        );
    }

    #[test]
    fn interleaving_by_position_is_refused_where_tables_are_kept() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: Args,
        }
        let engine = |_: &Args| Ok(PathBuf::from("eldest"));
        let settings_of = |words: &[&str]| {
            let cli = Cli::try_parse_from(std::iter::once("bench").chain(words.iter().copied())).unwrap();
            settings(&cli.args, engine)
        };
        let long = settings_of(&["--set", "long", "--threads", "2", "--interleave", "positions"]).unwrap();
        assert!(long.interleave_positions);
        assert!(
            !settings_of(&["--set", "long", "--threads", "2"])
                .unwrap()
                .interleave_positions
        );
        let error =
            settings_of(&["--set", "game", "--threads", "2", "--interleave", "positions"]).unwrap_err();
        assert!(error.contains("--interleave runs"), "{error}");
    }

    #[test]
    fn variants_run_beside_the_algorithms_against_one_baseline() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: Args,
        }
        let engine = |_: &Args| Ok(PathBuf::from("eldest"));
        let parse =
            |words: &[&str]| Cli::try_parse_from(std::iter::once("bench").chain(words.iter().copied()));
        let only_variants = parse(&[
            "--variant",
            "ybwc --min-split-depth 2",
            "--variant",
            "ybwc",
            "--threads",
            "2",
            "--repeat",
            "1",
        ])
        .unwrap();
        let variants = settings(&only_variants.args, engine).unwrap();
        assert_eq!(variants.algorithms, ["ybwc --min-split-depth 2", "ybwc"]);
        let jobs = jobs(&variants);
        assert_eq!(
            jobs.iter().map(|j| (j.algorithm, j.threads)).collect::<Vec<_>>(),
            [("ybwc", 1), ("ybwc --min-split-depth 2", 2), ("ybwc", 2)],
            "one baseline run a repeat, the plain search without a variant's flags, then each configuration"
        );
        let default = parse(&["--threads", "2"]).unwrap();
        assert_eq!(
            settings(&default.args, engine).unwrap().algorithms,
            ParallelAlgorithm::ALL.map(|a| a.name().to_string())
        );
        let both = parse(&[
            "--algorithms",
            "lazy",
            "--variant",
            "abdada --cutoff-checks true",
            "--threads",
            "2",
        ])
        .unwrap();
        assert_eq!(
            settings(&both.args, engine).unwrap().algorithms,
            ["lazy", "abdada --cutoff-checks true"]
        );
        let refused = parse(&["--variant", "lazy --defer-depth 4", "--threads", "2"]).unwrap();
        let error = settings(&refused.args, |_| {
            panic!("the engine was looked for (and would be built) before the variants were checked")
        })
        .unwrap_err();
        assert!(error.contains("lazy does not read --defer-depth"), "{error}");
    }
}
