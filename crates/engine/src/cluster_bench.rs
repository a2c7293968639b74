//! `eldest bench` in the cluster build. Under `mpirun -np N` (N > 1) the first rank runs the bench through its
//! own UCI session, exactly as a GUI drives the cluster: the options as `setoption` lines, then for each position
//! `ucinewgame` (unless the tables are kept), `position fen` and `go depth`/`go movetime`, timed from `go` to
//! `bestmove`. Nodes are those of every rank (the first rank's last `info` line of a search). The other ranks
//! follow, as in play. With one rank it is the plain bench.

use crate::bench::{self, BenchArgs};
use eldest_board::{Move, Position};
use eldest_cluster::{Cluster, LineChannel, LineWriter, MpiTransport};
use eldest_search::bench::{BenchLimit, BenchPosition};
use eldest_search::{Evaluation, KNOBS, Score, SearchOutcome, ThreadStats, Utilisation};
use eldest_uci::SessionHooks;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

/// Runs `eldest bench` on this rank.
pub fn run(args: &BenchArgs) -> ExitCode {
    let cluster = match Cluster::start(MpiTransport::connect) {
        Ok(cluster) => cluster,
        Err(error) => {
            eprintln!("error: cannot join the MPI job: {error}");
            return ExitCode::FAILURE;
        }
    };
    let (rank, size) = (cluster.link().rank(), cluster.link().size());
    if rank != 0 || size == 1 {
        let code = if size == 1 {
            bench::run(args)
        } else {
            ExitCode::SUCCESS
        };
        // The other ranks follow the first rank's session until it quits; a lone rank just leaves.
        return match cluster.run_uci(io::empty(), io::sink(), SessionHooks::new()) {
            Ok(()) => code,
            Err(error) => {
                eprintln!("error: {error}");
                ExitCode::FAILURE
            }
        };
    }
    let (positions, config) = match bench::positions_and_config(args) {
        Ok(both) if both.1.count_duplicates => {
            eprintln!(
                "error: --count-duplicates needs the threads' counters, which do not travel between MPI ranks"
            );
            return ExitCode::from(2);
        }
        Ok(both) if both.1.serial_tree.is_some() => {
            eprintln!(
                "error: --serial-tree needs the threads' counters, which do not travel between MPI ranks"
            );
            return ExitCode::from(2);
        }
        Ok(both) => both,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let count = positions.len();
    let (first, positions) = match bench::only_position(args.only, &positions, config.keep_tables) {
        Ok(chosen) => chosen,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let (input, session_input) = channel();
    let (output, lines) = channel();
    let session = std::thread::spawn(move || {
        cluster.run_uci(
            LineChannel::new(session_input),
            LineWriter::new(output),
            SessionHooks::new(),
        )
    });
    let driven = drive(args, &config, (positions, first, count), size, &input, &lines);
    drop(input);
    let joined = session.join();
    let code = match driven {
        Ok((nodes, time)) => {
            let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
            eprintln!(
                "{}, {size} ranks, {:.3} s",
                bench::describe(&config, positions.len()),
                time.as_secs_f64()
            );
            match writeln!(io::stdout(), "{nodes} nodes {nps} nps") {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("error: cannot write the result: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    };
    match joined {
        Ok(Ok(())) => code,
        _ => ExitCode::FAILURE,
    }
}

/// The options of the bench as `setoption` lines.
fn option_lines(args: &BenchArgs, config: &eldest_search::bench::BenchConfig) -> Vec<String> {
    let mut lines = vec![
        format!("setoption name Hash value {}", config.hash_mib),
        format!("setoption name Threads value {}", config.threads),
        format!(
            "setoption name ParallelAlgorithm value {}",
            config.parallel.algorithm
        ),
    ];
    for knob in KNOBS {
        lines.push(format!(
            "setoption name {} value {}",
            knob.name,
            knob.value(&config.parallel)
        ));
    }
    if let Some(path) = &args.eval.file {
        lines.push(format!("setoption name EvalFile value {}", path.display()));
    }
    if matches!(config.evaluation, Evaluation::Nnue(_)) {
        lines.push("setoption name Evaluation value nnue".to_string());
    }
    lines
}

/// Sends the bench's lines and reads the answers; returns the total nodes and search time. `searched`: the
/// positions to search, the index of the first in the whole list (`--only`) and the whole list's length.
fn drive(
    args: &BenchArgs,
    config: &eldest_search::bench::BenchConfig,
    searched: (&[Position], usize, usize),
    ranks: usize,
    input: &Sender<String>,
    lines: &Receiver<String>,
) -> Result<(u64, Duration), String> {
    let send = |line: String| {
        input
            .send(line)
            .map_err(|_| "the session ended early".to_string())
    };
    let until = |done: &dyn Fn(&str) -> bool| -> Result<Vec<String>, String> {
        let mut read = Vec::new();
        loop {
            let line = lines
                .recv()
                .map_err(|_| format!("the session ended early after {read:?}"))?;
            if line.starts_with("info string") {
                eprintln!("{line}");
            }
            let finished = done(&line);
            read.push(line);
            if finished {
                return Ok(read);
            }
        }
    };
    for line in option_lines(args, config) {
        send(line)?;
    }
    let go = match config.limit {
        BenchLimit::Depth(depth) => format!("go depth {depth}"),
        BenchLimit::MoveTime(time) => format!("go movetime {}", time.as_millis()),
    };
    let mut out = io::stdout().lock();
    let (mut total_nodes, mut total_time) = (0, Duration::ZERO);
    let (positions, first, count) = searched;
    for (index, position) in positions.iter().enumerate() {
        if index == 0 || !config.keep_tables {
            send("ucinewgame".to_string())?;
        }
        send(format!("position fen {}", position.to_fen()))?;
        send("isready".to_string())?;
        until(&|line| line == "readyok")?;
        let started = Instant::now();
        send(go.clone())?;
        let answer = until(&|line| line.starts_with("bestmove"))?;
        let time = started.elapsed();
        let outcome = outcome_of(position, &answer, time);
        total_nodes += outcome.nodes;
        total_time += time;
        let result = BenchPosition {
            index: first + index,
            position,
            outcome,
            time,
            stats: ThreadStats::default(),
            utilisation: Utilisation {
                threads: config.threads * ranks,
                wall: time,
                busy: time * (config.threads * ranks) as u32,
            },
            serial: None,
        };
        eprintln!("{}", bench::position_line(&result, count));
        if args.json {
            // The per-thread counters do not travel over UCI (--count-duplicates is refused above).
            writeln!(out, "{}", bench::position_json(&result, false))
                .map_err(|e| format!("cannot write the result: {e}"))?;
        }
    }
    Ok((total_nodes, total_time))
}

/// The search's answer as the session reported it: the move of `bestmove`, the depth, score and nodes of the
/// last `info` line that has them.
fn outcome_of(position: &Position, answer: &[String], time: Duration) -> SearchOutcome {
    let field = |line: &str, key: &str| -> Option<String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == key)?;
        words.get(at + 1).map(|w| (*w).to_string())
    };
    let last_info = answer
        .iter()
        .rev()
        .find(|line| line.starts_with("info depth") && line.contains(" nodes "));
    let number = |key: &str| {
        last_info
            .and_then(|l| field(l, key))
            .and_then(|v| v.parse::<i64>().ok())
    };
    let score = match last_info.and_then(|l| field(l, "score")).as_deref() {
        Some("mate") => Score::Mate(number("mate").unwrap_or(0) as i32),
        _ => Score::Centipawns(number("cp").unwrap_or(0) as i32),
    };
    let best_move: Option<Move> = answer
        .last()
        .and_then(|line| field(line, "bestmove"))
        .and_then(|text| position.parse_uci_move(&text).ok());
    SearchOutcome {
        best_move,
        ponder_move: None,
        score,
        depth: number("depth").unwrap_or(0) as u32,
        nodes: number("nodes").unwrap_or(0) as u64,
        time,
    }
}
