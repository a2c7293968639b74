//! `cargo xtask match`: games between UCI and xboard engines, with Elo, its interval and an optional SPRT.
//!
//! Engines are separate processes spoken to over UCI ([`engine`]) or the xboard protocol ([`xboard`]); the runner keeps the clocks ([`clock`]),
//! applies the rules with eldest-board and the optional adjudication ([`adjudication`]), plays every opening
//! ([`openings`]) twice with colours swapped ([`game`]), writes each game to a PGN file as it ends ([`pgn`]), and
//! reports progress, a summary and a JSON file ([`output`]). The arithmetic is in [`crate::stats`].
//! Several games run at once (`--concurrency`), each worker with its own engine processes.

mod adjudication;
mod clock;
mod engine;
mod game;
mod openings;
mod output;
mod pgn;
mod resume;
mod xboard;

use crate::cargo;
use crate::stats::elo::Outcome;
use crate::stats::sprt::{Sprt, SprtDecision};
use adjudication::{DrawRule, ResignRule};
pub use clock::Limit;
pub use engine::EngineSpec;
use engine::{EngineProcess, Protocol};
pub use game::GameSettings;
use game::{GameJob, GameRecord};
pub use openings::Opening;
use output::EngineTally;
pub use output::PairingTally;
use resume::Counted;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Without `--games`, an SPRT plays at most this many games.
const SPRT_MAX_GAMES: usize = 100_000;

/// Which engines play each other.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tournament {
    /// Every engine plays every other; results are from the engine given first.
    RoundRobin,
    /// The first engine is the baseline and every other engine plays it; results are the challenger's.
    Gauntlet,
    /// Engines play in the pairs given: the first against the second, the third against the fourth, and so on;
    /// results are from the first of each pair. Several separate matches in one run.
    Pairs,
}

/// Options of `cargo xtask match`.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "Example: ABDADA against lazy SMP, two threads each, at 8 s + 0.08 s per game, until an SPRT \
    decides (one game at a time: each engine uses both cores of a 2-core machine while it thinks):\n\n  \
    cargo xtask match --tc 8+0.08 --concurrency 1 --sprt elo0=0 elo1=10 \\\n    \
    --engine cmd=target/release/eldest,name=abdada,option.ParallelAlgorithm=abdada,option.Threads=2 \\\n    \
    --engine cmd=target/release/eldest,name=lazy,option.ParallelAlgorithm=lazy,option.Threads=2\n\n\
    When an engine's cmd is the workspace's target/release/eldest, it is built first (unless --no-build). \
    The statistics, the openings and the algorithm comparison: docs/strength.md."
)]
pub struct Args {
    /// An engine, given twice or more: cmd=PATH[,name=NAME][,proto=uci|xboard][,arg=ARG]...[,dir=DIR]
    /// [,option.NAME=VALUE]...[,tc=BASE+INC|movetime=MS|nodes=N|depth=D] (its own limit, overriding the match's).
    /// A bare cmd is looked up on PATH, then in /usr/games. xboard engines (e.g. cmd=fairymax,proto=xboard) take
    /// option.NAME for their `feature option`s, option.memory=MB and option.cores=N.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engines: Vec<String>,
    /// Time control for every engine: BASE+INC in seconds, e.g. 8+0.08 or 60.
    #[arg(long, value_name = "BASE+INC", group = "limit")]
    tc: Option<String>,
    /// Fixed time per move in milliseconds.
    #[arg(long, value_name = "MS", group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Fixed nodes per move (no clock).
    #[arg(long, value_name = "N", group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Fixed depth per move (no clock).
    #[arg(long, value_name = "D", group = "limit", value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    /// Games per pairing of engines (with --sprt: the most to play; 100000 if not given).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Stop when a pentanomial GSPRT decides (two engines only): elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]
    /// [model=logistic|normalized]. Elo is logistic unless model=normalized.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// Games played at the same time (each game runs one engine at a time; count an engine's threads).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: u64,
    /// Openings file, .epd or .pgn [default: tools/strength/openings-wide.epd, 853 positions of 10 plies].
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Keep at most this many plies of each PGN opening.
    #[arg(long, value_name = "N")]
    opening_plies: Option<usize>,
    /// Seed of the openings' shuffle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play the openings in file order.
    #[arg(long)]
    no_shuffle: bool,
    /// Who plays whom with three engines or more.
    #[arg(long, value_enum, default_value_t = Tournament::RoundRobin)]
    tournament: Tournament,
    /// Milliseconds a move may come after the clock ran out before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 50)]
    margin: u64,
    /// Seconds past its allowed time after which a silent engine is declared hung (and killed).
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    hang_grace: f64,
    /// Seconds a move without a clock (nodes, depth) may take before the engine is declared hung.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    unclocked_hang: f64,
    /// Draw adjudication: movenumber=N movecount=M score=CP (both engines within ±CP for M moves each, from
    /// move N). Off by default.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    draw: Option<Vec<String>>,
    /// Resign adjudication: movecount=M score=CP (the loser's engine at −CP or worse and the winner's at +CP or
    /// better for M moves each). Off by default.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    resign: Option<Vec<String>>,
    /// PGN file of all games, written as they end (replaced if it exists) [default: target/match/match-TIME.pgn].
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// JSON summary, rewritten after every game [default: next to the PGN, .json].
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// PGN Event tag.
    #[arg(long, default_value = "eldest match")]
    event: String,
    /// Do not build target/release/eldest before the match.
    #[arg(long)]
    no_build: bool,
    /// Continue the match of --pgn (and its JSON) after an interruption, with the same command line: its games
    /// are kept and counted, and play goes on with the games of the schedule not yet played.
    #[arg(long, requires = "pgn")]
    resume: bool,
}

/// Everything fixed before the first game.
#[derive(Debug)]
struct Plan {
    specs: Vec<EngineSpec>,
    limits: Vec<Limit>,
    openings: Vec<Opening>,
    pairings: Vec<(usize, usize)>,
    games_per_pairing: usize,
    sprt: Option<Sprt>,
    settings: GameSettings,
    concurrency: usize,
    pgn_path: PathBuf,
    json_path: PathBuf,
    event: String,
    resume: bool,
}

impl Plan {
    /// The game at schedule slot `index`: rounds in order, within a round each pairing's two games (the first
    /// engine White, then Black), every pairing on the round's opening. `None` past a pairing's game count (an
    /// odd `--games` leaves the last round's second game out).
    fn job(&self, index: usize) -> Option<GameJob> {
        let per_round = 2 * self.pairings.len();
        let (round, within) = (index / per_round, index % per_round);
        let (pairing, second_game) = (within / 2, within % 2 == 1);
        if 2 * round + usize::from(second_game) >= self.games_per_pairing {
            return None;
        }
        let (first, second) = self.pairings[pairing];
        let (white, black) = if second_game {
            (second, first)
        } else {
            (first, second)
        };
        Some(GameJob {
            number: index + 1,
            round,
            pairing,
            opening: round % self.openings.len(),
            white,
            black,
        })
    }

    fn slots(&self) -> usize {
        2 * self.pairings.len() * self.games_per_pairing.div_ceil(2)
    }
}

/// Runs the match.
///
/// # Errors
/// Bad options or files, an engine that cannot be started or configured (at the start, or when restarted after
/// a fault), or an output file that cannot be written. Faults inside games are results, not errors.
pub fn run(args: &Args) -> Result<(), String> {
    run_match(args).map(drop)
}

/// Runs the match that these words would give `cargo xtask match` (the same options, checked the same way), and
/// returns each pairing's tally: how `cargo xtask sprt` plays its games.
///
/// # Errors
/// As [`run`], and a message when the words are not valid options.
pub fn run_words(words: &[String]) -> Result<Vec<PairingTally>, String> {
    #[derive(clap::Parser)]
    #[command(name = "match")]
    struct Words {
        #[command(flatten)]
        args: Args,
    }
    let parsed = <Words as clap::Parser>::try_parse_from(
        std::iter::once("match".to_string()).chain(words.iter().cloned()),
    )
    .map_err(|e| e.to_string())?;
    run_match(&parsed.args)
}

fn run_match(args: &Args) -> Result<Vec<PairingTally>, String> {
    let plan = plan(args)?;
    build_eldest_if_needed(&plan.specs, args.no_build)?;
    // Start each engine once before any game, so a wrong path or option fails now, with a clear message.
    let from_fen = plan.openings.iter().filter(|o| o.start_fen.is_some()).count();
    for spec in &plan.specs {
        let engine = EngineProcess::start(spec)?;
        if from_fen > 0 && !engine.can_set_up_positions() {
            return Err(format!(
                "engine '{}' cannot start a game from a FEN (an xboard engine without the setboard feature), and \
                 {from_fen} of the openings have no moves from the standard position; give it openings with an EPD \
                 `moves` operation or PGN games from the start (the default set has them)",
                spec.name
            ));
        }
    }
    play(&plan)
}

fn plan(args: &Args) -> Result<Plan, String> {
    let mut specs = args
        .engines
        .iter()
        .map(|text| EngineSpec::parse(text))
        .collect::<Result<Vec<_>, _>>()?;
    if specs.len() < 2 {
        return Err("give at least two engines (--engine cmd=...,name=... twice)".into());
    }
    unique_names(&mut specs)?;
    let global_limit = if let Some(tc) = &args.tc {
        Some(Limit::parse_clock(tc)?)
    } else if let Some(ms) = args.movetime {
        Some(Limit::MoveTime(Duration::from_millis(ms)))
    } else if let Some(nodes) = args.nodes {
        Some(Limit::Nodes(nodes))
    } else {
        args.depth.map(Limit::Depth)
    };
    let limits = specs
        .iter()
        .map(|spec| {
            spec.limit.or(global_limit).ok_or_else(|| {
                format!(
                    "no limit for engine '{}': give --tc, --movetime, --nodes or --depth",
                    spec.name
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    for (spec, limit) in specs.iter().zip(&limits) {
        if spec.protocol == Protocol::Xboard {
            xboard::time_control_command(*limit)
                .map_err(|why| format!("engine '{}' ({limit}): {why}", spec.name))?;
        }
    }
    let pairings: Vec<(usize, usize)> = match args.tournament {
        Tournament::RoundRobin => (0..specs.len())
            .flat_map(|i| (i + 1..specs.len()).map(move |j| (i, j)))
            .collect(),
        Tournament::Gauntlet => (1..specs.len()).map(|challenger| (challenger, 0)).collect(),
        Tournament::Pairs => {
            if specs.len() % 2 != 0 {
                return Err("--tournament pairs needs an even number of engines".into());
            }
            (0..specs.len())
                .step_by(2)
                .map(|first| (first, first + 1))
                .collect()
        }
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && pairings.len() != 1 {
        return Err("--sprt needs exactly two engines".into());
    }
    let games_per_pairing = match (args.games, sprt) {
        (Some(games), _) => usize::try_from(games).map_err(|_| "--games is too large")?,
        (None, Some(_)) => SPRT_MAX_GAMES,
        (None, None) => return Err("give --games N or --sprt elo0=.. elo1=..".into()),
    };
    let seconds = |value: f64, name: &str| {
        (value.is_finite() && value >= 0.0)
            .then(|| Duration::from_secs_f64(value))
            .ok_or_else(|| format!("--{name} must be a non-negative number of seconds"))
    };
    let settings = GameSettings {
        margin: Duration::from_millis(args.margin),
        hang_grace: seconds(args.hang_grace, "hang-grace")?,
        unclocked_hang: seconds(args.unclocked_hang, "unclocked-hang")?,
        draw: args.draw.as_deref().map(DrawRule::parse).transpose()?,
        resign: args.resign.as_deref().map(ResignRule::parse).transpose()?,
    };
    let openings_path = args
        .openings
        .clone()
        .unwrap_or_else(|| cargo::workspace_root().join("tools/strength/openings-wide.epd"));
    let mut openings = openings::load(&openings_path, args.opening_plies)?;
    if !args.no_shuffle {
        openings::shuffle(&mut openings, args.seed);
    }
    let pgn_path = match &args.pgn {
        Some(path) => path.clone(),
        None => {
            let directory = cargo::workspace_root().join("target").join("match");
            std::fs::create_dir_all(&directory)
                .map_err(|e| format!("cannot create {}: {e}", directory.display()))?;
            let stamp = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            directory.join(format!("match-{stamp}.pgn"))
        }
    };
    let json_path = args
        .json
        .clone()
        .unwrap_or_else(|| pgn_path.with_extension("json"));
    Ok(Plan {
        specs,
        limits,
        openings,
        pairings,
        games_per_pairing,
        sprt,
        settings,
        concurrency: usize::try_from(args.concurrency).unwrap_or(1),
        pgn_path,
        json_path,
        event: args.event.clone(),
        resume: args.resume,
    })
}

/// Engines without `name=` are called after their program; repeated names get `-2`, `-3`… Two engines given
/// the same `name=` are refused, since their results could not be told apart.
fn unique_names(specs: &mut [EngineSpec]) -> Result<(), String> {
    for index in 0..specs.len() {
        let taken = |name: &str, specs: &[EngineSpec]| specs[..index].iter().any(|s| s.name == name);
        if taken(&specs[index].name, specs) {
            if specs[index].named {
                return Err(format!(
                    "two engines are named '{}'; give each a different name=",
                    specs[index].name
                ));
            }
            let base = specs[index].name.clone();
            let free = (2..)
                .map(|n| format!("{base}-{n}"))
                .find(|name| !taken(name, specs))
                .unwrap_or(base);
            specs[index].name = free;
        }
    }
    Ok(())
}

/// `a/./b/../c` → `a/c`, without touching the file system (the binary may not exist yet).
fn lexically_normal(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

fn build_eldest_if_needed(specs: &[EngineSpec], no_build: bool) -> Result<(), String> {
    let eldest = lexically_normal(&cargo::release_path("eldest"));
    let current = std::env::current_dir().unwrap_or_default();
    let uses_eldest = specs
        .iter()
        .any(|spec| lexically_normal(&current.join(&spec.command)) == eldest);
    if uses_eldest && !no_build {
        eprintln!("building target/release/eldest (cargo build --release -p eldest; --no-build skips this)");
        cargo::build_release(&["-p", "eldest"])?;
    }
    Ok(())
}

enum Message {
    Game(Box<GameRecord>),
    Fatal(String),
}

fn play(plan: &Plan) -> Result<Vec<PairingTally>, String> {
    let names: Vec<String> = plan.specs.iter().map(|s| s.name.clone()).collect();
    let mut counted = Counted {
        pairings: plan
            .pairings
            .iter()
            .map(|&(first, second)| PairingTally::new(first, second, &names, plan.sprt))
            .collect(),
        engines: names
            .iter()
            .map(|name| EngineTally {
                name: name.clone(),
                ..EngineTally::default()
            })
            .collect(),
        terminations: BTreeMap::new(),
        games: Vec::new(),
    };
    let (done, earlier_seconds, started_unix) = if plan.resume {
        let resumed = resume::load(plan, &mut counted)?;
        (resumed.done, resumed.seconds, resumed.started_unix)
    } else {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        (HashSet::new(), 0.0, now)
    };
    let mut pgn_file = OpenOptions::new()
        .create(true)
        .write(true)
        .append(plan.resume)
        .truncate(!plan.resume)
        .open(&plan.pgn_path)
        .map_err(|e| format!("cannot create {}: {e}", plan.pgn_path.display()))?;
    let planned = plan.pairings.len() * plan.games_per_pairing;
    let started = Instant::now();
    let clock = MatchClock {
        started,
        earlier_seconds,
        started_unix,
    };
    print_plan(plan);
    if plan.resume {
        println!(
            "Resuming: {} games already played ({:.0} s).",
            counted.games.len(),
            earlier_seconds
        );
    }

    // An SPRT that decided before the interruption plays no more games.
    let decided = counted
        .pairings
        .iter()
        .filter_map(|tally| tally.sprt.as_ref())
        .find(|state| state.decision != SprtDecision::Continue)
        .map(|state| format!("stopped by the SPRT: {} (LLR {:.2})", state.decision, state.llr));
    let stop = AtomicBool::new(decided.is_some());
    let next_slot = AtomicUsize::new(0);
    let mut error: Option<String> = None;
    // What the JSON says while games are still being played; replaced by how the match ended.
    let mut stop_reason = decided.unwrap_or_else(|| String::from("running"));
    std::thread::scope(|scope| {
        let (sender, receiver) = channel();
        for _ in 0..plan.concurrency {
            let sender = sender.clone();
            let (stop, next_slot, done) = (&stop, &next_slot, &done);
            scope.spawn(move || worker(plan, stop, next_slot, done, &sender));
        }
        drop(sender);
        for message in receiver {
            let game = match message {
                Message::Game(game) => game,
                Message::Fatal(message) => {
                    stop.store(true, Ordering::SeqCst);
                    error.get_or_insert(message);
                    continue;
                }
            };
            let tally = &mut counted.pairings[game.job.pairing];
            tally.record(&game);
            counted.engines[game.job.white].record(&game, eldest_board::Color::White);
            counted.engines[game.job.black].record(&game, eldest_board::Color::Black);
            *counted
                .terminations
                .entry(game.termination.key().to_string())
                .or_insert(0) += 1;
            counted.games.push(output::GameSummary::of(&game));
            let tally = &counted.pairings[game.job.pairing];
            println!(
                "{}",
                output::progress_line(
                    &game,
                    counted.games.len(),
                    plan.sprt.is_none().then_some(planned),
                    tally
                )
            );
            if game.at_fault.is_some() {
                println!("    {}", game.reason);
            }
            if let Some(state) = tally
                .sprt
                .as_ref()
                .filter(|s| s.decision != SprtDecision::Continue)
                && !stop.swap(true, Ordering::SeqCst)
            {
                stop_reason = format!("stopped by the SPRT: {} (LLR {:.2})", state.decision, state.llr);
            }
            let written = pgn_file
                .write_all(pgn::game_to_pgn(&game, &plan.event).as_bytes())
                .and_then(|()| pgn_file.flush())
                .map_err(|e| format!("cannot write {}: {e}", plan.pgn_path.display()))
                .and_then(|()| write_json(plan, &counted, &stop_reason, &clock));
            if let Err(message) = written {
                stop.store(true, Ordering::SeqCst);
                error.get_or_insert(message);
            }
        }
    });
    if let Some(message) = &error {
        stop_reason = format!("stopped by an error: {message}");
    } else if stop_reason == "running" {
        stop_reason = "completed".into();
    }
    write_json(plan, &counted, &stop_reason, &clock)?;
    print!(
        "{}",
        output::summary_text(
            &counted.pairings,
            &counted.engines,
            &counted.terminations,
            &stop_reason
        )
    );
    println!(
        "PGN: {}\nJSON: {}",
        plan.pgn_path.display(),
        plan.json_path.display()
    );
    error.map_or(Ok(counted.pairings), Err)
}

/// When the match started, and how long its earlier runs took (a resumed match counts them).
struct MatchClock {
    started: Instant,
    earlier_seconds: f64,
    started_unix: u64,
}

fn print_plan(plan: &Plan) {
    let limits: Vec<String> = plan
        .specs
        .iter()
        .zip(&plan.limits)
        .map(|(spec, limit)| format!("{} {limit}", spec.name))
        .collect();
    let games = match plan.sprt {
        Some(sprt) => format!(
            "SPRT {} (at most {} games)",
            sprt.describe(),
            plan.games_per_pairing
        ),
        None => format!("{} games per pairing", plan.games_per_pairing),
    };
    println!(
        "{} pairing(s), {games}, {} openings, concurrency {}; {}",
        plan.pairings.len(),
        plan.openings.len(),
        plan.concurrency,
        limits.join(", ")
    );
    println!(
        "PGN: {}\nJSON: {}",
        plan.pgn_path.display(),
        plan.json_path.display()
    );
}

/// One worker: takes the next game off the schedule until it is done or the match stops, with its own engine
/// processes, started on first use and restarted after a game that left one untrustworthy.
fn worker(
    plan: &Plan,
    stop: &AtomicBool,
    next_slot: &AtomicUsize,
    done: &HashSet<usize>,
    sender: &Sender<Message>,
) {
    let mut processes: Vec<Option<EngineProcess>> = plan.specs.iter().map(|_| None).collect();
    while !stop.load(Ordering::SeqCst) {
        let slot = next_slot.fetch_add(1, Ordering::SeqCst);
        if slot >= plan.slots() {
            return;
        }
        if done.contains(&slot) {
            continue;
        }
        let Some(job) = plan.job(slot) else { continue };
        for index in [job.white, job.black] {
            if processes[index].is_none() {
                match EngineProcess::start(&plan.specs[index]) {
                    Ok(process) => processes[index] = Some(process),
                    Err(message) => {
                        let _ = sender.send(Message::Fatal(message));
                        return;
                    }
                }
            }
        }
        let (white, black) = two_mut(&mut processes, job.white, job.black);
        let (Some(white), Some(black)) = (white.as_mut(), black.as_mut()) else {
            return;
        };
        let record = game::play_game(
            job,
            &plan.openings[job.opening],
            [white, black],
            [plan.limits[job.white], plan.limits[job.black]],
            &plan.settings,
        );
        for (index, restart) in [job.white, job.black].into_iter().zip(record.restart) {
            if restart {
                processes[index] = None; // dropping kills the process; the next game starts a fresh one
            }
        }
        if sender.send(Message::Game(Box::new(record))).is_err() {
            return;
        }
    }
}

/// Mutable references to two different elements.
fn two_mut<T>(items: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "an engine never plays itself");
    if a < b {
        let (left, right) = items.split_at_mut(b);
        (&mut left[a], &mut right[0])
    } else {
        let (left, right) = items.split_at_mut(a);
        (&mut right[0], &mut left[b])
    }
}

#[derive(Serialize)]
struct JsonEngine<'a> {
    name: &'a str,
    protocol: &'static str,
    command: String,
    arguments: &'a [String],
    options: BTreeMap<&'a str, &'a str>,
    limit: String,
    tally: &'a EngineTally,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    tool: &'static str,
    command_line: Vec<String>,
    started_unix: u64,
    seconds: f64,
    status: &'a str,
    openings: usize,
    concurrency: usize,
    margin_ms: u128,
    games_per_pairing: usize,
    engines: Vec<JsonEngine<'a>>,
    pairings: &'a [PairingTally],
    terminations: &'a BTreeMap<String, u64>,
    games: &'a [output::GameSummary],
}

/// The engines as the JSON file describes them: what identifies each (checked by `--resume`) and its tally.
fn json_engines<'a>(plan: &'a Plan, tallies: &'a [EngineTally]) -> Vec<JsonEngine<'a>> {
    plan.specs
        .iter()
        .zip(&plan.limits)
        .zip(tallies)
        .map(|((spec, limit), tally)| JsonEngine {
            name: &spec.name,
            protocol: spec.protocol.name(),
            command: spec.command.display().to_string(),
            arguments: &spec.arguments,
            options: spec
                .options
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect(),
            limit: limit.to_string(),
            tally,
        })
        .collect()
}

fn write_json(plan: &Plan, counted: &Counted, status: &str, clock: &MatchClock) -> Result<(), String> {
    let report = JsonReport {
        tool: "cargo xtask match",
        command_line: std::env::args().collect(),
        started_unix: clock.started_unix,
        seconds: clock.earlier_seconds + clock.started.elapsed().as_secs_f64(),
        status,
        openings: plan.openings.len(),
        concurrency: plan.concurrency,
        margin_ms: plan.settings.margin.as_millis(),
        games_per_pairing: plan.games_per_pairing,
        engines: json_engines(plan, &counted.engines),
        pairings: &counted.pairings,
        terminations: &counted.terminations,
        games: &counted.games,
    };
    let text =
        serde_json::to_string_pretty(&report).map_err(|e| format!("cannot encode the JSON summary: {e}"))?;
    std::fs::write(&plan.json_path, text + "\n")
        .map_err(|e| format!("cannot write {}: {e}", plan.json_path.display()))
}

/// The openings `cargo xtask match` plays: `path` (or its default set), shuffled with `seed`.
///
/// # Errors
/// When the file cannot be read or holds no valid opening.
pub fn load_openings(path: Option<&Path>, seed: u64) -> Result<Vec<Opening>, String> {
    let path = path.map_or_else(
        || cargo::workspace_root().join("tools/strength/openings-wide.epd"),
        Path::to_path_buf,
    );
    let mut openings = openings::load(&path, None)?;
    openings::shuffle(&mut openings, seed);
    Ok(openings)
}

/// `cargo xtask match`'s defaults: a move may arrive 50 ms after its clock ran out, a silent engine is hung 5 s
/// past its time (60 s for a move without a clock), no adjudication.
pub fn default_game_settings() -> GameSettings {
    GameSettings {
        margin: Duration::from_millis(50),
        hang_grace: Duration::from_secs(5),
        unclocked_hang: Duration::from_secs(60),
        draw: None,
        resign: None,
    }
}

/// Starts the engine of `spec` and ends it: a wrong path, a failed handshake or an option it lacks is told now.
///
/// # Errors
/// The engine's start-up error.
pub fn check_engine(spec: &EngineSpec) -> Result<(), String> {
    EngineProcess::start(spec).map(drop)
}

/// Plays the two games of one opening between `first` and `second`, `first` with White in the first game, with
/// the match's clocks, rules and fault handling (a fault loses the game; the engine at fault is restarted
/// before the second game). Returns `first`'s outcomes: how `cargo xtask tune` plays its game pairs.
///
/// # Errors
/// When an engine cannot be started (a wrong path, an option it lacks).
pub fn play_pair(
    first: &EngineSpec,
    second: &EngineSpec,
    opening: &Opening,
    opening_index: usize,
    limit: Limit,
    settings: &GameSettings,
) -> Result<[Outcome; 2], String> {
    let mut engines = [EngineProcess::start(first)?, EngineProcess::start(second)?];
    let mut outcomes = [Outcome::Draw; 2];
    for (game, outcome) in outcomes.iter_mut().enumerate() {
        let (white, black) = if game == 0 { (0, 1) } else { (1, 0) };
        let job = GameJob {
            number: game + 1,
            round: 0,
            pairing: 0,
            opening: opening_index,
            white,
            black,
        };
        let [engine_a, engine_b] = &mut engines;
        let (white_engine, black_engine) = if white == 0 {
            (engine_a, engine_b)
        } else {
            (engine_b, engine_a)
        };
        let record = game::play_game(
            job,
            opening,
            [white_engine, black_engine],
            [limit, limit],
            settings,
        );
        let first_color = if white == 0 {
            eldest_board::Color::White
        } else {
            eldest_board::Color::Black
        };
        *outcome = record.result.outcome_for(first_color);
        for (color, restart) in record.restart.iter().enumerate() {
            if *restart {
                let index = if color == 0 { white } else { black };
                let spec = if index == 0 { first } else { second };
                engines[index] = EngineProcess::start(spec)?;
            }
        }
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct TestCli {
        #[command(flatten)]
        args: Args,
    }

    fn plan_of(command_line: &str) -> Result<Plan, String> {
        let words = std::iter::once("match").chain(command_line.split_whitespace());
        let cli = TestCli::try_parse_from(words).map_err(|e| e.to_string())?;
        plan(&cli.args)
    }

    const FOUR: &str =
        "--engine cmd=e,name=a --engine cmd=e,name=b --engine cmd=e,name=c --engine cmd=e,name=d";

    #[test]
    fn tournaments_pair_the_engines() {
        let pgn = "--pgn /dev/null --nodes 10 --games 2";
        let pairings = |tournament: &str| {
            plan_of(&format!("{FOUR} {pgn} --tournament {tournament}")).map(|p| p.pairings)
        };
        assert_eq!(
            pairings("round-robin").unwrap(),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(pairings("gauntlet").unwrap(), [(1, 0), (2, 0), (3, 0)]);
        assert_eq!(pairings("pairs").unwrap(), [(0, 1), (2, 3)]);
        let three = "--engine cmd=e --engine cmd=e --engine cmd=e --tournament pairs";
        assert!(
            plan_of(&format!("{three} {pgn}"))
                .unwrap_err()
                .contains("even number")
        );
    }

    #[test]
    fn the_schedule_swaps_colours_within_a_round_and_honours_an_odd_game_count() {
        let plan = plan_of(
            "--engine cmd=e --engine cmd=e --engine cmd=e --tournament gauntlet --pgn /dev/null \
                            --depth 3 --games 3",
        )
        .unwrap();
        let jobs: Vec<Option<(usize, usize, usize, usize)>> = (0..plan.slots())
            .map(|slot| plan.job(slot).map(|j| (j.round, j.pairing, j.white, j.black)))
            .collect();
        assert_eq!(
            jobs,
            [
                Some((0, 0, 1, 0)),
                Some((0, 0, 0, 1)),
                Some((0, 1, 2, 0)),
                Some((0, 1, 0, 2)),
                Some((1, 0, 1, 0)),
                None,
                Some((1, 1, 2, 0)),
                None,
            ]
        );
        assert_eq!(plan.job(4).unwrap().opening, 1);
        // Unnamed engines are called after their program and made unique.
        let names: Vec<&str> = plan.specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["e", "e-2", "e-3"]);
    }

    #[test]
    fn two_engines_with_one_name_are_refused() {
        let error =
            plan_of("--engine cmd=e,name=x --engine cmd=f,name=x --nodes 1 --games 1 --pgn /dev/null");
        assert!(error.unwrap_err().contains("two engines are named 'x'"));
    }

    #[test]
    fn the_workspace_eldest_is_recognised_by_path() {
        let eldest = cargo::release_path("eldest");
        let dotted = eldest
            .parent()
            .unwrap()
            .join("..")
            .join("release")
            .join(".")
            .join("eldest");
        assert_eq!(lexically_normal(&dotted), lexically_normal(&eldest));
        assert_ne!(
            lexically_normal(Path::new("/usr/games/stockfish")),
            lexically_normal(&eldest)
        );
    }
}
