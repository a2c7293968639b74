//! `eldest bench`: a fixed-depth, single-thread search of fixed positions. Its total node count is the
//! signature of the search — any change of search behaviour changes it — and its speed is the engine's NPS.
//!
//! The positions are Stockfish's published bench set (openings, middlegames, endgames, mates, stalemates and a
//! Chess960 position): varied phases chosen by others, so the signature does not flatter our own choices.

use crate::engine::{Engine, Utilisation};
use crate::limits::{SearchControl, SearchLimits, SearchOptions};
use crate::parallel::ParallelSettings;
use crate::report::SearchOutcome;
use crate::worker::ThreadStats;
use eldest_board::Position;
use eldest_repetition::GameHistory;
use eldest_tt::TableSizeError;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The default bench depth.
pub const DEFAULT_BENCH_DEPTH: u32 = 12;
/// Transposition-table size of the bench, in MiB.
pub const BENCH_HASH_MIB: usize = 16;

/// The bench positions, as FEN.
pub const BENCH_POSITIONS: [&str; 44] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
    "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "r1q2rk1/2p1bppp/2Pp4/p6b/Q1PNp3/4B3/PP1R1PPP/2K4R w - - 2 18",
    "4k2r/1pb2ppp/1p2p3/1R1p4/3P4/2r1PN2/P4PPP/1R4K1 b - - 3 22",
    "3q2k1/pb3p1p/4pbp1/2r5/PpN2N2/1P2P2P/5PP1/Q2R2K1 b - - 4 26",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
    "7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1",
    "8/2p5/8/2kPKp1p/2p4P/2P5/3P4/8 w - - 0 1",
    "8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1",
    "8/pp2r1k1/2p1p3/3pP2p/1P1P1P1P/P5KR/8/8 w - - 0 1",
    "8/3p4/p1bk3p/Pp6/1Kp1PpPp/2P2P1P/2P5/5B2 b - - 0 1",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
    "6k1/4pp1p/3p2p1/P1pPb3/R7/1r2P1PP/3B1P2/6K1 w - - 0 1",
    "8/3p3B/5p2/5P2/p7/PP5b/k7/6K1 w - - 0 1",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "8/8/8/5N2/8/p7/8/2NK3k w - - 0 1",
    "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
    "8/8/1P6/5pr1/8/4R3/7k/2K5 w - - 0 1",
    "8/2p4P/8/kr6/6R1/8/8/1K6 w - - 0 1",
    "8/8/3P3k/8/1p6/8/1P6/1K3n2 b - - 0 1",
    "8/R7/2q5/8/6k1/8/1P5p/K6R w - - 0 124",
    "6k1/3b3r/1p1p4/p1n2p2/1PPNpP1q/P3Q1p1/1R1RB1P1/5K2 b - - 0 1",
    "r2r1n2/pp2bk2/2p1p2p/3q4/3PN1QP/2P3R1/P4PP1/5RK1 w - - 0 1",
    "8/8/8/8/8/6k1/6p1/6K1 w - - 0 1",
    "7k/7P/6K1/8/3B4/8/8/8 b - - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

/// How far each bench position is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchLimit {
    /// To a fixed depth (time to depth is what parallel search should shorten).
    Depth(u32),
    /// For a fixed time (what a thread count buys in nodes and depth).
    MoveTime(Duration),
}

/// One bench configuration: the limit, the threads and their algorithm, the table size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchConfig {
    /// How far each position is searched.
    pub limit: BenchLimit,
    /// Search threads.
    pub threads: usize,
    /// Transposition-table size in MiB.
    pub hash_mib: usize,
    /// The parallel algorithm and its knobs.
    pub parallel: ParallelSettings,
}

impl BenchConfig {
    /// The signature configuration: `depth`, one thread, [`BENCH_HASH_MIB`].
    pub fn signature(depth: u32) -> BenchConfig {
        BenchConfig {
            limit: BenchLimit::Depth(depth.max(1)),
            threads: 1,
            hash_mib: BENCH_HASH_MIB,
            parallel: ParallelSettings::default(),
        }
    }
}

/// What one bench position gave.
#[derive(Debug, Clone)]
pub struct BenchPosition<'a> {
    /// Index in the position list.
    pub index: usize,
    /// The position searched.
    pub position: &'a Position,
    /// The search's answer.
    pub outcome: SearchOutcome,
    /// Wall time of the search, from the call to its return.
    pub time: Duration,
    /// The counters of every thread, summed.
    pub stats: ThreadStats,
    /// How the threads spent the search's wall time.
    pub utilisation: Utilisation,
}

/// The totals of a bench run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions: the signature.
    pub nodes: u64,
    /// Wall time of the searches.
    pub time: Duration,
    /// Nodes per second.
    pub nps: u64,
}

/// Runs the signature bench at `depth` over [`BENCH_POSITIONS`]: one thread and a fresh 16 MiB table,
/// cleared with the histories before each position; `on_position` sees each position's index, FEN and outcome.
///
/// # Panics
/// Never for the built-in positions (they are valid FEN, checked by a test) and the 16 MiB table.
pub fn run_bench(depth: u32, on_position: &mut dyn FnMut(usize, &str, &SearchOutcome)) -> BenchResult {
    let positions = bench_positions();
    run_bench_with(&BenchConfig::signature(depth), &positions, &mut |result| {
        on_position(result.index, BENCH_POSITIONS[result.index], &result.outcome);
    })
    .expect("a 16 MiB table can be allocated")
}

/// The built-in bench positions, parsed.
///
/// # Panics
/// Never: a test checks that every built-in FEN parses.
pub fn bench_positions() -> Vec<Position> {
    BENCH_POSITIONS
        .iter()
        .map(|fen| Position::from_fen(fen).expect("bench positions are valid FEN"))
        .collect()
}

/// Runs `config` over `positions`, each from a cleared table and cleared histories (so every position's time
/// stands alone), and calls `on_position` after each. Before the first position one depth-1 search starts
/// whatever threads the algorithm keeps (the YBWC pool), so no position pays for that.
///
/// # Errors
/// When the table cannot be allocated.
pub fn run_bench_with(
    config: &BenchConfig,
    positions: &[Position],
    on_position: &mut dyn FnMut(&BenchPosition<'_>),
) -> Result<BenchResult, TableSizeError> {
    let mut engine = Engine::new(config.hash_mib)?;
    let limits = match config.limit {
        BenchLimit::Depth(depth) => SearchLimits {
            depth: Some(depth.max(1)),
            ..SearchLimits::default()
        },
        BenchLimit::MoveTime(time) => SearchLimits {
            move_time: Some(time),
            ..SearchLimits::default()
        },
    };
    let options = SearchOptions {
        threads: config.threads.max(1),
        multi_pv: 1,
        parallel: config.parallel,
        ..SearchOptions::default()
    };
    let control = SearchControl::new();
    let history = |position: &Position| -> Arc<GameHistory> {
        Arc::new(
            [(position.key(), position.halfmove_clock())]
                .into_iter()
                .collect(),
        )
    };
    if config.threads > 1 {
        let warm_up = Position::startpos();
        let shallow = SearchLimits {
            depth: Some(1),
            ..SearchLimits::default()
        };
        engine.search(
            &warm_up,
            history(&warm_up),
            &shallow,
            &options,
            &control,
            &mut |_| {},
        );
    }
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for (index, position) in positions.iter().enumerate() {
        let game = history(position);
        engine.new_game();
        control.reset(false);
        let start = Instant::now();
        let outcome = engine.search(position, game, &limits, &options, &control, &mut |_| {});
        let elapsed = start.elapsed();
        time += elapsed;
        nodes += outcome.nodes;
        let mut stats = ThreadStats::default();
        engine.thread_stats().iter().for_each(|s| stats.add(s));
        on_position(&BenchPosition {
            index,
            position,
            outcome,
            time: elapsed,
            stats,
            utilisation: engine.utilisation(),
        });
    }
    let nps = (u128::from(nodes) * 1_000_000 / time.as_micros().max(1)) as u64;
    Ok(BenchResult { nodes, time, nps })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_parses() {
        for fen in BENCH_POSITIONS {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
    }

    #[test]
    fn bench_is_deterministic() {
        let first = run_bench(4, &mut |_, _, _| {});
        let second = run_bench(4, &mut |_, _, _| {});
        assert_eq!(first.nodes, second.nodes);
        assert!(first.nodes > 0);
    }

    #[test]
    fn parallel_bench_counts_every_thread_and_its_time() {
        let positions: Vec<Position> = bench_positions().into_iter().take(3).collect();
        for algorithm in crate::ParallelAlgorithm::ALL {
            let config = BenchConfig {
                limit: BenchLimit::Depth(6),
                threads: 2,
                hash_mib: 8,
                parallel: ParallelSettings {
                    algorithm,
                    min_split_depth: 2,
                    ..ParallelSettings::default()
                },
            };
            let mut seen = 0;
            let result = run_bench_with(&config, &positions, &mut |p| {
                assert_eq!(p.index, seen);
                seen += 1;
                assert_eq!(p.outcome.nodes, p.stats.nodes, "{algorithm}");
                assert_eq!(p.utilisation.threads, 2);
                assert!(p.utilisation.busy > Duration::ZERO);
                assert!(p.utilisation.busy <= p.utilisation.wall * 2 + Duration::from_millis(5));
                assert!(p.outcome.best_move.is_some());
            })
            .unwrap();
            assert_eq!(seen, 3);
            assert!(result.nodes > 0);
        }
    }
}
