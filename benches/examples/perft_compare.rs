//! Side-by-side bulk-counting perft of eldest-board, cozy-chess and shakmaty in one process, interleaved
//! round by round, plus Stockfish's `go perft 6` when a Stockfish binary is given; prints a Markdown table of
//! medians and ratios with the machine it ran on.
//!
//! `cargo xtask perft-report [--rounds N] [--stockfish PATH]` builds this in release mode and runs it; the
//! criterion bench `perft` is the other, statistically heavier measurement.
use eldest_benches::{PERFT_CASES, cozy_perft, eldest_perft, shakmaty_perft};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn spread(samples: &[f64]) -> (f64, f64) {
    let min = samples.iter().copied().fold(f64::INFINITY, f64::min);
    let max = samples.iter().copied().fold(0.0, f64::max);
    (min, max)
}

/// A Stockfish process kept alive across rounds, so its start-up and network loading are not timed.
struct Stockfish {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Stockfish {
    fn start(path: &str) -> std::io::Result<Stockfish> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut engine = Stockfish { child, input, output };
        engine.send("uci")?;
        engine.wait_for("uciok")?;
        engine.send("setoption name Threads value 1")?;
        engine.send("isready")?;
        engine.wait_for("readyok")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.input, "{line}")?;
        self.input.flush()
    }

    /// Reads lines until one starts with `prefix`, and returns it.
    fn wait_for(&mut self, prefix: &str) -> std::io::Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other(format!(
                    "stockfish exited before {prefix:?}"
                )));
            }
            if line.starts_with(prefix) {
                return Ok(line);
            }
        }
    }

    /// Seconds for `go perft depth` on the start position, checking the node count.
    fn perft(&mut self, depth: u32, expected: u64) -> std::io::Result<f64> {
        self.send("position startpos")?;
        self.send("isready")?;
        self.wait_for("readyok")?;
        let start = Instant::now();
        self.send(&format!("go perft {depth}"))?;
        let line = self.wait_for("Nodes searched")?;
        let seconds = start.elapsed().as_secs_f64();
        let nodes: u64 = line
            .rsplit(' ')
            .next()
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0);
        assert_eq!(nodes, expected, "stockfish perft count");
        Ok(seconds)
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
    format!("{cpu}, {cores} logical cores, {}", std::env::consts::OS)
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 9;
    let mut stockfish_path = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--rounds" => {
                rounds = iter
                    .next()
                    .and_then(|r| r.parse().ok())
                    .filter(|&r| r > 0)
                    .unwrap_or(rounds)
            }
            "--stockfish" => stockfish_path = iter.next().cloned(),
            other => {
                eprintln!("unknown argument {other:?}; usage: perft_compare [--rounds N] [--stockfish PATH]");
                std::process::exit(2);
            }
        }
    }

    println!(
        "Machine: {}; {rounds} interleaved rounds, median Mnps (min–max).\n",
        machine()
    );
    println!("| position | eldest-board | cozy-chess | shakmaty | eldest ÷ cozy | eldest ÷ shakmaty |");
    println!("|---|---|---|---|---|---|");
    let runs: [fn(&str, u32) -> u64; 3] = [eldest_perft, cozy_perft, shakmaty_perft];
    for case in PERFT_CASES {
        let mut mnps: [Vec<f64>; 3] = Default::default();
        for _ in 0..rounds {
            for (i, run) in runs.iter().enumerate() {
                let start = Instant::now();
                assert_eq!(
                    run(case.fen, case.depth),
                    case.nodes,
                    "{} depth {}",
                    case.name,
                    case.depth
                );
                mnps[i].push(case.nodes as f64 / start.elapsed().as_secs_f64() / 1e6);
            }
        }
        let cells: Vec<String> = mnps
            .iter()
            .map(|s| {
                let (lo, hi) = spread(s);
                format!("{:.0} ({lo:.0}–{hi:.0})", median(s.clone()))
            })
            .collect();
        let m: Vec<f64> = mnps.iter().map(|s| median(s.clone())).collect();
        println!(
            "| {} d{} | {} | {} | {} | {:.2} | {:.2} |",
            case.name,
            case.depth,
            cells[0],
            cells[1],
            cells[2],
            m[0] / m[1],
            m[0] / m[2]
        );
    }

    if let Some(path) = stockfish_path {
        const DEPTH: u32 = 6;
        const NODES: u64 = 119_060_324;
        let mut stockfish = Stockfish::start(&path)?;
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for _ in 0..rounds.min(5) {
            let start = Instant::now();
            assert_eq!(eldest_perft(eldest_board::STARTPOS_FEN, DEPTH), NODES);
            ours.push(NODES as f64 / start.elapsed().as_secs_f64() / 1e6);
            theirs.push(NODES as f64 / stockfish.perft(DEPTH, NODES)? / 1e6);
        }
        let (o, t) = (median(ours.clone()), median(theirs.clone()));
        println!("\n| startpos d6 | eldest-board | Stockfish (`go perft 6`, {path}) | eldest ÷ Stockfish |");
        println!("|---|---|---|---|");
        let ((olo, ohi), (tlo, thi)) = (spread(&ours), spread(&theirs));
        println!(
            "| 119,060,324 nodes | {o:.0} ({olo:.0}–{ohi:.0}) | {t:.0} ({tlo:.0}–{thi:.0}) | {:.2} |",
            o / t
        );
    }
    Ok(())
}
