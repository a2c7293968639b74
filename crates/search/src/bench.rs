//! `eldest bench`: a fixed-depth, single-thread search of fixed positions. Its total node count is the
//! signature of the search — any change of search behaviour changes it — and its speed is the engine's NPS.
//!
//! The signature's positions are Stockfish's published bench set (openings, middlegames, endgames, mates,
//! stalemates and a Chess960 position): varied phases chosen by others, so the signature does not flatter our own
//! choices. They are the [`BenchSet::Short`] set; two more sets measure where parallel search is meant to work
//! (see [`BenchSet`]): [`BenchSet::Long`], middlegames that take seconds each with one thread, and
//! [`BenchSet::Game`], consecutive positions of one game searched in order with the table and histories kept, as
//! in a game.
//!
//! ```
//! use eldest_search::bench::{BenchConfig, BenchLimit, BenchSet, run_bench_with};
//!
//! // The first three positions of the game set, in order, tables kept between them, to depth 5.
//! let set: BenchSet = "game".parse()?;
//! let positions: Vec<_> = set.positions().into_iter().take(3).collect();
//! let config = BenchConfig { limit: BenchLimit::Depth(5), keep_tables: set.keeps_tables(), ..BenchConfig::signature(5) };
//! let result = run_bench_with(&config, &positions, &mut |p| assert!(p.outcome.best_move.is_some()))?;
//! assert!(result.nodes > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::engine::{Engine, Utilisation};
use crate::eval::Evaluation;
use crate::limits::{SearchControl, SearchLimits, SearchOptions};
use crate::parallel::ParallelSettings;
use crate::report::SearchOutcome;
use crate::tree_keys::{TreeKeys, TreeRecording};
use crate::worker::ThreadStats;
use eldest_board::{FenError, Position};
use eldest_repetition::GameHistory;
use eldest_tt::TableSizeError;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The default bench depth: the signature's, and the short set's.
///
/// ```
/// use eldest_search::bench::{BenchSet, DEFAULT_BENCH_DEPTH};
///
/// assert_eq!(BenchSet::Short.default_depth(), DEFAULT_BENCH_DEPTH);
/// ```
pub const DEFAULT_BENCH_DEPTH: u32 = 12;
/// Transposition-table size of the signature bench, in MiB.
///
/// ```
/// use eldest_search::bench::{BENCH_HASH_MIB, BenchConfig};
///
/// assert_eq!(BenchConfig::signature(12).hash_mib, BENCH_HASH_MIB);
/// ```
pub const BENCH_HASH_MIB: usize = 16;

/// The signature's bench positions (the short set), as FEN.
///
/// ```
/// use eldest_search::bench::BENCH_POSITIONS;
///
/// assert_eq!(BENCH_POSITIONS[0], eldest_board::STARTPOS_FEN);
/// ```
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

/// The long set's file: middlegames from Eldest's games, each taking seconds with one thread at its depth.
const LONG_EPD: &str = include_str!("../bench/long.epd");
/// The game set's file: consecutive positions of one game, one side to move.
const GAME_EPD: &str = include_str!("../bench/game.epd");

/// A named set of bench positions, with the depth it is meant for and whether its positions are searched as one
/// game (table and histories kept) or each alone.
///
/// ```
/// use eldest_search::bench::BenchSet;
///
/// assert_eq!(BenchSet::Short.positions().len(), 44);
/// assert!(BenchSet::Long.positions().len() >= 10);
/// assert!(BenchSet::Game.keeps_tables() && !BenchSet::Long.keeps_tables());
/// assert_eq!("long".parse::<BenchSet>(), Ok(BenchSet::Long));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BenchSet {
    /// The 44 signature positions ([`BENCH_POSITIONS`]): mostly short searches, each from a cleared table.
    Short,
    /// Varied middlegames (`crates/search/bench/long.epd`), each taking 5–30 s with one thread at
    /// [`BenchSet::default_depth`] on a 2-core machine, each from a cleared table — like Kerrigan's suite.
    Long,
    /// Consecutive positions of one real game (`crates/search/bench/game.epd`), every other ply from move 10,
    /// searched in order without clearing the table or the histories between them — as Hyatt measured DTS.
    Game,
}

impl BenchSet {
    /// Every set, in the order of their names in messages.
    ///
    /// ```
    /// use eldest_search::bench::BenchSet;
    ///
    /// let names: Vec<&str> = BenchSet::ALL.iter().map(|set| set.name()).collect();
    /// assert_eq!(names, ["short", "long", "game"]);
    /// ```
    pub const ALL: [BenchSet; 3] = [BenchSet::Short, BenchSet::Long, BenchSet::Game];

    /// The set's name, as `--set` takes it.
    ///
    /// ```
    /// use eldest_search::bench::BenchSet;
    ///
    /// assert_eq!(BenchSet::Game.name(), "game");
    /// assert_eq!(BenchSet::Game.to_string(), "game");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            BenchSet::Short => "short",
            BenchSet::Long => "long",
            BenchSet::Game => "game",
        }
    }

    /// The set's positions as FEN, in search order.
    ///
    /// ```
    /// use eldest_search::bench::{BENCH_POSITIONS, BenchSet};
    ///
    /// assert_eq!(BenchSet::Short.fens(), BENCH_POSITIONS);
    /// // The game set starts at move 10 of its game, White to move.
    /// assert!(BenchSet::Game.fens()[0].ends_with(" w KQkq - 1 10"));
    /// ```
    pub fn fens(self) -> Vec<&'static str> {
        match self {
            BenchSet::Short => BENCH_POSITIONS.to_vec(),
            BenchSet::Long => position_lines(LONG_EPD).map(|(_, line)| line).collect(),
            BenchSet::Game => position_lines(GAME_EPD).map(|(_, line)| line).collect(),
        }
    }

    /// The set's positions, parsed, in search order.
    ///
    /// # Panics
    /// Never: a test checks that every position of every set parses.
    ///
    /// ```
    /// use eldest_search::bench::BenchSet;
    ///
    /// let game = BenchSet::Game.positions();
    /// assert!(game.len() >= 24);
    /// // One side is to move throughout: the moves one program played.
    /// assert!(game.iter().all(|p| p.side_to_move() == game[0].side_to_move()));
    /// ```
    pub fn positions(self) -> Vec<Position> {
        match self {
            BenchSet::Short => bench_positions(),
            BenchSet::Long => parse_positions(LONG_EPD).expect("the long set is valid FEN"),
            BenchSet::Game => parse_positions(GAME_EPD).expect("the game set is valid FEN"),
        }
    }

    /// The depth the set is meant for: the signature's [`DEFAULT_BENCH_DEPTH`] for the short set; for the long
    /// set (22) the depth at which each position takes 5–30 s with one thread and 64 MiB on the project's 2-core
    /// machine; for the game set (23) the depth at which two thirds of the game's moves take 5–20 s.
    ///
    /// ```
    /// use eldest_search::bench::{BenchSet, DEFAULT_BENCH_DEPTH};
    ///
    /// assert_eq!(BenchSet::Short.default_depth(), DEFAULT_BENCH_DEPTH);
    /// assert!(BenchSet::Long.default_depth() > BenchSet::Short.default_depth());
    /// ```
    pub fn default_depth(self) -> u32 {
        match self {
            BenchSet::Short => DEFAULT_BENCH_DEPTH,
            BenchSet::Long => LONG_DEPTH,
            BenchSet::Game => GAME_DEPTH,
        }
    }

    /// Whether the table and the histories are kept from one position to the next ([`BenchConfig::keep_tables`]):
    /// only for the game set, whose positions follow each other in one game.
    ///
    /// ```
    /// use eldest_search::bench::BenchSet;
    ///
    /// assert_eq!(BenchSet::ALL.map(BenchSet::keeps_tables), [false, false, true]);
    /// ```
    pub fn keeps_tables(self) -> bool {
        self == BenchSet::Game
    }
}

/// The long set's depth: each position 5–30 s with one thread and 64 MiB on the 2-core machine. It follows the
/// search: 20 until 2026-11-27, when issue 13's pruning and the net eldest-5 brought five positions under 5 s.
const LONG_DEPTH: u32 = 22;
/// The game set's depth: one ply past the long set's, at which the game's positions in order take 1.3–19.4 s each
/// (medians of three runs, 2026-12-05: 25 of the 36 take 5 s or more, 271 s in all) with one thread and 64 MiB.
/// It was 19 until 2026-11-28 and 22 until 2026-12-05: each time the engine had grown faster and a third of the
/// moves took under 5 s, too short for two threads to pay, as on the long set (docs/bench.md).
const GAME_DEPTH: u32 = 23;

impl fmt::Display for BenchSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BenchSet {
    type Err = ParseBenchSetError;

    /// Parses a set name (`short`, `long` or `game`; case-insensitive).
    fn from_str(text: &str) -> Result<BenchSet, ParseBenchSetError> {
        BenchSet::ALL
            .into_iter()
            .find(|set| set.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| ParseBenchSetError {
                name: text.to_string(),
            })
    }
}

/// A name that is not a bench set; its message lists the names.
///
/// ```
/// use eldest_search::bench::BenchSet;
///
/// let error = "medium".parse::<BenchSet>().unwrap_err();
/// assert_eq!(error.to_string(), "unknown bench set 'medium': expected short, long or game");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseBenchSetError {
    /// The name given.
    pub name: String,
}

impl fmt::Display for ParseBenchSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown bench set '{}': expected short, long or game",
            self.name
        )
    }
}

impl std::error::Error for ParseBenchSetError {}

/// Why a position list was rejected ([`parse_positions`]).
///
/// ```
/// use eldest_search::bench::{PositionListError, parse_positions};
///
/// let error = parse_positions("# nothing\n").unwrap_err();
/// assert_eq!(error, PositionListError::Empty);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionListError {
    /// A line is neither FEN nor EPD.
    Line {
        /// Its number, from 1.
        number: usize,
        /// The line, trimmed.
        text: String,
        /// Why the FEN parser rejected it.
        error: FenError,
    },
    /// The list holds no position.
    Empty,
}

impl fmt::Display for PositionListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionListError::Line { number, text, error } => write!(f, "line {number}: {error}: {text}"),
            PositionListError::Empty => f.write_str("holds no position"),
        }
    }
}

impl std::error::Error for PositionListError {}

/// The position lines of a list with their line numbers (from 1): blank lines and `#` comments skipped.
fn position_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// Parses a position list — the format of `--positions` files and of the built-in sets: one FEN or EPD a line,
/// blank lines and lines starting with `#` skipped.
///
/// # Errors
/// The first line that is neither FEN nor EPD (with the FEN parser's reason), or a list without a position.
///
/// ```
/// use eldest_search::bench::parse_positions;
///
/// let text = "# two positions\n\
///             r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - bm e2a6;\n\
///             \n\
///             8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11\n";
/// assert_eq!(parse_positions(text)?.len(), 2);
/// let bad = parse_positions("8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
/// assert!(bad.to_string().starts_with("line 1: "));
/// # Ok::<(), eldest_search::bench::PositionListError>(())
/// ```
pub fn parse_positions(text: &str) -> Result<Vec<Position>, PositionListError> {
    let mut positions = Vec::new();
    for (number, line) in position_lines(text) {
        let position = Position::from_fen(line)
            .or_else(|fen_error| {
                Position::from_epd(line)
                    .map(|epd| epd.position)
                    .map_err(|_| fen_error)
            })
            .map_err(|error| PositionListError::Line {
                number,
                text: line.to_string(),
                error,
            })?;
        positions.push(position);
    }
    if positions.is_empty() {
        return Err(PositionListError::Empty);
    }
    Ok(positions)
}

/// How far each bench position is searched.
///
/// ```
/// use eldest_search::bench::{BenchConfig, BenchLimit};
/// use std::time::Duration;
///
/// let fixed_time = BenchConfig { limit: BenchLimit::MoveTime(Duration::from_millis(70)), ..BenchConfig::signature(1) };
/// assert_ne!(fixed_time.limit, BenchLimit::Depth(1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchLimit {
    /// To a fixed depth (time to depth is what parallel search should shorten).
    Depth(u32),
    /// For a fixed time (what a thread count buys in nodes and depth): the whole time is searched, with no move
    /// overhead kept back (a bench has no GUI link to allow for).
    MoveTime(Duration),
}

/// One bench configuration: the limit, the threads and their algorithm, the table size, and whether the
/// positions are searched each alone or in order as one game.
///
/// ```
/// use eldest_search::bench::{BenchConfig, BenchLimit};
///
/// let signature = BenchConfig::signature(12);
/// assert_eq!((signature.limit, signature.threads, signature.keep_tables), (BenchLimit::Depth(12), 1, false));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchConfig {
    /// How far each position is searched.
    pub limit: BenchLimit,
    /// Search threads.
    pub threads: usize,
    /// Transposition-table size in MiB.
    pub hash_mib: usize,
    /// The parallel algorithm and its knobs.
    pub parallel: ParallelSettings,
    /// Keep the transposition table and the histories from one position to the next, as in a game (the positions
    /// must then follow each other); `false` clears them before each position, so every position's time stands
    /// alone. They are cleared before the first position either way.
    pub keep_tables: bool,
    /// The static evaluation.
    pub evaluation: Evaluation,
    /// Count [`ThreadStats::duplicate_nodes`] (the work searched twice). It costs one table probe more per node
    /// with several threads, about 2% of two threads' speed on the 2-core VM (docs/bench.md), so a run that
    /// measures speed leaves it off; with one thread nothing is counted either way.
    pub count_duplicates: bool,
    /// Compare every search with the serial one (`eldest bench --serial-tree`, `--serial-hash`): a second engine
    /// of one thread, with its own table of this many MiB and its own histories, first searches each position to
    /// the same limit and records its main-search nodes' keys; the search measured then looks its own up there
    /// ([`TreeRecording`]), and [`BenchPosition::serial`] carries the serial search's counters. Meant for a depth
    /// limit (to a fixed time the two searches reach different depths); recording costs speed, so a run that
    /// measures speed leaves it off, and the serial searches' time is not counted. `None`: no comparison.
    pub serial_tree: Option<usize>,
}

impl BenchConfig {
    /// The signature configuration: `depth`, one thread, [`BENCH_HASH_MIB`], tables cleared before each
    /// position.
    ///
    /// ```
    /// use eldest_search::bench::{BENCH_HASH_MIB, BenchConfig};
    ///
    /// assert_eq!(BenchConfig::signature(0).hash_mib, BENCH_HASH_MIB);
    /// ```
    pub fn signature(depth: u32) -> BenchConfig {
        BenchConfig {
            limit: BenchLimit::Depth(depth.max(1)),
            threads: 1,
            hash_mib: BENCH_HASH_MIB,
            parallel: ParallelSettings::default(),
            keep_tables: false,
            evaluation: Evaluation::default(),
            count_duplicates: false,
            serial_tree: None,
        }
    }
}

/// What one bench position gave: [`run_bench_with`] passes one to its callback after each search.
///
/// ```
/// use eldest_search::bench::{BenchConfig, bench_positions, run_bench_with};
///
/// let positions = &bench_positions()[..2];
/// run_bench_with(&BenchConfig::signature(3), positions, &mut |p| {
///     assert_eq!(p.position, &positions[p.index]);
///     assert_eq!(p.outcome.nodes, p.stats.nodes);
/// })?;
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
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
    /// With [`BenchConfig::serial_tree`]: the counters of the serial search of the position, whose keys `stats`'
    /// [`TreeProfile`](crate::TreeProfile) was compared with.
    pub serial: Option<ThreadStats>,
}

/// The totals of a bench run.
///
/// ```
/// use eldest_search::bench::run_bench;
///
/// let result = run_bench(2, &mut |_, _, _| {});
/// assert!(result.nodes > 0 && result.nps > 0);
/// ```
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
///
/// ```
/// use eldest_search::bench::{BENCH_POSITIONS, run_bench};
///
/// let mut seen = 0;
/// let result = run_bench(2, &mut |index, fen, _| {
///     assert_eq!(fen, BENCH_POSITIONS[index]);
///     seen += 1;
/// });
/// assert_eq!(seen, BENCH_POSITIONS.len());
/// assert_eq!(result.nodes, run_bench(2, &mut |_, _, _| {}).nodes, "the signature is deterministic");
/// ```
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
///
/// ```
/// use eldest_search::bench::{BenchSet, bench_positions};
///
/// assert_eq!(bench_positions(), BenchSet::Short.positions());
/// ```
pub fn bench_positions() -> Vec<Position> {
    BENCH_POSITIONS
        .iter()
        .map(|fen| Position::from_fen(fen).expect("bench positions are valid FEN"))
        .collect()
}

/// Runs `config` over `positions` in order and calls `on_position` after each. Each position starts from a
/// cleared table and cleared histories (so its time stands alone), unless [`BenchConfig::keep_tables`] is set:
/// then they are cleared once, before the first position, and one engine searches the positions in order as in
/// a game. Before the first position one depth-1 search starts whatever threads the algorithm keeps (the YBWC
/// pool), so no position pays for that.
///
/// # Errors
/// When the table cannot be allocated.
///
/// ```
/// use eldest_search::ParallelAlgorithm;
/// use eldest_search::bench::{BenchConfig, BenchSet, run_bench_with};
///
/// // Two threads of YBWC over the first positions of the game set, in order, the table kept between them.
/// let mut config = BenchConfig { threads: 2, keep_tables: true, ..BenchConfig::signature(5) };
/// config.parallel.algorithm = ParallelAlgorithm::Ybwc;
/// let positions = &BenchSet::Game.positions()[..3];
/// let result = run_bench_with(&config, positions, &mut |p| assert_eq!(p.utilisation.threads, 2))?;
/// assert!(result.nodes > 0);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
pub fn run_bench_with(
    config: &BenchConfig,
    positions: &[Position],
    on_position: &mut dyn FnMut(&BenchPosition<'_>),
) -> Result<BenchResult, TableSizeError> {
    let mut engine = bench_engine(config, config.hash_mib)?;
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
    let options = bench_options(config, config.threads);
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
    let mut serial_tree = config
        .serial_tree
        .map(|hash_mib| SerialTree::new(config, hash_mib))
        .transpose()?;
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for (index, position) in positions.iter().enumerate() {
        let game = history(position);
        let new_game = index == 0 || !config.keep_tables;
        if new_game {
            engine.new_game();
        }
        let serial = serial_tree.as_mut().map(|tree| {
            let serial = tree.search(position, Arc::clone(&game), &limits, new_game, &control);
            engine.set_tree_keys(Some(tree.compared()));
            serial
        });
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
            serial,
        });
    }
    let nps = (u128::from(nodes) * 1_000_000 / time.as_micros().max(1)) as u64;
    Ok(BenchResult { nodes, time, nps })
}

/// An engine of `hash_mib` MiB with the bench's evaluation.
fn bench_engine(config: &BenchConfig, hash_mib: usize) -> Result<Engine, TableSizeError> {
    let mut engine = Engine::new(hash_mib)?;
    engine.set_evaluation(config.evaluation.clone());
    Ok(engine)
}

/// The bench's search options for `threads` threads.
fn bench_options(config: &BenchConfig, threads: usize) -> SearchOptions {
    SearchOptions {
        threads: threads.max(1),
        multi_pv: 1,
        parallel: config.parallel,
        count_duplicates: config.count_duplicates,
        // `MoveOverhead` keeps time back for a GUI's link; a bench has none, so a 70 ms limit searches 70 ms,
        // as long as the games' moves that `--movetime 70` stands for (until 2026-11-29 it searched 40 ms).
        move_overhead: Duration::ZERO,
        ..SearchOptions::default()
    }
}

/// `BenchConfig::serial_tree`: the serial engine, the keys of its last search and the set the measured search
/// records its own in.
struct SerialTree {
    engine: Engine,
    options: SearchOptions,
    serial_keys: Arc<TreeKeys>,
    searched_keys: Arc<TreeKeys>,
}

impl SerialTree {
    fn new(config: &BenchConfig, hash_mib: usize) -> Result<SerialTree, TableSizeError> {
        let mut engine = bench_engine(config, hash_mib)?;
        let serial_keys = Arc::new(TreeKeys::new(TreeKeys::BENCH_BITS));
        engine.set_tree_keys(Some(TreeRecording {
            visited: Arc::clone(&serial_keys),
            serial: None,
        }));
        Ok(SerialTree {
            engine,
            options: bench_options(config, 1),
            serial_keys,
            searched_keys: Arc::new(TreeKeys::new(TreeKeys::BENCH_BITS)),
        })
    }

    /// The serial search of `position` (its tables new when the measured engine's are), its keys recorded;
    /// returns its counters.
    fn search(
        &mut self,
        position: &Position,
        game: Arc<GameHistory>,
        limits: &SearchLimits,
        new_game: bool,
        control: &SearchControl,
    ) -> ThreadStats {
        if new_game {
            self.engine.new_game();
        }
        self.serial_keys.clear();
        control.reset(false);
        self.engine
            .search(position, game, limits, &self.options, control, &mut |_| {});
        self.engine.thread_stats()[0]
    }

    /// What the measured search records: its own keys, from an empty set, looked up in the serial search's.
    fn compared(&self) -> TreeRecording {
        self.searched_keys.clear();
        TreeRecording {
            visited: Arc::clone(&self.searched_keys),
            serial: Some(Arc::clone(&self.serial_keys)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TreeProfile;

    #[test]
    fn a_fixed_time_bench_searches_the_whole_time() {
        let config = BenchConfig {
            limit: BenchLimit::MoveTime(Duration::from_millis(60)),
            ..BenchConfig::signature(1)
        };
        let mut times = Vec::new();
        run_bench_with(&config, &[Position::startpos()], &mut |p| times.push(p.time)).unwrap();
        // The search stops at its limit, never before: with the default move overhead it stopped after 30 ms.
        assert!(times[0] >= Duration::from_millis(55), "{:?}", times[0]);
    }

    #[test]
    fn every_bench_position_parses() {
        for fen in BENCH_POSITIONS {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
    }

    #[test]
    fn every_set_parses_and_has_its_shape() {
        assert_eq!(BenchSet::Short.positions().len(), BENCH_POSITIONS.len());
        let long = BenchSet::Long.positions();
        assert!(long.len() >= 10, "{}", long.len());
        let to_move = |color| long.iter().filter(|p| p.side_to_move() == color).count();
        assert!(to_move(eldest_board::Color::White) >= 4 && to_move(eldest_board::Color::Black) >= 4);
        // Middlegames: queens on, no more than a few pieces traded, each with moves to search.
        for position in &long {
            let pieces =
                position.occupied().popcount() - position.pieces(eldest_board::PieceKind::Pawn).popcount();
            assert!(pieces >= 10, "{position}");
            assert!(!position.legal_moves().is_empty(), "{position}");
            assert!(position.fullmove_number() > 12, "{position}");
        }
        assert!(BenchSet::Game.positions().len() >= 24);
        for set in BenchSet::ALL {
            assert_eq!(set.fens().len(), set.positions().len(), "{set}");
            assert_eq!(set.name().parse::<BenchSet>(), Ok(set));
            assert_eq!(set.name().to_uppercase().parse::<BenchSet>(), Ok(set));
        }
        assert!(
            "medium"
                .parse::<BenchSet>()
                .unwrap_err()
                .to_string()
                .contains("short, long or game")
        );
    }

    /// The main line of a PGN movetext as SAN: tags, comments, move numbers and the result dropped.
    fn san_moves(pgn: &str) -> Vec<String> {
        let mut movetext: String = pgn
            .lines()
            .filter(|line| !line.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        while let Some(start) = movetext.find('{') {
            let end = start + movetext[start..].find('}').expect("a closed comment");
            movetext.replace_range(start..=end, " ");
        }
        movetext
            .split_whitespace()
            .filter(|word| !matches!(*word, "1-0" | "0-1" | "1/2-1/2" | "*"))
            .map(|word| word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
            .filter(|san| !san.is_empty())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_game_set_is_consecutive_positions_of_its_game() {
        let sans = san_moves(include_str!("../bench/game.pgn"));
        assert_eq!(sans.len(), 268, "the game's PlyCount");
        let mut position = Position::startpos();
        let mut game = vec![position.to_fen()];
        for san in &sans {
            let mv = position.parse_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
            position.play_unchecked(mv);
            game.push(position.to_fen());
        }
        assert!(
            position.legal_moves().is_empty() && position.in_check(),
            "the game ends in mate"
        );
        let set = BenchSet::Game.fens();
        let first = game
            .iter()
            .position(|fen| fen == set[0])
            .expect("the first position is one of the game's");
        // Every other ply: the positions where the same side was to move, one after another.
        let expected: Vec<&str> = game[first..]
            .iter()
            .step_by(2)
            .take(set.len())
            .map(String::as_str)
            .collect();
        assert_eq!(set, expected);
        let first = Position::from_fen(set[0]).unwrap();
        assert_eq!(
            (first.fullmove_number(), first.side_to_move()),
            (10, eldest_board::Color::White)
        );
    }

    #[test]
    fn kept_tables_carry_what_the_previous_search_learnt() {
        // The same position twice: with the table kept, the second search starts from the first one's results
        // and needs fewer nodes; cleared, it repeats the first search exactly.
        let position = BenchSet::Game.positions()[0];
        let positions = [position, position];
        let nodes = |keep_tables| {
            let config = BenchConfig {
                keep_tables,
                hash_mib: 8,
                ..BenchConfig::signature(8)
            };
            let mut nodes = Vec::new();
            run_bench_with(&config, &positions, &mut |p| nodes.push(p.outcome.nodes)).unwrap();
            nodes
        };
        let cleared = nodes(false);
        assert_eq!(cleared[0], cleared[1]);
        let kept = nodes(true);
        assert_eq!(
            kept[0], cleared[0],
            "the first position starts from a cleared table either way"
        );
        assert!(kept[1] < kept[0], "{kept:?}");
    }

    #[test]
    fn position_lists_report_the_bad_line() {
        let text = "# comment\n\n8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11\nnot a fen\n";
        match parse_positions(text) {
            Err(PositionListError::Line { number, text, .. }) => {
                assert_eq!((number, text.as_str()), (4, "not a fen"))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            parse_positions("\n# only comments\n"),
            Err(PositionListError::Empty)
        );
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
                keep_tables: false,
                evaluation: crate::Evaluation::default(),
                count_duplicates: false,
                serial_tree: None,
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

    #[test]
    fn the_work_searched_twice_is_counted_only_when_asked() {
        let position =
            Position::from_fen("r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16").unwrap();
        let twice = |count_duplicates| {
            let config = BenchConfig {
                threads: 4,
                hash_mib: 16,
                count_duplicates,
                ..BenchConfig::signature(11)
            };
            let mut twice = 0;
            run_bench_with(&config, &[position], &mut |p| twice += p.stats.duplicate_nodes).unwrap();
            twice
        };
        // Lazy SMP's four threads finish some node twice at this depth (tests/parallel.rs counts them alike).
        assert!(twice(true) > 0);
        assert_eq!(twice(false), 0, "counted without being asked");
    }

    /// The serial engine's searches follow the measured one's tables: new where they are new, kept where they are
    /// kept, so one thread compared with the serial tree finds that very tree, position after position.
    #[test]
    fn one_thread_compared_with_the_serial_tree_is_that_tree() {
        let config = BenchConfig {
            keep_tables: true,
            serial_tree: Some(4),
            hash_mib: 4,
            ..BenchConfig::signature(7)
        };
        let mut searched = 0;
        run_bench_with(&config, &BenchSet::Game.positions()[..3], &mut |p| {
            let serial = p.serial.expect("compared");
            let profile = p.stats.profile;
            assert_eq!(serial.nodes, p.stats.nodes);
            assert_eq!(serial.profile.main_nodes, profile.main_nodes);
            assert_eq!(
                serial.profile.serial_tree_nodes_by_depth,
                serial.profile.main_nodes_by_depth
            );
            assert_eq!(
                profile.serial_tree_nodes_by_depth, profile.main_nodes_by_depth,
                "every node in it"
            );
            assert_eq!(
                profile.distinct_main_nodes_by_depth,
                serial.profile.distinct_main_nodes_by_depth
            );
            assert_eq!(
                profile.serial_tree_distinct_by_depth,
                profile.distinct_main_nodes_by_depth
            );
            let distinct: u64 = profile.distinct_main_nodes_by_depth.iter().sum();
            assert!(distinct < profile.main_nodes, "iterations revisit");
            searched += 1;
        })
        .unwrap();
        assert_eq!(searched, 3);
    }

    #[test]
    fn a_parallel_tree_compared_with_the_serial_one_counts_within_both() {
        let position =
            Position::from_fen("r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16").unwrap();
        for algorithm in crate::ParallelAlgorithm::ALL {
            let mut config = BenchConfig {
                threads: 2,
                hash_mib: 4,
                serial_tree: Some(4),
                ..BenchConfig::signature(9)
            };
            config.parallel.algorithm = algorithm;
            run_bench_with(&config, &[position], &mut |p| {
                let serial = p.serial.expect("compared").profile;
                let profile = p.stats.profile;
                for band in 0..TreeProfile::DEPTH_BANDS.len() {
                    let nodes = profile.main_nodes_by_depth[band];
                    assert!(profile.serial_tree_nodes_by_depth[band] <= nodes, "{algorithm}");
                    let distinct = profile.distinct_main_nodes_by_depth[band];
                    let covered = profile.serial_tree_distinct_by_depth[band];
                    assert!(distinct <= nodes && covered <= distinct);
                    // The same bit places: the serial positions covered are some of the serial tree's bits.
                    assert!(covered <= serial.distinct_main_nodes_by_depth[band]);
                }
                // The root and its sons: every thread starts there.
                let top = TreeProfile::DEPTH_BANDS.len() - 1;
                assert!(
                    profile.serial_tree_distinct_by_depth[..top].iter().sum::<u64>() > 0,
                    "{algorithm}"
                );
            })
            .unwrap();
        }
        let plain = BenchConfig {
            threads: 2,
            ..BenchConfig::signature(5)
        };
        run_bench_with(&plain, &[position], &mut |p| {
            assert!(p.serial.is_none());
            assert_eq!(
                p.stats.profile.distinct_main_nodes_by_depth, [0; 5],
                "nothing recorded unless asked"
            );
        })
        .unwrap();
    }
}
