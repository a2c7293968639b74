//! `cargo run --release -p eldest-board --example quickperft -- <depth> [fen]`: perft of a position, timed.
use eldest_board::Position;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen = args
        .get(2)
        .map(String::as_str)
        .unwrap_or(eldest_board::STARTPOS_FEN);
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
    let t = std::time::Instant::now();
    let n = pos.perft(depth);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes {:.1} Mnps", n as f64 / s / 1e6);
}
