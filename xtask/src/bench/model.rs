//! The data of a bench: what was asked, each search's raw result, and the summaries — the schema of the
//! JSON result file that `--compare` reads back.

use crate::report::machine::Machine;
use crate::stats::summary::Spread;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Version of the JSON layout; `--compare` refuses files of another version.
pub const SCHEMA_VERSION: u32 = 1;

/// One search of one position, as `eldest bench --json` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionRun {
    /// Index in the position list.
    pub index: usize,
    /// The position.
    pub fen: String,
    /// Depth completed.
    pub depth: u32,
    /// Nodes over all threads.
    pub nodes: u64,
    /// Wall time of the search in microseconds (start-up excluded).
    pub time_us: u64,
    /// The move chosen (UCI), `0000` without legal moves.
    pub best_move: String,
    /// `cp N` or `mate N`.
    pub score: String,
    /// Transposition-table hits.
    pub tt_hits: u64,
    /// Beta cutoffs.
    pub cutoffs: u64,
    /// Beta cutoffs by the first move.
    pub first_move_cutoffs: u64,
    /// Moves deferred to a second pass (ABDADA: ON_EVALUATION answers; simplified ABDADA: marked moves).
    pub deferred_moves: u64,
    /// The ABDADAs: nodes left by Kerrigan's cutoff checks (absent from older files).
    #[serde(default)]
    pub cutoff_check_returns: u64,
    /// The ABDADAs: subtrees left by the ancestor checks (absent from older files).
    #[serde(default)]
    pub ancestor_returns: u64,
    /// The ABDADAs' PV ancestor checks: of `ancestor_returns`, the PV nodes left (absent from older files).
    #[serde(default)]
    pub pv_ancestor_returns: u64,
    /// The ABDADAs' `SharedWindows`: root searches left for a window another thread widened (absent from older
    /// files).
    #[serde(default)]
    pub windows_left: u64,
    /// The ABDADAs' `SharedAlpha`: raises of alpha taken up from another thread (absent from older files).
    #[serde(default)]
    pub alpha_adoptions: u64,
    /// `WindowUpdates`: younger brothers left and searched again against a raise of their node's alpha by
    /// another thread (absent from older files).
    #[serde(default)]
    pub window_restarts: u64,
    /// Root searches of the main thread repeated after an aspiration failure (absent from older files).
    #[serde(default)]
    pub root_researches: u64,
    /// Iterations of the main thread whose best move was not the previous iteration's (absent from older files).
    #[serde(default)]
    pub best_move_changes: u64,
    /// YBWC split points.
    pub splits: u64,
    /// YBWC younger brothers handed to split points.
    pub split_tasks: u64,
    /// YBWC brothers skipped or abandoned after a cutoff.
    pub aborted_tasks: u64,
    /// Nodes below the brothers searched after the one that cut their node: YBWC's split points, the ABDADAs'
    /// deferred brothers (absent from older files).
    #[serde(default)]
    pub speculative_nodes: Option<u64>,
    /// The ABDADAs: nodes of brothers left unfinished when another thread's stored result answered their node
    /// (absent from older files).
    #[serde(default)]
    pub abandoned_nodes: Option<u64>,
    /// Nodes below nodes another thread's stored result answered by the time they were finished (absent from
    /// older files).
    #[serde(default)]
    pub duplicate_nodes: Option<u64>,
    /// Main-search nodes (the rest of `nodes` is quiescence; absent from older files, as are the other counts
    /// of the tree profile below).
    #[serde(default)]
    pub main_nodes: u64,
    /// Main-search nodes by remaining depth, in the engine's bands (`TreeProfile::DEPTH_BANDS`).
    #[serde(default)]
    pub main_nodes_by_depth: Vec<u64>,
    /// Null-move searches.
    #[serde(default)]
    pub null_move_searches: u64,
    /// Null-move searches that cut.
    #[serde(default)]
    pub null_move_cutoffs: u64,
    /// Singular-extension tests.
    #[serde(default)]
    pub singular_tests: u64,
    /// Singular-extension tests that extended the table move.
    #[serde(default)]
    pub singular_extensions: u64,
    /// Nodes inside singular-extension tests.
    #[serde(default)]
    pub singular_test_nodes: u64,
    /// Reduced searches that failed high and were searched again at full depth.
    #[serde(default)]
    pub reduced_researches: u64,
    /// Null-window searches in PV nodes searched again with the window.
    #[serde(default)]
    pub pv_researches: u64,
    /// Main-search nodes outside the PV answered by their table entry's bound (absent from older files, as are
    /// the move-loop counts below).
    #[serde(default)]
    pub table_cutoffs: u64,
    /// Main-search nodes that searched a move, by kind (`TreeProfile::NODE_KINDS`: PV, expected cut, expected
    /// all).
    #[serde(default)]
    pub move_loops: Vec<u64>,
    /// Of those, the ones that failed high, by kind.
    #[serde(default)]
    pub move_loop_fail_highs: Vec<u64>,
    /// The moves they searched, by kind.
    #[serde(default)]
    pub move_loop_moves: Vec<u64>,
    /// The comparison with the serial tree (`eldest bench --serial-tree`; absent from other runs and older files).
    #[serde(default)]
    pub serial_tree: Option<SerialTreeCounts>,
    /// Thread time spent searching, microseconds.
    pub busy_us: u64,
    /// Thread time not spent searching, microseconds.
    pub idle_us: u64,
    /// Threads of the search.
    pub threads: usize,
}

/// One position's comparison with the serial tree, as `eldest bench --serial-tree --json` writes it: by band of
/// remaining depth (`TreeProfile::DEPTH_BANDS`), positions counted apart in each band.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SerialTreeCounts {
    /// The serial search's nodes.
    pub serial_nodes: u64,
    /// The serial search's main-search nodes.
    pub serial_main_nodes_by_depth: Vec<u64>,
    /// The serial search's distinct positions.
    pub serial_distinct_by_depth: Vec<u64>,
    /// This search's distinct positions.
    pub distinct_by_depth: Vec<u64>,
    /// This search's main-search nodes at positions the serial search visited.
    pub in_serial_by_depth: Vec<u64>,
    /// This search's distinct positions the serial search visited.
    pub in_serial_distinct_by_depth: Vec<u64>,
}

impl PositionRun {
    /// Whether the root had a move to search (positions without one have no time to compare).
    pub fn searched(&self) -> bool {
        self.nodes > 0 && self.best_move != "0000"
    }
}

/// One run of one configuration over every position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The configuration: an algorithm name or a `--variant` label (the baseline's is a bare algorithm name).
    pub algorithm: String,
    /// Threads.
    pub threads: usize,
    /// Which repetition (0-based).
    pub repeat: usize,
    /// CPU busy share of the machine measured just before the run, percent of all CPUs.
    pub machine_busy_before_percent: f64,
    /// Per-position results.
    pub positions: Vec<PositionRun>,
}

/// What the bench was asked to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Configurations compared: algorithm names, and `--variant` labels (an algorithm followed by its knob flags,
    /// `ybwc --min-split-depth 2`).
    pub algorithms: Vec<String>,
    /// Thread counts (1 is always measured: it is the baseline).
    pub threads: Vec<usize>,
    /// Thread counts above the machine's logical CPUs were allowed.
    pub oversubscribe: bool,
    /// Fixed depth, if searching to a depth.
    pub depth: Option<u32>,
    /// Fixed time per position in milliseconds, if searching for a time.
    pub movetime_ms: Option<u64>,
    /// The positions file, or "built-in" for a built-in set.
    pub positions: String,
    /// The built-in set searched (`short`, `long`, `game`), `None` for a positions file. Files written before
    /// the sets existed have none and searched the short set when `positions` is "built-in".
    #[serde(default)]
    pub set: Option<String>,
    /// The table and histories were kept from one position to the next (the game set, `--keep-tables`).
    #[serde(default)]
    pub keep_tables: bool,
    /// The work searched twice was counted (`--count-duplicates`): one table probe more per node with several
    /// threads, so the speed figures of such a run are a little low. Files written before the flag counted it
    /// always and say `false`; their `twice` column shows what they counted.
    #[serde(default)]
    pub count_duplicates: bool,
    /// The runs of several threads were compared with the serial tree (`--serial-tree`, absent from older files):
    /// their speed figures are low, and each position carries its [`SerialTreeCounts`].
    #[serde(default)]
    pub serial_tree: bool,
    /// Every configuration searched a position before any searched the next (`--interleave positions`), each
    /// search in an engine process of its own; false (and in files written before the flag): each
    /// configuration's run searched the whole set in one process before the next configuration's run began.
    #[serde(default)]
    pub interleave_positions: bool,
    /// Runs per configuration.
    pub repeat: usize,
    /// Transposition-table MiB.
    pub hash_mib: u64,
    /// Extra engine flags (the research knobs and the evaluation), as passed to `eldest bench`.
    pub knobs: Vec<String>,
    /// The engine binary.
    pub engine: String,
    /// The command the engine was started under (`mpirun -np 2`), word by word; empty for none.
    #[serde(default)]
    pub launcher: Vec<String>,
    /// How long, in milliseconds, the machine's load was watched before each run (`--idle-check-ms`; 300 in
    /// files written before the flag); 0: not watched, and every run's `machine_busy_before_percent` reads 0.
    #[serde(default = "default_idle_check_ms")]
    pub idle_check_ms: u64,
}

/// The load watch of files written before `--idle-check-ms` (and its default).
pub const fn default_idle_check_ms() -> u64 {
    300
}

impl Settings {
    /// The limit searched to, in words: `depth 22`, `70 ms a position`.
    pub fn limit(&self) -> String {
        match (self.depth, self.movetime_ms) {
            (Some(depth), _) => format!("depth {depth}"),
            (None, Some(ms)) => format!("{ms} ms a position"),
            (None, None) => "no limit".to_string(),
        }
    }

    /// What was searched, in words: `short set`, `game set, tables kept`, or the file's path.
    pub fn source(&self) -> String {
        let what = match (&self.set, self.positions.as_str()) {
            (Some(set), _) => format!("{set} set"),
            (None, "built-in") => "short set".to_string(),
            (None, path) => path.to_string(),
        };
        let what = if self.launcher.is_empty() {
            what
        } else {
            format!("{what}, under `{}`", self.launcher.join(" "))
        };
        if self.keep_tables {
            format!("{what}, tables kept")
        } else {
            what
        }
    }
}

/// The summary of one (algorithm, threads) configuration over its repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigSummary {
    /// Algorithm name.
    pub algorithm: String,
    /// Threads.
    pub threads: usize,
    /// More threads than logical CPUs.
    pub oversubscribed: bool,
    /// At one thread every algorithm is the serial search: the row shows the one shared baseline run.
    pub shared_baseline: bool,
    /// Positions with a move to search (the others are left out of every ratio).
    pub positions: usize,
    /// Total wall time over the positions, seconds, per repeat.
    pub total_time_s: Spread,
    /// Total nodes, per repeat.
    pub total_nodes: Spread,
    /// Total nodes ÷ total time, per repeat.
    pub nps: Spread,
    /// Geometric mean over positions of (1-thread time ÷ this time), per repeat (depth mode only).
    pub speedup: Option<Spread>,
    /// Geometric mean over positions of (lazy SMP's time at these threads ÷ this time), per repeat.
    pub speedup_vs_lazy: Option<Spread>,
    /// Geometric mean over positions of (nodes ÷ 1-thread nodes), per repeat (depth mode only).
    pub node_overhead: Option<Spread>,
    /// The whole set's time to depth, as Kerrigan and Hyatt quote it: the positions' 1-thread median times
    /// summed ÷ this repeat's times summed, per repeat (depth mode only; absent from older files). Long
    /// positions weigh more here than in the geometric [`speedup`](Self::speedup).
    #[serde(default)]
    pub whole_set_speedup: Option<Spread>,
    /// The whole set's node overhead: this repeat's nodes summed ÷ the positions' 1-thread median nodes summed,
    /// per repeat (depth mode only; absent from older files).
    #[serde(default)]
    pub whole_set_overhead: Option<Spread>,
    /// NPS ÷ (1-thread NPS × threads), per repeat.
    pub nps_efficiency: Option<Spread>,
    /// NPS ÷ 1-thread NPS, per repeat: what the threads buy in raw speed (the figure of `--movetime` runs).
    #[serde(default)]
    pub nps_ratio: Option<Spread>,
    /// Share of positions whose best move equals the 1-thread move, per repeat.
    pub best_move_agreement: Spread,
    /// Share of positions whose score equals the 1-thread score, per repeat.
    pub score_agreement: Spread,
    /// Median over positions of the depth reached, per repeat.
    pub depth_reached: Spread,
    /// Mean over positions of the depth reached, per repeat (finer than the median with `--movetime`).
    #[serde(default)]
    pub depth_mean: Option<Spread>,
    /// Deferred moves summed over positions, per repeat.
    pub deferred_moves: Spread,
    /// Split points summed over positions, per repeat.
    pub splits: Spread,
    /// Aborted brothers summed over positions, per repeat.
    pub aborted_tasks: Spread,
    /// Idle share of the thread time, per repeat.
    pub idle_fraction: Spread,
    /// The main thread's aspiration re-searches summed over positions, per repeat (absent from older files).
    #[serde(default)]
    pub root_researches: Option<Spread>,
    /// The main thread's best-move changes between iterations summed over positions, per repeat (absent from
    /// older files).
    #[serde(default)]
    pub best_move_changes: Option<Spread>,
    /// YBWC: the share of the nodes searched below brothers after the one that cut their split point, per
    /// repeat (absent from older files).
    #[serde(default)]
    pub speculative_share: Option<Spread>,
    /// The share of the nodes searched below nodes another thread had answered by the time they were finished
    /// (searched twice), per repeat (absent from older files).
    #[serde(default)]
    pub duplicate_share: Option<Spread>,
    /// The per-position figures (medians over repeats).
    pub per_position: Vec<PositionSummary>,
    /// The figures by the 1-thread time of the positions (depth mode only; empty with `--movetime`).
    #[serde(default)]
    pub time_buckets: Vec<TimeBucket>,
    /// The same figures by the search's size, the geometric mean of the 1-thread and this configuration's median
    /// times (depth mode only; absent from older files). A position falls in a range of 1-thread time partly by
    /// the one-thread search's luck, and this configuration's search of it regresses to the mean, so
    /// [`time_buckets`](Self::time_buckets) overstates the loss on short searches and the gain on long ones; a
    /// size that is both searches' favours neither.
    #[serde(default)]
    pub size_buckets: Vec<TimeBucket>,
}

/// One configuration's figures over the positions whose 1-thread search time (or search size, in
/// `size_buckets`) falls in one range: where parallel search gains and where it loses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimeBucket {
    /// The range, e.g. `1–5 s`.
    pub label: String,
    /// Lower bound of the 1-thread median time, seconds (inclusive).
    pub from_s: f64,
    /// Upper bound, seconds (exclusive); `None` for the last, open range.
    pub to_s: Option<f64>,
    /// Positions in the range (with a move to search).
    pub positions: usize,
    /// Their 1-thread median times summed, seconds.
    pub one_thread_time_s: f64,
    /// Geometric mean over the range's positions of 1-thread median time ÷ this median time.
    pub speedup: Option<f64>,
    /// Geometric mean over the range's positions of median nodes ÷ 1-thread median nodes.
    pub node_overhead: Option<f64>,
    /// The range's nodes ÷ time, over the same at one thread (medians per position).
    pub nps_ratio: Option<f64>,
}

/// One position's figures in one configuration, medians over repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PositionSummary {
    /// Index in the position list.
    pub index: usize,
    /// The position.
    pub fen: String,
    /// Median time, milliseconds.
    pub time_ms: f64,
    /// Median nodes.
    pub nodes: f64,
    /// Median depth reached.
    pub depth: f64,
    /// Median of the main thread's aspiration re-searches (absent from older files).
    #[serde(default)]
    pub root_researches: f64,
    /// Median of the main thread's best-move changes between iterations (absent from older files).
    #[serde(default)]
    pub best_move_changes: f64,
    /// YBWC: median share of the nodes searched past a split point's cutoff (absent from older files).
    #[serde(default)]
    pub speculative_share: Option<f64>,
    /// Median share of the nodes searched twice, another thread's copy finished first (absent from older
    /// files).
    #[serde(default)]
    pub duplicate_share: Option<f64>,
    /// 1-thread median time ÷ this median time.
    pub speedup: Option<f64>,
    /// This median nodes ÷ 1-thread median nodes.
    pub node_overhead: Option<f64>,
    /// Best move of the first repeat.
    pub best_move: String,
    /// Whether that move is the 1-thread move.
    pub agrees_with_one_thread: bool,
}

/// A whole bench: settings, machine, raw runs and summaries — the JSON result file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    /// [`SCHEMA_VERSION`].
    pub schema: u32,
    /// Where it ran.
    pub machine: Machine,
    /// What was asked.
    pub settings: Settings,
    /// Wall time of the whole bench, seconds.
    pub elapsed_s: f64,
    /// One summary per (algorithm, threads).
    pub summaries: Vec<ConfigSummary>,
    /// Every run.
    pub runs: Vec<Run>,
}

impl BenchReport {
    /// Reads a result file, refusing one of another schema version.
    ///
    /// # Errors
    /// When the file cannot be read, is not a result file, or is of another version.
    pub fn read(path: &Path) -> Result<BenchReport, String> {
        let report: BenchReport = crate::report::read_json(path)?;
        if report.schema != SCHEMA_VERSION {
            return Err(format!(
                "{} has result schema {}, this tool reads {SCHEMA_VERSION}",
                path.display(),
                report.schema
            ));
        }
        Ok(report)
    }
}
