//! `eldest`: the Eldest chess engine's command-line entry point.
//!
//! - `eldest` with no arguments speaks UCI on stdin/stdout (see `docs/uci.md`). Built with `--features cluster`,
//!   `mpirun -np N eldest` is one engine over N processes: the first speaks UCI (see `docs/cluster.md`).
//! - `eldest bench [depth]` searches the fixed bench positions with one thread and a 16 MiB table; per-position
//!   lines go to stderr and the last stdout line is `<N> nodes <M> nps` (the format OpenBench reads). Flags
//!   (`--threads`, `--algorithm`, `--hash`, `--movetime`, `--positions`, the parallel knobs, `--json`) make it
//!   the measuring tool behind `cargo xtask bench`.
//! - `eldest perft <depth> [fen]` counts the leaf nodes of the legal move tree, split by root move, in
//!   Stockfish's output format; timing goes to stderr so stdout stays machine-readable.
//!
//! Diagnostics go through `tracing` to stderr when `RUST_LOG` is set, or to the UCI option `Debug Log File`;
//! never to stdout.
#![forbid(unsafe_code)]

mod bench;
#[cfg(feature = "cluster")]
mod cluster_bench;
mod datagen;
mod logging;

use clap::{Parser, Subcommand};
use eldest_board::Position;
use eldest_uci::SessionHooks;
use logging::LogDestination;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// The deepest perft the command accepts: depth 15 of the start position is already ~2·10^21 nodes.
const MAX_PERFT_DEPTH: u32 = 15;

#[derive(Parser, Debug)]
#[command(
    name = "eldest",
    version,
    about = "Eldest: a UCI chess engine and laboratory for parallel alpha-beta search",
    long_about = "Eldest: a UCI chess engine and laboratory for parallel alpha-beta search.\n\nWithout a \
                  subcommand it speaks UCI on stdin/stdout."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf nodes of the legal move tree, per root move (Stockfish's `go perft` format).
    Perft {
        /// Plies to enumerate (0 to 15).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// The position as FEN (X-FEN or Shredder-FEN for Chess960); the rest of the command line, so it needs no
        /// quotes. Defaults to the start position.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        fen: Vec<String>,
    },
    /// Search the bench positions to a fixed depth (by default with one thread and 16 MiB: the signature); the
    /// last stdout line is `<N> nodes <M> nps`. Flags choose threads, algorithm, limit and positions.
    Bench(bench::BenchArgs),
    /// Print the search constants an SPSA tuner may change, one per line in OpenBench's format
    /// (`name, int, default, min, max, c_end, r_end`). Their UCI options exist only in builds with
    /// `--features tune`.
    Tunables,
    /// Play self-play games at a fixed node budget a move and write them as training data (eldest-data's
    /// format: docs/nnue.md); a stopped run resumes with the same command.
    Datagen(datagen::DatagenArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let log = LogDestination::install();
    match cli.command {
        None => uci(log),
        Some(Command::Perft { depth, fen }) => perft(depth, &fen),
        #[cfg(feature = "cluster")]
        Some(Command::Bench(args)) => cluster_bench::run(&args),
        #[cfg(not(feature = "cluster"))]
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Tunables) => tunables(),
        Some(Command::Datagen(args)) => datagen::run(&args),
    }
}

fn uci(log: LogDestination) -> ExitCode {
    tracing::debug!(version = env!("CARGO_PKG_VERSION"), "UCI session starts");
    let hooks = SessionHooks::new().on_debug_log_file(move |path| log.set_file(path));
    #[cfg(feature = "cluster")]
    let session = match eldest_cluster::Cluster::start(eldest_cluster::MpiTransport::connect) {
        Ok(cluster) => {
            tracing::debug!(
                rank = cluster.link().rank(),
                ranks = cluster.link().size(),
                "joined the cluster"
            );
            cluster.run_uci(std::io::stdin().lock(), std::io::stdout(), hooks)
        }
        Err(error) => {
            eprintln!("error: cannot join the MPI job: {error}");
            return ExitCode::FAILURE;
        }
    };
    #[cfg(not(feature = "cluster"))]
    let session = eldest_uci::run_with(std::io::stdin().lock(), std::io::stdout(), hooks);
    match session {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn tunables() -> ExitCode {
    if !cfg!(feature = "tune") {
        eprintln!("note: this build has no UCI options for these; build with --features tune to tune them");
    }
    let mut out = std::io::stdout().lock();
    for tunable in eldest_search::TUNABLES {
        if writeln!(out, "{}", tunable.openbench_line()).is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn perft(depth: u32, fen: &[String]) -> ExitCode {
    let position = if fen.is_empty() {
        Position::startpos()
    } else {
        match Position::from_fen(&fen.join(" ")) {
            Ok(position) => position,
            Err(error) => {
                eprintln!("error: invalid FEN: {error}");
                return ExitCode::from(2);
            }
        }
    };
    let start = Instant::now();
    let mut out = std::io::stdout().lock();
    let mut total = 0;
    let written: std::io::Result<()> = (|| {
        if depth == 0 {
            total = 1;
        } else {
            for (mv, nodes) in position.divide(depth) {
                writeln!(out, "{}: {nodes}", position.move_to_uci(mv))?;
                total += nodes;
            }
        }
        writeln!(out)?;
        writeln!(out, "Nodes searched: {total}")?;
        out.flush()
    })();
    if let Err(error) = written {
        eprintln!("error: cannot write the result: {error}");
        return ExitCode::FAILURE;
    }
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.1} Mnps",
        seconds,
        total as f64 / seconds.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
