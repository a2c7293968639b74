//! `cargo xtask`: Eldest's project automation. Each command lives in its own module; commands that measure
//! speed build release binaries first and run those, so timings never come from a debug build.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod bench;
mod cargo;
mod perft_report;
mod report;
mod stats;

#[derive(Parser, Debug)]
#[command(name = "cargo xtask", about = "Eldest project automation")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The parallel algorithms side by side: time to depth, NPS, speedups, node overhead and counters, as a
    /// table, CSV, JSON and SVG charts; `--compare OLD NEW` and `--signature` too.
    Bench(Box<bench::Args>),
    /// Perft speed of eldest-board beside cozy-chess, shakmaty and (if found) Stockfish, as a Markdown table
    /// for docs/performance.md.
    PerftReport(perft_report::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::PerftReport(args) => perft_report::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
