//! `eldest`: the Eldest chess engine's command-line entry point.
//!
//! `eldest perft <depth> [fen]` counts the leaf nodes of the legal move tree, split by root move, in
//! Stockfish's output format; timing goes to stderr so stdout stays machine-readable.

use clap::{Parser, Subcommand};
use eldest_board::Position;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// The deepest perft the command accepts: depth 15 of the start position is already ~2·10^21 nodes.
const MAX_PERFT_DEPTH: u32 = 15;

#[derive(Parser, Debug)]
#[command(
    name = "eldest",
    version,
    about = "Eldest: a UCI chess engine and laboratory for parallel alpha-beta search"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Perft { depth, fen } => perft(depth, &fen),
    }
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
