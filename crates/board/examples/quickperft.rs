//! `cargo run --release -p eldest-board --example quickperft -- <depth> [fen]`: perft of a position, timed.
use eldest_board::Position;
use std::process::ExitCode;

const USAGE: &str = "usage: quickperft <depth 1..=10> [fen]   (the FEN may be one argument or several)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = match args.first().map(|d| d.parse()) {
        None => 5,
        Some(Ok(depth)) if (1..=10).contains(&depth) => depth,
        Some(_) => {
            eprintln!("{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    let fen = if args.len() > 1 {
        args[1..].join(" ")
    } else {
        eldest_board::STARTPOS_FEN.to_string()
    };
    let position = match Position::from_fen(&fen) {
        Ok(position) => position,
        Err(error) => {
            eprintln!("not a position: {error}\n{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    let started = std::time::Instant::now();
    let nodes = position.perft(depth);
    let seconds = started.elapsed().as_secs_f64();
    println!("{nodes} nodes {:.1} Mnps", nodes as f64 / seconds / 1e6);
    ExitCode::SUCCESS
}
