//! `cargo xtask perft-report`: builds the side-by-side perft harness (`benches/examples/perft_compare.rs`) in
//! release mode and runs it, so the table in docs/performance.md can be regenerated with one command.

use crate::cargo;
use std::path::Path;
use std::process::Command;

/// Options of `cargo xtask perft-report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Interleaved rounds per position (medians are reported).
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(1..=1000))]
    rounds: u32,
    /// Stockfish binary for the `go perft 6` comparison; by default /usr/games/stockfish if present
    /// (`apt-get install stockfish`).
    #[arg(long)]
    stockfish: Option<String>,
}

/// Builds and runs the harness.
///
/// # Errors
/// When the build fails, the harness cannot start, or it reports a failure (e.g. a wrong node count).
pub fn run(args: &Args) -> Result<(), String> {
    cargo::build_release(&["-p", "eldest-benches", "--example", "perft_compare"])?;
    let mut command = Command::new(cargo::release_path("examples/perft_compare"));
    command.args(["--rounds", &args.rounds.to_string()]);
    let default_stockfish = "/usr/games/stockfish";
    match &args.stockfish {
        Some(path) => {
            command.args(["--stockfish", path]);
        }
        None if Path::new(default_stockfish).exists() => {
            command.args(["--stockfish", default_stockfish]);
        }
        None => {
            eprintln!("note: no Stockfish found (apt-get install stockfish); comparing Rust libraries only")
        }
    }
    let status = command
        .status()
        .map_err(|e| format!("cannot run the perft harness: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err("the perft harness failed".into())
    }
}
