//! `cargo xtask`: Eldest's project automation. Each command lives in its own module; commands that measure
//! speed build release binaries first and run those, so timings never come from a debug build.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod bench;
mod cargo;
mod matches;
mod perft_report;
mod report;
mod sprt;
mod stats;
mod train;
mod tune;

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
    /// Games between UCI or xboard engines (e.g. two parallel algorithms, or Eldest against Stockfish's limited
    /// levels and Fairy-Max): Elo with a 95% interval, pentanomial SPRT, PGN and JSON.
    ///
    /// Plays two or more engines against each other, UCI or xboard (`proto=xboard`). Each opening is played twice with colours swapped.
    /// The runner keeps the clocks, ends games by the rules of chess (checkmate, stalemate, threefold
    /// repetition, fifty moves, insufficient material; eldest-board decides) and optionally by draw or resign
    /// adjudication, and records every crash, illegal move, time forfeit, hang and malformed answer as a loss of
    /// the engine at fault, with the reason; a crashed or hung engine is restarted for the next game. Progress
    /// after every game, a summary at the end, every game in a PGN file and the results in a JSON file.
    Match(Box<matches::Args>),
    /// The strength test of a change: builds two git revisions (or takes binaries), plays one-thread games on
    /// every core until a pentanomial SPRT decides, and prints the block for the commit message.
    ///
    /// The games are those of `cargo xtask match` (clocks, rules, faults, PGN and JSON under target/sprt/). The
    /// block gives the test revision's Bench, the bounds, games, W/D/L, pentanomial counts, Elo with its 95%
    /// interval and the LLR.
    Sprt(Box<sprt::Args>),
    /// Fits the evaluation network (768x2 -> hidden, SCReLU -> 1) or a linear model to `eldest datagen` files:
    /// Adam with a cosine learning rate on every core, the training and validation loss of each epoch (also as
    /// CSV), the quantised net written after every epoch. docs/nnue.md.
    Train(Box<train::Args>),
    /// Tunes the search's constants by SPSA over self-play games: an engine built with `--features tune`, every
    /// constant moved up or down at random, game pairs between the two, the constants moved by the results;
    /// resumable, with the constants' path as CSV and the result as `setoption` lines (docs/strength.md).
    Tune(Box<tune::Args>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::PerftReport(args) => perft_report::run(&args),
        Command::Match(args) => matches::run(&args),
        Command::Sprt(args) => sprt::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Tune(args) => tune::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
