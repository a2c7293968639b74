//! `cargo xtask tune`: SPSA over the search's constants, driven by self-play games.
//!
//! The engine built with the `tune` feature exposes every constant of `eldest_search::TUNABLES` as a UCI spin
//! option, and `eldest tunables` lists them in OpenBench's format (name, type, default, min, max, `c_end`,
//! `r_end`). Each SPSA iteration draws a random sign per constant, plays the engine with every constant moved
//! one perturbation up or down against the engine with every constant moved the other way (game pairs on the
//! same opening, colours swapped; `cargo xtask match`'s clocks, rules and fault handling), and moves the
//! constants along the signs by the result — Spall's simultaneous perturbation with OpenBench's schedule:
//! the perturbation `c_k` falls to `c_end` and the step `a_k / c_k²` to `r_end` at the last iteration.
//!
//! Workers run their iterations side by side on the values of the moment and apply their results as they come
//! (asynchronous SPSA, as fishtest and OpenBench run it). The state is written after every result, so a run
//! stopped at any time continues with `--resume`; the constants' path goes to a CSV file, and the end prints the
//! tuned values as `setoption` lines and in OpenBench's format.

use crate::cargo;
use crate::matches::{self, EngineSpec, GameSettings, Limit, Opening};
use crate::stats::elo::Outcome;
use eldest_hashing::SplitMix64;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Options of `cargo xtask tune`.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "Example: tune the reverse-futility and null-move constants at 2 s + 0.02 s per game, \
    one one-thread game per logical CPU, 4,000 iterations of one game pair each:\n\n  \
    cargo xtask tune --params RfpMargin,RfpMaxDepth,NmpBaseReduction --iterations 4000\n\n\
    Stopped at any time, it continues with the same command and --resume. Check the tuned values with \
    cargo xtask sprt before they land (docs/strength.md)."
)]
pub struct Args {
    /// An engine built with `--features tune` [default: built into target/tune/build].
    #[arg(long, value_name = "PATH")]
    engine: Option<PathBuf>,
    /// The constants to tune, by name, comma-separated [default: every one `eldest tunables` lists].
    #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
    params: Vec<String>,
    /// SPSA iterations; each plays --pairs game pairs between the two perturbed engines.
    #[arg(long, value_name = "N", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    iterations: u64,
    /// Game pairs (one opening, colours swapped) per iteration.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pairs: u64,
    /// Time control: BASE+INC in seconds [default: 2+0.02 unless --nodes].
    #[arg(long, value_name = "BASE+INC", conflicts_with = "nodes")]
    tc: Option<String>,
    /// Fixed nodes per move instead of a clock.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Iterations played at the same time, one one-thread game each [default: the logical CPUs].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: Option<u64>,
    /// Openings file, .epd or .pgn [default: tools/strength/openings-wide.epd].
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Seed of the openings' shuffle and of the perturbations' signs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A UCI option for both engines, NAME=VALUE (repeatable); Eldest's defaults are Threads 1 and Hash 16.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// SPSA's step exponent (a_k falls as 1 / (A + k)^alpha).
    #[arg(long, default_value_t = 0.602)]
    alpha: f64,
    /// SPSA's perturbation exponent (c_k falls as 1 / k^gamma).
    #[arg(long, default_value_t = 0.101)]
    gamma: f64,
    /// SPSA's stability constant A as a fraction of --iterations.
    #[arg(long, value_name = "FRACTION", default_value_t = 0.1)]
    a_ratio: f64,
    /// Where the state (state.json), the constants' path (history.csv) and the result (tuned.txt) go.
    #[arg(long, value_name = "DIR", default_value = "target/tune")]
    out: PathBuf,
    /// Continue the run whose state is in --out (same constants, iterations and seed).
    #[arg(long)]
    resume: bool,
}

/// One constant under tuning: its range and SPSA constants from `eldest tunables`, and its value so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The UCI option's name.
    pub name: String,
    /// The engine's default.
    pub default: f64,
    /// The smallest value the option accepts.
    pub min: f64,
    /// The largest value the option accepts.
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The step a_k / c_k² at the last iteration.
    pub r_end: f64,
    /// The value so far (fractional: only the engines' values are rounded).
    pub value: f64,
}

impl Param {
    /// Parses one line of `eldest tunables` (OpenBench's format): `NAME, int, DEFAULT, MIN, MAX, C_END, R_END`.
    fn parse(line: &str) -> Result<Param, String> {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let bad = |why: &str| format!("tunable line '{line}': {why}");
        let [name, kind, default, min, max, c_end, r_end] = fields[..] else {
            return Err(bad("want NAME, int, DEFAULT, MIN, MAX, C_END, R_END"));
        };
        if name.is_empty() || kind != "int" {
            return Err(bad("want a name and the type int"));
        }
        let number = |text: &str, what: &str| {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad(&format!("{what} '{text}' is not a number")))
        };
        let param = Param {
            name: name.to_string(),
            default: number(default, "default")?,
            min: number(min, "min")?,
            max: number(max, "max")?,
            c_end: number(c_end, "c_end")?,
            r_end: number(r_end, "r_end")?,
            value: number(default, "default")?,
        };
        if !(param.min <= param.default && param.default <= param.max)
            || param.c_end <= 0.0
            || param.r_end <= 0.0
        {
            return Err(bad("want min <= default <= max and positive c_end and r_end"));
        }
        Ok(param)
    }

    /// The value the engine gets: rounded and within the option's range.
    fn engine_value(&self, value: f64) -> i64 {
        value.round().clamp(self.min, self.max) as i64
    }
}

/// SPSA's gain sequences over a run of `iterations` (OpenBench's form).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// Iterations in the run.
    pub iterations: u64,
    /// Step exponent.
    pub alpha: f64,
    /// Perturbation exponent.
    pub gamma: f64,
    /// Stability constant.
    pub big_a: f64,
}

impl Schedule {
    /// The perturbation of `param` at iteration `k` (1-based): `c_end` at the last iteration.
    fn c_k(&self, param: &Param, k: u64) -> f64 {
        param.c_end * (self.iterations as f64 / k as f64).powf(self.gamma)
    }

    /// The step of `param` at iteration `k`: `r_end · c_end²` at the last iteration.
    fn a_k(&self, param: &Param, k: u64) -> f64 {
        let a_end = param.r_end * param.c_end * param.c_end;
        a_end * ((self.big_a + self.iterations as f64) / (self.big_a + k as f64)).powf(self.alpha)
    }
}

/// The random signs of iteration `k`: one ±1 per constant, the same for the same seed and iteration.
fn signs(seed: u64, k: u64, count: usize) -> Vec<f64> {
    let mut stream = SplitMix64::new(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (0..count)
        .map(|_| if stream.next_u64() & 1 == 1 { 1.0 } else { -1.0 })
        .collect()
}

/// The settings a run was started with: a resumed run must match them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct RunSettings {
    names: Vec<String>,
    schedule: Schedule,
    pairs: u64,
    limit: String,
    seed: u64,
    options: Vec<String>,
}

/// Everything a run needs to continue: written after every iteration's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct State {
    settings: RunSettings,
    params: Vec<Param>,
    /// Iterations whose result has been applied.
    completed: u64,
    /// Wins, draws and losses of the engine moved along the signs (the "plus" engine).
    plus_wins: u64,
    draws: u64,
    plus_losses: u64,
}

impl State {
    fn new(settings: RunSettings, params: Vec<Param>) -> State {
        State {
            settings,
            params,
            completed: 0,
            plus_wins: 0,
            draws: 0,
            plus_losses: 0,
        }
    }

    /// The two engines' values at iteration `k` for `signs`: (plus, minus).
    fn points(&self, k: u64, signs: &[f64]) -> (Vec<i64>, Vec<i64>) {
        self.params
            .iter()
            .zip(signs)
            .map(|(param, sign)| {
                let c = self.settings.schedule.c_k(param, k);
                (
                    param.engine_value(param.value + sign * c),
                    param.engine_value(param.value - sign * c),
                )
            })
            .unzip()
    }

    /// Applies iteration `k`'s result: `outcomes` of the plus engine.
    fn apply(&mut self, k: u64, signs: &[f64], outcomes: &[Outcome]) {
        let mut score = 0.0;
        for outcome in outcomes {
            match outcome {
                Outcome::Win => {
                    score += 1.0;
                    self.plus_wins += 1;
                }
                Outcome::Draw => self.draws += 1,
                Outcome::Loss => {
                    score -= 1.0;
                    self.plus_losses += 1;
                }
            }
        }
        let schedule = self.settings.schedule;
        for (param, sign) in self.params.iter_mut().zip(signs) {
            // The gradient estimate (y+ − y−) / (2 c_k Δ), with the pair's score difference for y+ − y−.
            let step = schedule.a_k(param, k) * score / (schedule.c_k(param, k) * sign);
            param.value = (param.value + step).clamp(param.min, param.max);
        }
        self.completed += 1;
    }
}

/// Runs `cargo xtask tune`.
///
/// # Errors
/// A bad option, an engine without the `tune` feature, an unreadable openings file, or a state that does not
/// match the command (with `--resume`) or is in the way (without).
pub fn run(args: &Args) -> Result<(), String> {
    let engine = match &args.engine {
        Some(path) => path.clone(),
        None => build_tune_engine()?,
    };
    let available = read_tunables(&engine)?;
    let params = select(&available, &args.params)?;
    let limit = match (&args.tc, args.nodes) {
        (_, Some(nodes)) => Limit::Nodes(nodes),
        (Some(tc), None) => Limit::parse_clock(tc)?,
        (None, None) => Limit::parse_clock("2+0.02")?,
    };
    if !(args.alpha > 0.0 && args.gamma > 0.0 && args.a_ratio >= 0.0) {
        return Err("--alpha and --gamma must be positive and --a-ratio at least 0".into());
    }
    let settings = RunSettings {
        names: params.iter().map(|p| p.name.clone()).collect(),
        schedule: Schedule {
            iterations: args.iterations,
            alpha: args.alpha,
            gamma: args.gamma,
            big_a: args.a_ratio * args.iterations as f64,
        },
        pairs: args.pairs,
        limit: limit.to_string(),
        seed: args.seed,
        options: args.options.clone(),
    };
    let out = cargo::workspace_root().join(&args.out);
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let state_path = out.join("state.json");
    let state = if args.resume {
        let state = load_state(&state_path)?;
        if state.settings != settings {
            return Err(format!(
                "{} was started with other settings ({:?}); give the same command, or another --out",
                state_path.display(),
                state.settings
            ));
        }
        state
    } else if state_path.exists() {
        return Err(format!(
            "{} exists: continue it with --resume, or give another --out",
            state_path.display()
        ));
    } else {
        let _ = std::fs::remove_file(out.join("history.csv"));
        State::new(settings, params)
    };
    let openings = matches::load_openings(args.openings.as_deref(), args.seed)?;
    let concurrency = args.concurrency.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    // Start the engine once with every constant at its current value, so a missing option fails now.
    let check = engine_spec(&engine, "check", &args.options, &state.params, None)?;
    matches::check_engine(&check).map_err(|error| {
        format!("{error}; the engine must be built with the tune feature (cargo build --release -p eldest --features tune)")
    })?;
    eprintln!(
        "tuning {} constants of {} over {} iterations of {} game pair(s) at {limit}, {concurrency} at a time; \
         {} done",
        state.params.len(),
        engine.display(),
        state.settings.schedule.iterations,
        state.settings.pairs,
        state.completed
    );
    let tuner = Tuner {
        engine,
        options: args.options.clone(),
        openings,
        limit,
        settings: matches::default_game_settings(),
        out,
        shared: Mutex::new(Progress {
            next_k: state.completed + 1,
            state,
        }),
        failed: AtomicBool::new(false),
        started: Instant::now(),
    };
    let errors: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..concurrency).map(|_| scope.spawn(|| tuner.work())).collect();
        workers
            .into_iter()
            .filter_map(|worker| match worker.join() {
                Ok(Ok(())) => None,
                Ok(Err(error)) => Some(error),
                Err(_) => Some("a worker panicked".into()),
            })
            .collect()
    });
    if let Some(error) = errors.into_iter().next() {
        return Err(error);
    }
    let progress = tuner
        .shared
        .into_inner()
        .map_err(|_| "the state's lock was poisoned")?;
    finish(&progress.state, &tuner.out)
}

/// Builds `eldest` with the `tune` feature into its own target directory, beside (not over) the release build.
fn build_tune_engine() -> Result<PathBuf, String> {
    let directory = cargo::workspace_root().join("target").join("tune").join("build");
    let directory_text = directory.to_string_lossy().into_owned();
    eprintln!("building eldest with --features tune into {directory_text} (--engine PATH skips this)");
    cargo::build_release(&[
        "-p",
        "eldest",
        "--features",
        "tune",
        "--target-dir",
        &directory_text,
    ])?;
    Ok(directory.join("release").join("eldest"))
}

/// The constants `engine tunables` lists.
fn read_tunables(engine: &Path) -> Result<Vec<Param>, String> {
    let output = Command::new(engine)
        .arg("tunables")
        .output()
        .map_err(|e| format!("cannot run {} tunables: {e}", engine.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} tunables failed: {}",
            engine.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let params = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(Param::parse)
        .collect::<Result<Vec<_>, _>>()?;
    if params.is_empty() {
        return Err(format!("{} tunables listed nothing", engine.display()));
    }
    Ok(params)
}

/// The constants named in `names` (all when empty), in the engine's order.
fn select(available: &[Param], names: &[String]) -> Result<Vec<Param>, String> {
    if names.is_empty() {
        return Ok(available.to_vec());
    }
    for name in names {
        if !available.iter().any(|p| &p.name == name) {
            let known: Vec<&str> = available.iter().map(|p| p.name.as_str()).collect();
            return Err(format!(
                "--params: no tunable '{name}' (the engine has: {})",
                known.join(", ")
            ));
        }
    }
    Ok(available
        .iter()
        .filter(|p| names.contains(&p.name))
        .cloned()
        .collect())
}

/// An engine spec with the user's options and `values` for the constants (`None`: their current values).
fn engine_spec(
    engine: &Path,
    name: &str,
    options: &[String],
    params: &[Param],
    values: Option<&[i64]>,
) -> Result<EngineSpec, String> {
    let mut spec = EngineSpec::parse(&format!("cmd={},name={name}", engine.display()))?;
    spec.command = engine.to_path_buf();
    for option in options {
        let (key, value) = option
            .split_once('=')
            .ok_or_else(|| format!("--option '{option}' is not NAME=VALUE"))?;
        spec.options.push((key.to_string(), value.to_string()));
    }
    for (index, param) in params.iter().enumerate() {
        let value = values.map_or_else(|| param.engine_value(param.value), |values| values[index]);
        spec.options.push((param.name.clone(), value.to_string()));
    }
    Ok(spec)
}

fn load_state(path: &Path) -> Result<State, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not a tuning state: {e}", path.display()))
}

/// Writes the state through a temporary file, so a run killed mid-write keeps the previous one.
fn save_state(path: &Path, state: &State) -> Result<(), String> {
    let text = serde_json::to_string_pretty(state).map_err(|e| e.to_string())?;
    let temporary = path.with_extension("json.tmp");
    std::fs::write(&temporary, text).map_err(|e| format!("cannot write {}: {e}", temporary.display()))?;
    std::fs::rename(&temporary, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

struct Progress {
    state: State,
    /// The next iteration number to hand out.
    next_k: u64,
}

struct Tuner {
    engine: PathBuf,
    options: Vec<String>,
    openings: Vec<Opening>,
    limit: Limit,
    settings: GameSettings,
    out: PathBuf,
    shared: Mutex<Progress>,
    failed: AtomicBool,
    started: Instant,
}

impl Tuner {
    /// One worker: takes the next iteration, plays it on the values of the moment, applies its result.
    fn work(&self) -> Result<(), String> {
        let lock_error = || "the state's lock was poisoned".to_string();
        loop {
            if self.failed.load(Ordering::Relaxed) {
                return Ok(());
            }
            let (k, signs, plus, minus, pairs, first_opening, params) = {
                let mut progress = self.shared.lock().map_err(|_| lock_error())?;
                let schedule = progress.state.settings.schedule;
                if progress.next_k > schedule.iterations {
                    return Ok(());
                }
                let k = progress.next_k;
                progress.next_k += 1;
                let signs = signs(progress.state.settings.seed, k, progress.state.params.len());
                let (plus, minus) = progress.state.points(k, &signs);
                let pairs = progress.state.settings.pairs;
                (
                    k,
                    signs,
                    plus,
                    minus,
                    pairs,
                    (k - 1) * pairs,
                    progress.state.params.clone(),
                )
            };
            let result = (|| -> Result<Vec<Outcome>, String> {
                let plus = engine_spec(&self.engine, "plus", &self.options, &params, Some(&plus))?;
                let minus = engine_spec(&self.engine, "minus", &self.options, &params, Some(&minus))?;
                let mut outcomes = Vec::new();
                for pair in 0..pairs {
                    let index = ((first_opening + pair) % self.openings.len() as u64) as usize;
                    let opening = &self.openings[index];
                    outcomes.extend(matches::play_pair(
                        &plus,
                        &minus,
                        opening,
                        index,
                        self.limit,
                        &self.settings,
                    )?);
                }
                Ok(outcomes)
            })();
            let outcomes = match result {
                Ok(outcomes) => outcomes,
                Err(error) => {
                    self.failed.store(true, Ordering::Relaxed);
                    return Err(error);
                }
            };
            let mut progress = self.shared.lock().map_err(|_| lock_error())?;
            progress.state.apply(k, &signs, &outcomes);
            save_state(&self.out.join("state.json"), &progress.state)?;
            append_history(&self.out.join("history.csv"), &progress.state, k, &outcomes)?;
            report(&progress.state, k, &outcomes, self.started);
        }
    }
}

fn append_history(path: &Path, state: &State, k: u64, outcomes: &[Outcome]) -> Result<(), String> {
    let new = !path.exists();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut line = String::new();
    if new {
        line.push_str("completed,iteration,score");
        for param in &state.params {
            line.push(',');
            line.push_str(&param.name);
        }
        line.push('\n');
    }
    let score: i64 = outcomes.iter().map(|o| outcome_score(*o)).sum();
    line.push_str(&format!("{},{k},{score}", state.completed));
    for param in &state.params {
        line.push_str(&format!(",{:.3}", param.value));
    }
    line.push('\n');
    file.write_all(line.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn outcome_score(outcome: Outcome) -> i64 {
    match outcome {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    }
}

/// A progress line after every result; every constant's value every 20 iterations.
fn report(state: &State, k: u64, outcomes: &[Outcome], started: Instant) {
    let total = state.settings.schedule.iterations;
    let elapsed = started.elapsed().as_secs_f64();
    let score: i64 = outcomes.iter().map(|o| outcome_score(*o)).sum();
    eprintln!(
        "[{}/{total}] iteration {k}: plus {score:+} | plus +{} ={} -{} | {:.0} s",
        state.completed, state.plus_wins, state.draws, state.plus_losses, elapsed
    );
    if state.completed.is_multiple_of(20) || state.completed == total {
        let values: Vec<String> = state
            .params
            .iter()
            .map(|p| format!("{} {:.2} ({:+.2})", p.name, p.value, p.value - p.default))
            .collect();
        eprintln!("  {}", values.join(", "));
    }
}

/// The tuned values: a table on stdout, `setoption` lines, and tuned.txt in OpenBench's format.
fn finish(state: &State, out: &Path) -> Result<(), String> {
    let mut table = comfy_table::Table::new();
    table.set_header(["constant", "default", "tuned", "change", "range"]);
    let mut tuned = String::new();
    for param in &state.params {
        let value = param.engine_value(param.value);
        table.add_row([
            param.name.clone(),
            format!("{}", param.default),
            format!("{value} ({:.2})", param.value),
            format!("{:+.2}", param.value - param.default),
            format!("{}..{}", param.min, param.max),
        ]);
        tuned.push_str(&format!(
            "{}, int, {:.1}, {:.1}, {:.1}, {:.1}, {}\n",
            param.name, param.value, param.min, param.max, param.c_end, param.r_end
        ));
    }
    println!("{table}");
    println!(
        "{} iterations; plus engine +{} ={} -{}",
        state.completed, state.plus_wins, state.draws, state.plus_losses
    );
    for param in &state.params {
        println!(
            "setoption name {} value {}",
            param.name,
            param.engine_value(param.value)
        );
    }
    let path = out.join("tuned.txt");
    std::fs::write(&path, tuned).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("written: {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, default: f64, min: f64, max: f64, c_end: f64, r_end: f64) -> Param {
        Param {
            name: name.into(),
            default,
            min,
            max,
            c_end,
            r_end,
            value: default,
        }
    }

    fn settings(names: &[&str], iterations: u64) -> RunSettings {
        RunSettings {
            names: names.iter().map(|n| n.to_string()).collect(),
            schedule: Schedule {
                iterations,
                alpha: 0.602,
                gamma: 0.101,
                big_a: 0.1 * iterations as f64,
            },
            pairs: 1,
            limit: "2+0.02".into(),
            seed: 7,
            options: Vec::new(),
        }
    }

    #[test]
    fn tunable_lines_are_parsed_and_bad_ones_refused() {
        let p = Param::parse("RfpMargin, int, 80.0, 20.0, 200.0, 8.0, 0.002").unwrap();
        assert_eq!(p, param("RfpMargin", 80.0, 20.0, 200.0, 8.0, 0.002));
        for bad in [
            "",
            "RfpMargin, int, 80.0, 20.0, 200.0, 8.0",
            "RfpMargin, float, 80.0, 20.0, 200.0, 8.0, 0.002",
            "RfpMargin, int, eighty, 20.0, 200.0, 8.0, 0.002",
            "RfpMargin, int, 280.0, 20.0, 200.0, 8.0, 0.002",
            "RfpMargin, int, 80.0, 20.0, 200.0, 0.0, 0.002",
            ", int, 80.0, 20.0, 200.0, 8.0, 0.002",
            "RfpMargin, int, NaN, 20.0, 200.0, 8.0, 0.002",
        ] {
            assert!(Param::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end_and_falls_on_the_way() {
        let p = param("X", 50.0, 0.0, 100.0, 4.0, 0.002);
        let schedule = settings(&["X"], 1000).schedule;
        assert!((schedule.c_k(&p, 1000) - 4.0).abs() < 1e-9);
        let r = schedule.a_k(&p, 1000) / schedule.c_k(&p, 1000).powi(2);
        assert!((r - 0.002).abs() < 1e-12);
        assert!(schedule.c_k(&p, 1) > schedule.c_k(&p, 500));
        assert!(schedule.a_k(&p, 1) > schedule.a_k(&p, 500));
    }

    #[test]
    fn signs_are_plus_or_minus_one_repeatable_and_mixed() {
        let a = signs(3, 17, 64);
        assert_eq!(a, signs(3, 17, 64));
        assert_ne!(a, signs(3, 18, 64));
        assert!(a.iter().all(|s| *s == 1.0 || *s == -1.0));
        let plus = a.iter().filter(|s| **s > 0.0).count();
        assert!((16..=48).contains(&plus), "{plus} of 64 signs positive");
    }

    #[test]
    fn engine_values_are_rounded_into_the_range_and_straddle_the_value() {
        let mut state = State::new(settings(&["X"], 100), vec![param("X", 2.0, 1.0, 6.0, 1.0, 0.002)]);
        let (plus, minus) = state.points(100, &[1.0]);
        assert_eq!((plus, minus), (vec![3], vec![1]));
        state.params[0].value = 1.2;
        let (plus, minus) = state.points(100, &[-1.0]);
        assert_eq!((plus, minus), (vec![1], vec![2]));
    }

    #[test]
    fn a_win_moves_each_constant_along_its_sign_and_a_loss_against_it() {
        let mut state = State::new(
            settings(&["X", "Y"], 100),
            vec![
                param("X", 50.0, 0.0, 100.0, 4.0, 0.002),
                param("Y", 50.0, 0.0, 100.0, 4.0, 0.002),
            ],
        );
        state.apply(100, &[1.0, -1.0], &[Outcome::Win, Outcome::Draw]);
        assert!(state.params[0].value > 50.0 && state.params[1].value < 50.0);
        let moved = state.params[0].value - 50.0;
        assert!((moved - 0.002 * 4.0).abs() < 1e-9, "{moved}");
        state.apply(100, &[1.0, -1.0], &[Outcome::Loss, Outcome::Draw]);
        assert!((state.params[0].value - 50.0).abs() < 1e-9);
        assert_eq!(
            (state.plus_wins, state.draws, state.plus_losses, state.completed),
            (1, 2, 1, 2)
        );
    }

    /// SPSA on a game whose winner is drawn from how close each side's constants are to a hidden optimum: the
    /// constants must travel most of the way there.
    #[test]
    fn it_climbs_towards_the_optimum_of_a_simulated_game() {
        let iterations = 3000;
        let optimum = [80.0, 20.0];
        let mut state = State::new(
            settings(&["X", "Y"], iterations),
            vec![
                param("X", 50.0, 0.0, 100.0, 5.0, 0.02),
                param("Y", 50.0, 0.0, 100.0, 5.0, 0.02),
            ],
        );
        let strength = |values: &[i64]| -> f64 {
            -values
                .iter()
                .zip(optimum)
                .map(|(v, o)| (*v as f64 - o).powi(2))
                .sum::<f64>()
                / 400.0
        };
        // 60% draws; of the decisive games the stronger side wins a logistic share of its edge.
        let mut games = SplitMix64::new(99);
        let mut play = |edge: f64| {
            let share = 1.0 / (1.0 + (-edge).exp());
            let u = (games.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            if u < 0.4 * share {
                Outcome::Win
            } else if u < 0.4 {
                Outcome::Loss
            } else {
                Outcome::Draw
            }
        };
        for k in 1..=iterations {
            let signs = signs(state.settings.seed, k, 2);
            let (plus, minus) = state.points(k, &signs);
            let edge = strength(&plus) - strength(&minus);
            let outcomes = [play(edge), play(edge)];
            state.apply(k, &signs, &outcomes);
        }
        let [x, y] = [state.params[0].value, state.params[1].value];
        assert!(
            x > 70.0 && y < 30.0,
            "ended at ({x:.1}, {y:.1}), optimum (80, 20)"
        );
    }

    #[test]
    fn the_state_survives_a_round_trip_and_a_changed_command_is_told_apart() {
        let dir = std::env::temp_dir().join(format!("eldest-tune-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.json");
        let mut state = State::new(settings(&["X"], 10), vec![param("X", 3.0, 1.0, 6.0, 1.0, 0.002)]);
        state.apply(1, &[1.0], &[Outcome::Win, Outcome::Win]);
        save_state(&path, &state).unwrap();
        assert_eq!(load_state(&path).unwrap(), state);
        assert_ne!(load_state(&path).unwrap().settings, settings(&["X"], 11));
        std::fs::write(&path, "{ not json").unwrap();
        assert!(load_state(&path).unwrap_err().contains("not a tuning state"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unknown_constants_are_refused_with_the_known_ones_named() {
        let available = vec![
            param("A", 1.0, 0.0, 2.0, 1.0, 0.002),
            param("B", 1.0, 0.0, 2.0, 1.0, 0.002),
        ];
        assert_eq!(select(&available, &[]).unwrap().len(), 2);
        assert_eq!(select(&available, &["B".into()]).unwrap()[0].name, "B");
        let error = select(&available, &["C".into()]).unwrap_err();
        assert!(error.contains("'C'") && error.contains("A, B"), "{error}");
    }
}
