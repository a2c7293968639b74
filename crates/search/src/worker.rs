//! One search thread's state and the node search: negamax alpha-beta with principal variation search,
//! quiescence, transposition-table probes by micro-Max's rules, null-move pruning, reverse futility pruning,
//! futility pruning of quiets, late-move reductions and pruning, singular extensions, killers and history,
//! mate-distance pruning and draw detection. See docs/search.md for why each technique is there.

use crate::correction::CorrectionHistory;
use crate::eval::{Evaluation, evaluate};
use crate::exchange::{EntryExchange, TableEntry};
use crate::hooks::{MoveContext, SearchHooks};
use crate::limits::SearchControl;
use crate::nnue::AccumulatorStack;
use crate::ordering::{History, MovePicker, PickerKind, is_losing_noisy};
use crate::parallel::researches::ResearchBoard;
use crate::parallel::windows::{RootWindow, RootWindows};
use crate::parallel::ybwc::Cutoff;
use crate::params::{Reductions, SearchParams};
use crate::see::see_ge;
use crate::time::TimeManager;
use eldest_board::{Move, PieceKind, Position};
use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions, fifty_move_draw};
use eldest_tt::{
    Bound, Entry, MATE, MATE_IN_MAX_PLY, ProbeOutcome, Record, TranspositionTable, probe_cutoff,
};
use smallvec::SmallVec;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

/// The deepest ply a search may reach; beyond it the static evaluation is returned.
///
/// # Examples
///
/// ```
/// use eldest_search::{MAX_PLY, Score, uci_score};
/// use eldest_tt::MATE;
///
/// // Every mate the search can find is one the table can store and a report can name.
/// assert!(MAX_PLY <= eldest_tt::MAX_PLY);
/// assert_eq!(uci_score(MATE - MAX_PLY as i32), Score::Mate(64));
/// ```
pub const MAX_PLY: usize = 128;
/// A score above every real score.
///
/// # Examples
///
/// ```
/// use eldest_search::INFINITY;
/// use eldest_tt::MATE;
///
/// // The full window (−INFINITY, INFINITY) holds every score, even a mate at the root.
/// assert!(-INFINITY < -MATE && MATE < INFINITY);
/// ```
pub const INFINITY: i32 = MATE + 1;
/// The score of a draw.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{DRAW, Engine, Score, SearchControl, SearchLimits, SearchOptions};
///
/// // Black is not in check and has no move: stalemate.
/// let stalemate = Position::from_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1").unwrap();
/// let limits = SearchLimits { depth: Some(3), ..SearchLimits::default() };
/// let outcome = Engine::new(1)?.search(&stalemate, Default::default(), &limits, &SearchOptions::default(),
///     &SearchControl::new(), &mut |_| {});
/// assert_eq!(outcome.score, Score::Centipawns(DRAW));
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
pub const DRAW: i32 = 0;
/// How many nodes pass between two looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;

/// Quiet moves a node remembers (for the history's penalties) without touching the heap; more spill to it.
const QUIETS_ON_STACK: usize = 64;
/// Singular extensions apply only this many plies per ply of the iteration's depth from the root (Stockfish's
/// bound): past it a line of lone moves, a perpetual check's, would otherwise keep its depth forever.
const EXTENSION_PLIES_PER_DEPTH: usize = 2;
/// Kerrigan's cutoff checks, and the ancestor checks, start at this remaining depth (also the floor and default
/// of `PvAncestorMinDepth`).
pub(crate) const CUTOFF_CHECK_MIN_DEPTH: i32 = 4;
/// `SharedAlpha`: PV nodes of at least this remaining depth publish and read their threads' alphas (below it a
/// node's moves are over before another thread's raise could help).
const SHARED_ALPHA_MIN_DEPTH: i32 = 4;
/// Ancestor checks: main-search nodes between two re-probes of the path (a few table probes every few hundred
/// nodes: well under 1% of the work).
const ANCESTOR_CHECK_INTERVAL: u32 = 256;

/// What all threads of one search share.
pub struct SharedSearch<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// The UCI layer's stop and ponder flags.
    pub control: &'a SearchControl,
    /// Set when the search as a whole is over (the main thread finished or a limit was hit).
    pub abort: &'a AtomicBool,
    /// The time budget.
    pub time: &'a TimeManager,
    /// The node limit of `go nodes`, if any (per thread).
    pub node_limit: Option<u64>,
    /// Each thread's node count, published every few thousand nodes for `info` lines.
    pub node_counters: &'a [std::sync::atomic::AtomicU64],
    /// The deepest iteration any thread has completed.
    pub completed_depth: &'a AtomicU32,
    /// The ABDADAs: a thread abandons an iteration another thread has completed.
    pub skip_completed_iterations: bool,
    /// The ABDADAs' `SharedWindows` (several threads): the root window every thread of an iteration searches.
    pub root_windows: Option<&'a RootWindows>,
    /// The ABDADAs' `BrothersKeepPlaces`: a move searched after deferred ones is counted at its serial place.
    pub brothers_keep_places: bool,
    /// The ABDADAs' `ExpectedCutSons`: the sons a node still expected to fail high searches without asking
    /// whether to defer them (1: the eldest alone, Weill's and Kerrigan's rule; always 1 for the others).
    pub expected_cut_sons: usize,
    /// The ABDADAs' `DeferEldest`: a null-window node not expected to fail high asks whether to defer its eldest
    /// son too (and marks it while searching it).
    pub defer_eldest: bool,
    /// The ABDADAs' `HelpResearchDepth` (several threads): the board on which PV nodes of at least
    /// `help_research_depth` post the brothers they search again with the full window, for the node's other
    /// threads to join.
    pub research_board: Option<&'a ResearchBoard>,
    /// The least remaining depth of the PV nodes that post and read `research_board`.
    pub help_research_depth: i32,
    /// The ABDADAs' `SharedAlpha` (several threads): PV nodes publish each raise of alpha in the table and read
    /// the other threads' before each move.
    pub shared_alpha: bool,
    /// `WindowUpdates`: a raise of a PV split point's alpha restarts the brothers in flight there (YBWC); with
    /// `shared_alpha`, a raise another thread stores for a PV node restarts this thread's search of a younger
    /// brother there (the ABDADAs). The knob as it applies to this search's algorithm and thread count
    /// ([`ParallelSettings::window_updates_for`](crate::ParallelSettings::window_updates_for)).
    pub window_updates: bool,
    /// The ABDADAs' PV ancestor checks (`AbdadaPvAncestorChecks`, `SimplifiedAbdadaPvAncestorChecks`; several
    /// threads, with the ancestor checks): PV nodes below the root of at
    /// least this remaining depth (`PvAncestorMinDepth`) are re-probed too, against their window on entry.
    pub pv_ancestor_min_depth: Option<i32>,
    /// The search's constants.
    pub params: &'a SearchParams,
    /// The static evaluation: the network or PeSTO's tables.
    pub evaluation: &'a Evaluation,
    /// Late-move reductions by depth and move number, made from `params`.
    pub(crate) reductions: &'a Reductions,
    /// Other processes' tables (a cluster build), if any: deep results go out, theirs come in.
    pub exchange: Option<&'a dyn EntryExchange>,
    /// Count [`ThreadStats::duplicate_nodes`]: asked for (`SearchOptions::count_duplicates`, one table probe
    /// more per node) and several threads or processes fill the table.
    pub count_duplicates: bool,
    /// `eldest bench --serial-tree`: every main-search node's key recorded, and looked up in the serial search's
    /// (the counts go to [`TreeProfile`]). `None` in play.
    pub tree_keys: Option<&'a crate::TreeRecording>,
}

/// A thread's last completed iteration: its depth, score and principal variation.
#[derive(Debug, Clone)]
pub(crate) struct Completed {
    pub(crate) depth: u32,
    pub(crate) score: i32,
    pub(crate) pv: Vec<Move>,
}

/// Counters of one thread, reported at the end of a search.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
///
/// let mut engine = Engine::new(1)?;
/// let limits = SearchLimits { depth: Some(5), ..SearchLimits::default() };
/// let outcome = engine.search(&Position::startpos(), Default::default(), &limits, &SearchOptions::default(),
///     &SearchControl::new(), &mut |_| {});
/// let stats = engine.thread_stats()[0];
/// assert_eq!(stats.nodes, outcome.nodes);
/// // A serial search splits nothing and defers nothing.
/// assert!(stats.first_move_cutoffs <= stats.cutoffs && stats.splits == 0 && stats.deferred_moves == 0);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ThreadStats {
    /// Nodes of the main search and quiescence.
    pub nodes: u64,
    /// Transposition-table probes that found the position.
    pub tt_hits: u64,
    /// Beta cutoffs.
    pub cutoffs: u64,
    /// Cutoffs by the first move searched.
    pub first_move_cutoffs: u64,
    /// Moves deferred to the second pass by a parallel hook.
    pub deferred_moves: u64,
    /// Of `deferred_moves`, the eldest sons (the ABDADAs' `DeferEldest`).
    pub deferred_eldest_sons: u64,
    /// Nodes that failed high on a singular-extension test (multi-cut).
    pub multi_cuts: u64,
    /// The ABDADAs: nodes left early because a cutoff check found another thread's result that cuts.
    pub cutoff_check_returns: u64,
    /// The ABDADAs: subtrees left because an ancestor check found another thread's result that cuts a node of
    /// the path above.
    pub ancestor_returns: u64,
    /// The ABDADAs' PV ancestor checks: of `ancestor_returns`, the PV nodes left because another thread had
    /// finished them.
    pub pv_ancestor_returns: u64,
    /// The ABDADAs' `SharedWindows`: root searches this thread left because another thread had failed their
    /// aspiration window (the thread went on in the window that thread opened).
    pub windows_left: u64,
    /// The ABDADAs' `SharedAlpha`: times this thread raised a PV node's alpha to a bound another thread had
    /// stored while inside the node.
    pub alpha_adoptions: u64,
    /// Root searches of the thread that runs the measured iterative deepening (the main thread) repeated
    /// because the score fell outside the aspiration window: how often the search's value moved.
    pub root_researches: u64,
    /// Iterations of the main thread whose best move differed from the previous iteration's: how often the
    /// search changed its mind. Two searches of one position reach a depth along trees of very different size
    /// when they change their minds at different iterations.
    pub best_move_changes: u64,
    /// YBWC split points opened.
    pub splits: u64,
    /// YBWC: younger brothers handed to split points.
    pub split_tasks: u64,
    /// YBWC: younger brothers skipped or abandoned because a brother failed high (or the search stopped).
    pub aborted_tasks: u64,
    /// Nodes searched below brothers that come after, in the move order, the brother that cut their node off —
    /// work the serial search, which stops at the cutting brother, never does. YBWC: the brothers of a split
    /// point after the one that cut it. The ABDADAs: the brothers a thread searched in its first pass after a
    /// brother it deferred, when that brother then cut the node in its second pass; and, when another thread's
    /// stored cut answers a node (the ancestor checks), the brothers this thread searched after the cutting
    /// move's place, the one it leaves included. Nodes are counted once, at the deepest such node (and never also
    /// as [`abandoned_nodes`](Self::abandoned_nodes)); nodes of fewer than 3 plies left defer nothing and are
    /// not counted.
    pub speculative_nodes: u64,
    /// The ABDADAs' ancestor checks: nodes of the brother a thread was searching when another thread's stored
    /// result answered the node above it, so that it left the brother unfinished, less those counted as
    /// speculative: a brother the serial search searches too (a fail-low or exact answer needs every brother, a
    /// cut those up to the cutting move), left because the other thread finished the node first. What of it the
    /// other thread used (the subtrees it found stored) is not known, so it is not a loss. Counted once, at the
    /// node left.
    pub abandoned_nodes: u64,
    /// `WindowUpdates`: YBWC's split-point brothers stopped and searched again because another brother raised
    /// the split point's alpha; the ABDADAs' younger brothers of PV nodes stopped and searched again because
    /// another thread raised the node's alpha.
    pub window_restarts: u64,
    /// YBWC's `WaitForResearch`: tasks of PV split points that ended because a brother was being searched again
    /// with the full window (their threads helped inside that search; each task was offered again after it).
    pub research_waits: u64,
    /// The ABDADAs' `HelpResearchDepth`: brothers of PV nodes this thread searched with the full window, before
    /// its own next brother, because another thread was searching them again with it.
    pub research_helps: u64,
    /// Nodes searched a second time: main-search nodes whose result another thread had stored by the time
    /// this thread finished them (the table answered the node's window at its depth then, though not when the
    /// node was entered), each with the nodes below it that belong to no deeper main-search node (its
    /// quiescence, the sons answered at once). Every node belongs to its nearest main-search node, so nothing
    /// is counted twice, and the sons this thread finished first are not counted: when two threads share a
    /// node's moves, as the ABDADAs' threads do, the node's second copy is counted but not the moves its thread
    /// searched for both. Only what the table still holds is seen — a result it dropped or replaced before this
    /// copy ended is not — so with a full table the count is a lower bound. Counted only when
    /// `SearchOptions::count_duplicates` asks for it (`eldest bench --count-duplicates` does) and with several threads.
    pub duplicate_nodes: u64,
    /// YBWC: nanoseconds this worker waited at its own split points for their tasks to end (time its thread
    /// may have spent on other tasks, or idle).
    pub split_wait_ns: u64,
    /// YBWC: nanoseconds of work done by the helpers below this worker's split points, each counted without its
    /// own split-point waits, so that work is never counted twice.
    pub task_busy_ns: u64,
    /// Nanoseconds of this thread's own iterative deepening (0 for a YBWC task).
    pub search_ns: u64,
    /// What kinds of search the nodes went to: where a parallel tree grows past the serial one.
    pub profile: TreeProfile,
}

/// How many bands of remaining depth [`TreeProfile`] counts main-search nodes in.
const DEPTH_BAND_COUNT: usize = 5;

/// How many kinds of node [`TreeProfile`] counts move loops by ([`TreeProfile::NODE_KINDS`]).
const NODE_KIND_COUNT: usize = 3;

/// The shape of a search tree: how often the selective parts of the node routine fire, the nodes their
/// verification searches take, and the main-search nodes by remaining depth. When two searches of one position to
/// one depth differ in size, these say whether a selective part is the cause: a two-thread tree larger than the
/// serial one could owe it to the singular tests (their nodes, the extensions they grant), to late-move
/// reductions undone (a reduced null-window search that failed high is searched again at full depth), to PV
/// re-searches (a null-window search that landed inside the window is searched again with it) or to null-move
/// pruning that cut less often, and it could have grown near the root or near the leaves. The table's cutoffs and
/// the move loops by kind of node (PV, expected to cut, expected to fail low) with their fail-highs and moves say
/// whether it found fewer transpositions, mispredicted more nodes, or searched more moves where it searched.
/// `eldest bench --json` reports them, `cargo xtask bench` sets them against the serial search's (`profile.md`;
/// what they showed at two threads: docs/parallel-search.md, *The tree profile at two threads* and *The two-thread
/// tree by kind of node*).
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions, TreeProfile};
///
/// let mut engine = Engine::new(1)?;
/// let limits = SearchLimits { depth: Some(9), ..SearchLimits::default() };
/// engine.search(&Position::startpos(), Default::default(), &limits, &SearchOptions::default(),
///     &SearchControl::new(), &mut |_| {});
/// let stats = engine.thread_stats()[0];
/// let profile = stats.profile;
/// // Main-search nodes are some of the nodes (the rest are quiescence), and a test's extension or a null
/// // move's cutoff is an outcome of one of its searches.
/// assert!(profile.main_nodes > 0 && profile.main_nodes < stats.nodes);
/// assert_eq!(profile.main_nodes_by_depth.iter().sum::<u64>(), profile.main_nodes);
/// assert!(profile.singular_extensions <= profile.singular_tests);
/// assert!(profile.null_move_cutoffs <= profile.null_move_searches);
/// assert!(profile.singular_test_nodes <= stats.nodes);
/// // Nodes that searched a move, by kind: each failed high at most once and searched a move at least.
/// assert!(profile.move_loops.iter().sum::<u64>() + profile.table_cutoffs <= profile.main_nodes);
/// for kind in 0..TreeProfile::NODE_KINDS.len() {
///     assert!(profile.move_loop_fail_highs[kind] <= profile.move_loops[kind]);
///     assert!(profile.move_loop_moves[kind] >= profile.move_loops[kind]);
/// }
/// assert!(profile.move_loops[TreeProfile::node_kind(true, false)] > 0);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TreeProfile {
    /// Nodes of the main search (the rest of `nodes` is quiescence).
    pub main_nodes: u64,
    /// Main-search nodes by their remaining depth, in the bands of [`TreeProfile::DEPTH_BANDS`]: whether a
    /// larger tree grew near the root or near the leaves.
    pub main_nodes_by_depth: [u64; DEPTH_BAND_COUNT],
    /// Null-move searches made.
    pub null_move_searches: u64,
    /// Null-move searches that failed high, so that their node returned without searching a move.
    pub null_move_cutoffs: u64,
    /// Singular-extension tests made (searches of a node without its table move).
    pub singular_tests: u64,
    /// Tests that found the table move alone and extended it (by one ply or two).
    pub singular_extensions: u64,
    /// Nodes searched inside singular-extension tests, each counted once (a test inside a test belongs to the
    /// outer one); a YBWC helper's nodes below a split point inside a test are not counted.
    pub singular_test_nodes: u64,
    /// Reduced null-window searches that failed high and were searched again at full depth.
    pub reduced_researches: u64,
    /// Null-window searches of PV nodes' younger brothers that landed inside the window and were searched again
    /// with it.
    pub pv_researches: u64,
    /// Main-search nodes outside the PV that returned on their table entry's bound without searching a move.
    pub table_cutoffs: u64,
    /// Main-search nodes that searched at least one move, by their kind ([`TreeProfile::NODE_KINDS`]: PV,
    /// expected to cut, expected to fail low); a node whose search was stopped (the clock, or another thread's
    /// result answering a node above it) is not counted.
    pub move_loops: [u64; NODE_KIND_COUNT],
    /// Of [`move_loops`](Self::move_loops), those that failed high (returned at or above beta): a node expected
    /// to cut that fails low, or one expected to fail low that cuts, had its kind mispredicted, and the subtree
    /// below it is of the other shape.
    pub move_loop_fail_highs: [u64; NODE_KIND_COUNT],
    /// The moves those nodes searched, summed (a move searched again, after a reduction or with the PV window,
    /// counts once).
    pub move_loop_moves: [u64; NODE_KIND_COUNT],
    /// Main-search nodes whose position no earlier node of the search had in the same band of remaining depth
    /// (by every thread; counted only when the search records its keys, `eldest bench --serial-tree`, else 0), by
    /// band: the tree's distinct positions, so that `main_nodes_by_depth` less this is its revisits (iterations,
    /// re-searches, transpositions, threads side by side).
    pub distinct_main_nodes_by_depth: [u64; DEPTH_BAND_COUNT],
    /// Main-search nodes whose position the serial search of the same root also visited in the same band
    /// (`--serial-tree`; the serial search counts all its own), by band: `main_nodes_by_depth` less this is the
    /// work of positions the serial search never reached there.
    pub serial_tree_nodes_by_depth: [u64; DEPTH_BAND_COUNT],
    /// Of the distinct positions, those the serial search also visited (`--serial-tree`), by band: how much of the
    /// serial tree the search covered.
    pub serial_tree_distinct_by_depth: [u64; DEPTH_BAND_COUNT],
}

impl TreeProfile {
    /// The bands of remaining depth by which main-search nodes are counted: each band's lowest depth (the last
    /// band is open).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::TreeProfile;
    ///
    /// assert_eq!(TreeProfile::DEPTH_BANDS[0], 1);
    /// assert_eq!(TreeProfile::depth_band(2), 0);
    /// assert_eq!(TreeProfile::depth_band(3), 1);
    /// assert_eq!(TreeProfile::depth_band(40), TreeProfile::DEPTH_BANDS.len() - 1);
    /// ```
    pub const DEPTH_BANDS: [i32; DEPTH_BAND_COUNT] = [1, 3, 6, 10, 15];

    /// The kinds of node [`move_loops`](Self::move_loops) counts: PV nodes (an open window), nodes outside the PV
    /// whose static evaluation is at or above beta (expected to cut; in check never), and the other nodes outside
    /// the PV (expected to fail low).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::TreeProfile;
    ///
    /// assert_eq!(TreeProfile::NODE_KINDS[TreeProfile::node_kind(true, false)], "PV");
    /// assert_eq!(TreeProfile::NODE_KINDS[TreeProfile::node_kind(false, true)], "expected cut");
    /// assert_eq!(TreeProfile::NODE_KINDS[TreeProfile::node_kind(false, false)], "expected all");
    /// ```
    pub const NODE_KINDS: [&'static str; NODE_KIND_COUNT] = ["PV", "expected cut", "expected all"];

    /// The index in [`NODE_KINDS`](Self::NODE_KINDS) of a node on the PV (`pv`) or, outside it, expected to cut
    /// (`expected_cut`) or not.
    pub fn node_kind(pv: bool, expected_cut: bool) -> usize {
        match (pv, expected_cut) {
            (true, _) => 0,
            (false, true) => 1,
            (false, false) => 2,
        }
    }

    /// The band of [`DEPTH_BANDS`](Self::DEPTH_BANDS) a main-search node of `depth` plies left falls in.
    pub fn depth_band(depth: i32) -> usize {
        Self::DEPTH_BANDS
            .iter()
            .rposition(|&lowest| depth >= lowest)
            .unwrap_or(0)
    }

    /// Adds `other`'s counts to these.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::TreeProfile;
    ///
    /// let mut total = TreeProfile { main_nodes: 100, singular_tests: 3, ..TreeProfile::default() };
    /// total.add(&TreeProfile { main_nodes: 50, pv_researches: 2, ..TreeProfile::default() });
    /// assert_eq!(total, TreeProfile { main_nodes: 150, singular_tests: 3, pv_researches: 2, ..TreeProfile::default() });
    /// ```
    pub fn add(&mut self, other: &TreeProfile) {
        self.main_nodes += other.main_nodes;
        for (band, count) in self.main_nodes_by_depth.iter_mut().zip(other.main_nodes_by_depth) {
            *band += count;
        }
        self.null_move_searches += other.null_move_searches;
        self.null_move_cutoffs += other.null_move_cutoffs;
        self.singular_tests += other.singular_tests;
        self.singular_extensions += other.singular_extensions;
        self.singular_test_nodes += other.singular_test_nodes;
        self.reduced_researches += other.reduced_researches;
        self.pv_researches += other.pv_researches;
        self.table_cutoffs += other.table_cutoffs;
        for kind in 0..NODE_KIND_COUNT {
            self.move_loops[kind] += other.move_loops[kind];
            self.move_loop_fail_highs[kind] += other.move_loop_fail_highs[kind];
            self.move_loop_moves[kind] += other.move_loop_moves[kind];
        }
        for band in 0..DEPTH_BAND_COUNT {
            self.distinct_main_nodes_by_depth[band] += other.distinct_main_nodes_by_depth[band];
            self.serial_tree_nodes_by_depth[band] += other.serial_tree_nodes_by_depth[band];
            self.serial_tree_distinct_by_depth[band] += other.serial_tree_distinct_by_depth[band];
        }
    }
}

impl ThreadStats {
    /// Adds `other`'s counters to these.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::ThreadStats;
    ///
    /// let mut total = ThreadStats { nodes: 1000, cutoffs: 40, ..ThreadStats::default() };
    /// total.add(&ThreadStats { nodes: 500, cutoffs: 10, splits: 2, ..ThreadStats::default() });
    /// assert_eq!(total, ThreadStats { nodes: 1500, cutoffs: 50, splits: 2, ..ThreadStats::default() });
    /// ```
    pub fn add(&mut self, other: &ThreadStats) {
        self.nodes += other.nodes;
        self.tt_hits += other.tt_hits;
        self.cutoffs += other.cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.deferred_moves += other.deferred_moves;
        self.deferred_eldest_sons += other.deferred_eldest_sons;
        self.multi_cuts += other.multi_cuts;
        self.cutoff_check_returns += other.cutoff_check_returns;
        self.ancestor_returns += other.ancestor_returns;
        self.pv_ancestor_returns += other.pv_ancestor_returns;
        self.windows_left += other.windows_left;
        self.alpha_adoptions += other.alpha_adoptions;
        self.root_researches += other.root_researches;
        self.best_move_changes += other.best_move_changes;
        self.splits += other.splits;
        self.split_tasks += other.split_tasks;
        self.aborted_tasks += other.aborted_tasks;
        self.speculative_nodes += other.speculative_nodes;
        self.abandoned_nodes += other.abandoned_nodes;
        self.window_restarts += other.window_restarts;
        self.research_waits += other.research_waits;
        self.research_helps += other.research_helps;
        self.duplicate_nodes += other.duplicate_nodes;
        self.split_wait_ns += other.split_wait_ns;
        self.task_busy_ns += other.task_busy_ns;
        self.search_ns += other.search_ns;
        self.profile.add(&other.profile);
    }

    /// Nanoseconds of work this thread (with the YBWC tasks below its split points) did: its search time
    /// without its split-point waits, plus the tasks' work. With the wall time and the thread count this gives
    /// the idle time of a search.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::ThreadStats;
    ///
    /// // 1 ms of iterative deepening, 0.3 ms of it spent waiting at its split points while the helpers
    /// // below worked 0.25 ms for it: the waiting is not work, the helpers' is.
    /// let stats = ThreadStats {
    ///     search_ns: 1_000_000, split_wait_ns: 300_000, task_busy_ns: 250_000, ..ThreadStats::default()
    /// };
    /// assert_eq!(stats.busy_ns(), 950_000);
    /// ```
    pub fn busy_ns(&self) -> u64 {
        self.search_ns.saturating_sub(self.split_wait_ns) + self.task_busy_ns
    }

    /// Nodes not yet counted as speculative or abandoned: what a subtree's nodes are measured in, so that a node
    /// below two brothers past a cut is counted past one cut only.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::ThreadStats;
    ///
    /// let stats = ThreadStats { nodes: 1000, speculative_nodes: 40, abandoned_nodes: 10, ..ThreadStats::default() };
    /// assert_eq!(stats.unclaimed_nodes(), 950);
    /// ```
    pub fn unclaimed_nodes(&self) -> u64 {
        // Saturating: counters a caller filled in by hand may claim more than the nodes.
        self.nodes
            .saturating_sub(self.speculative_nodes)
            .saturating_sub(self.abandoned_nodes)
    }
}

/// A triangular principal-variation table.
#[derive(Clone)]
struct PvTable {
    moves: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl PvTable {
    fn new() -> PvTable {
        PvTable {
            moves: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            len: [0; MAX_PLY + 1],
        }
    }

    fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// `mv` followed by the child's line becomes the line of `ply`.
    fn update(&mut self, ply: usize, mv: Move) {
        self.moves[ply][0] = Some(mv);
        let child_len = if ply < MAX_PLY { self.len[ply + 1] } else { 0 };
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.moves[ply][i + 1] = self.moves[ply + 1][i];
        }
        self.len[ply] = child_len.min(MAX_PLY - 1) + 1;
    }

    /// `mv` followed by `rest` becomes the line of `ply` (a line found by another worker).
    fn set_line(&mut self, ply: usize, mv: Move, rest: &[Move]) {
        self.moves[ply][0] = Some(mv);
        let len = rest.len().min(MAX_PLY - 1);
        for (i, &m) in rest[..len].iter().enumerate() {
            self.moves[ply][i + 1] = Some(m);
        }
        self.len[ply] = len + 1;
    }

    fn line(&self, ply: usize) -> Vec<Move> {
        self.moves[ply][..self.len[ply]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }
}

/// The facts of a node that every one of its moves shares.
#[derive(Clone, Copy)]
pub(crate) struct NodeFacts<'p> {
    pub(crate) position: &'p Position,
    pub(crate) key: u64,
    pub(crate) beta: i32,
    pub(crate) depth: i32,
    pub(crate) ply: usize,
    pub(crate) improving: bool,
    pub(crate) in_check: bool,
    pub(crate) root: bool,
    /// A null-window node, not in check, whose static evaluation is at least beta: expected to fail high, so
    /// sharing its younger brothers out is likelier wasted (YBWC's split, the ABDADAs' deferral).
    pub(crate) expected_cut: bool,
    /// The table move, and the plies its search is extended by (singular extensions; −1 when it is not alone
    /// in beating beta).
    pub(crate) tt_move: Option<Move>,
    pub(crate) tt_move_extension: i32,
}

/// A move and where it stands in its node's move loop.
#[derive(Clone, Copy)]
pub(crate) struct MoveInLoop {
    pub(crate) mv: Move,
    /// Its ordering score.
    pub(crate) order: i32,
    /// Whether it is searched in the second pass.
    pub(crate) is_deferred: bool,
    /// The ABDADAs' `HelpResearchDepth`: searched with the full window at once, out of turn, because another
    /// thread is searching it again with the full window.
    pub(crate) joins_research: bool,
    /// Moves searched before it in the first pass (0: the eldest son). A deferred move keeps its first-pass
    /// place, so the second pass reduces it as the first would have.
    pub(crate) moves_searched: usize,
    /// Quiet moves tried before it.
    pub(crate) quiets_tried: usize,
    /// Moves searched or deferred before it (whatever `BrothersKeepPlaces`): its place in the serial order, by
    /// which a cutoff tells the brothers searched past it.
    pub(crate) place: usize,
}

/// What became of a move.
pub(crate) enum MoveOutcome {
    /// Skipped by late-move or SEE pruning.
    Pruned,
    /// Left for the second pass by the parallel hook.
    Deferred,
    /// Searched, with this score from the node's point of view.
    Searched(i32),
}

/// What a node learnt, for the transposition table.
struct SearchResult {
    best_move: Option<Move>,
    best_score: i32,
    /// Alpha when the node was entered: a best score above it is exact, at or below it an upper bound.
    original_alpha: i32,
    beta: i32,
}

/// Futility pruning's test for a quiet move at a non-PV node: at `depth` and below the limit, a position whose
/// static evaluation plus the margin of `depth` plies is at most `alpha` will not raise it by a quiet move. Never
/// when `alpha` is a mate already found: a shorter mate is what the remaining moves are searched for.
fn is_futile_quiet(params: &SearchParams, static_eval: i32, alpha: i32, depth: i32) -> bool {
    alpha < MATE_IN_MAX_PLY
        && depth <= params.futility_max_depth
        && static_eval + params.futility_base + params.futility_margin * depth <= alpha
}

/// Stores the results other processes sent (a cluster build); nothing without an exchange.
pub(crate) fn store_exchanged_entries(shared: &SharedSearch<'_>) {
    if let Some(exchange) = shared.exchange {
        exchange.deliver(&mut |entry| {
            shared.tt.store(entry.key, 0, entry.record());
        });
    }
}

/// Stores a node's result with the bound its score proves.
fn store_result(
    shared: &SharedSearch<'_>,
    key: u64,
    ply: usize,
    depth: i32,
    result: SearchResult,
    static_eval: Option<i32>,
) {
    let bound = if result.best_score >= result.beta {
        Bound::LOWER
    } else if result.best_score > result.original_alpha {
        Bound::EXACT
    } else {
        Bound::UPPER
    };
    let record = Record {
        best_move: result.best_move.map_or(0, Move::to_bits),
        score: result.best_score,
        static_eval,
        depth,
        bound,
    };
    let written = shared.tt.store(key, ply, record).is_written();
    if let Some(exchange) = shared.exchange
        && written
        && depth >= exchange.min_depth()
    {
        exchange.offer(TableEntry::new(key, ply, &record));
    }
}

/// Two killer moves per ply: quiet moves that cut a node at that ply, tried early at the next nodes there.
pub(crate) type Killers = [[Option<Move>; 2]; MAX_PLY + 2];

/// One search thread: everything that is not shared. A YBWC pool thread keeps one (or a few) of its own.
#[derive(Clone)]
pub struct Worker {
    pub(crate) history: History,
    /// What the static evaluation got wrong, by side and pawn structure.
    pub(crate) correction: CorrectionHistory,
    pub(crate) killers: Box<Killers>,
    pub(crate) static_evals: Box<[i32; MAX_PLY + 2]>,
    /// The move a singular-extension test leaves out of the search of its node, per ply.
    pub(crate) excluded: Box<[Option<Move>; MAX_PLY + 2]>,
    /// The double extensions on the path to each ply.
    pub(crate) double_extensions: Box<[i32; MAX_PLY + 2]>,
    pv: PvTable,
    pub(crate) repetitions: SearchRepetitions,
    /// Root moves this iteration may not choose (MultiPV lines already found), and the allowed set of
    /// `searchmoves` (empty: all).
    pub(crate) root_excluded: Vec<Move>,
    pub(crate) root_allowed: Vec<Move>,
    pub(crate) stats: ThreadStats,
    /// Singular-extension tests this thread is inside, so that a test inside a test counts its nodes once.
    singular_tests_open: u32,
    /// Duplicate counting: the nodes so far given to a main-search node that reached its end (each node goes to
    /// the nearest one), so a node knows which nodes below it are its own.
    attributed_nodes: u64,
    pub(crate) seldepth: usize,
    /// Set once depth 1 is complete: from then on the search may be stopped (so there is always a move).
    pub(crate) stoppable: bool,
    pub(crate) stopped: bool,
    /// Set with `stopped` when the iteration was abandoned because another thread completed it (the search goes
    /// on with the next iteration), or its root window because another thread failed it (`SharedWindows`: the
    /// iteration goes on in the new window).
    pub(crate) abandoned: bool,
    /// The shared root window this thread is searching, if any (`SharedWindows`).
    pub(crate) root_window: Option<RootWindow>,
    /// What this thread is in the search.
    pub(crate) role: ThreadRole,
    /// The iteration being searched (0 before the first).
    pub(crate) iteration_depth: u32,
    /// The best root move of the iteration in progress that beat the eldest son, with its score and line: the
    /// move to play if the iteration is stopped before it completes.
    pub(crate) partial_root: Option<(i32, Vec<Move>)>,
    /// The nodes this thread spent below each root move in this search, all iterations together (for the
    /// time manager: a best move that takes most of the effort is rarely overturned).
    pub(crate) root_move_nodes: Vec<(Move, u64)>,
    /// YBWC: the cutoff flag of the innermost split point this worker searches below; set means the work is no
    /// longer needed (flags of the split points above reach it through their links).
    pub(crate) cutoff: Option<Arc<Cutoff>>,
    /// YBWC's `WaitForResearch`, in a task of a PV split point: the split node's ply and the split point's count
    /// of brothers being searched again with the full window, which this worker raises when its brother is.
    pub(crate) split_research: Option<(usize, Arc<AtomicUsize>)>,
    /// Whether this worker's brother is counted in `split_research`'s count now.
    pub(crate) research_announced: bool,
    /// Ancestor checks: the main-search nodes of the current path by ply, as their own table probe saw them.
    path: Box<[PathNode; MAX_PLY + 2]>,
    /// Ancestor checks: main-search nodes until the next re-probe of the path.
    ancestor_countdown: u32,
    /// Nodes until this state next looks at the clock and the stop flags. Not `stats.nodes`: a YBWC task
    /// restarts its counters for every brother, and brothers of fewer than [`CHECK_INTERVAL`] nodes each would
    /// then never look (with eager splits a whole search can run in such tasks).
    stop_countdown: u64,
    /// Ancestor checks: the ply of the node the search is unwinding to, and what that node does then.
    unwind_to: Option<(usize, Unwind)>,
    /// The network's accumulators of the current path (unused with PeSTO's tables).
    pub(crate) accumulators: AccumulatorStack,
    /// The move picker of each ply, refilled in place by the node at that ply (a picker is 1.5 KB: made fresh,
    /// cleared and moved at every node, it cost about a twentieth of the search's instructions in copies).
    pickers: Box<[MovePicker]>,
}

/// A node of the current path as the ancestor checks re-probe it: its key, remaining depth and window, and
/// whether a stored result may end it (deep enough; non-PV, or PV below the root with the PV ancestor checks). A
/// non-PV node's window is the null window below beta; a PV node's is its window on entry.
#[derive(Debug, Clone, Copy, Default)]
struct PathNode {
    key: u64,
    depth: i32,
    alpha: i32,
    beta: i32,
    checked: bool,
    /// The ABDADAs' `WindowUpdates`: the younger brother this PV node is searching now (none while it searches
    /// its eldest son or no move), against the alpha `searched_against`. Another thread's raise of the node's
    /// alpha above that, stored in its entry, stops the move's search, which then begins again against it.
    restartable: Option<Move>,
    searched_against: i32,
    /// The moves this node has searched, one bit each ([`move_bit`]): a raise by one of them is not taken up
    /// (`SharedAlpha`'s rule), so it restarts nothing — most often the node's own result of an earlier window,
    /// by its table move, which its search of the move did not reach again.
    searched_moves: u64,
}

/// Nodes of depth below this neither defer a brother nor are left by an ancestor check: they keep no list of
/// their brothers' nodes for [`ThreadStats::speculative_nodes`].
const BROTHER_COUNT_MIN_DEPTH: i32 = 3;

/// The nodes of the brothers searched at places after `place` (each brother's move, place and nodes).
fn nodes_after(searched: &[(Move, usize, u64)], place: usize) -> u64 {
    searched
        .iter()
        .filter(|&&(_, searched_place, _)| searched_place > place)
        .map(|&(_, _, nodes)| nodes)
        .sum()
}

/// A move's bit in [`PathNode::searched_moves`]: several moves share one, so a set bit may be another move's and
/// then a raise that could be taken up restarts nothing (a missed restart, never a wrong one).
fn move_bit(mv: Move) -> u64 {
    // Fibonacci hashing: the top six bits of the product mix the from and to squares and the flags.
    1 << (u64::from(mv.to_bits()).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58)
}

/// What the node an ancestor check unwinds to does when the search is back in it.
#[derive(Debug, Clone, Copy)]
enum Unwind {
    /// Returns this score, another thread's stored result that cuts the node.
    Return(i32),
    /// Searches its current move again, against the alpha another thread has raised the node's to
    /// (`WindowUpdates`).
    Restart,
}

/// What a thread is in a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ThreadRole {
    /// The thread that reports and decides: index 0.
    Main,
    /// Another thread with its own iterative deepening (lazy SMP, the ABDADAs), numbered from 1.
    Helper(usize),
    /// A YBWC pool thread's state while it searches brothers at a split point.
    SplitTask,
}

impl ThreadRole {
    /// The thread's index among the threads with their own iterative deepening (0 is the main thread).
    pub(crate) fn index(self) -> Option<usize> {
        match self {
            ThreadRole::Main => Some(0),
            ThreadRole::Helper(index) => Some(index),
            ThreadRole::SplitTask => None,
        }
    }

    /// A root thread's role from its index.
    pub(crate) fn of_index(index: usize) -> ThreadRole {
        if index == 0 {
            ThreadRole::Main
        } else {
            ThreadRole::Helper(index)
        }
    }
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl Default for Worker {
    fn default() -> Worker {
        Worker::new()
    }
}

impl Worker {
    /// A fresh thread state.
    pub fn new() -> Worker {
        Worker {
            history: History::default(),
            correction: CorrectionHistory::default(),
            killers: Box::new([[None; 2]; MAX_PLY + 2]),
            static_evals: Box::new([0; MAX_PLY + 2]),
            excluded: Box::new([None; MAX_PLY + 2]),
            double_extensions: Box::new([0; MAX_PLY + 2]),
            pv: PvTable::new(),
            repetitions: SearchRepetitions::new(Arc::new(GameHistory::new()), RepetitionRule::Stockfish),
            root_excluded: Vec::new(),
            root_allowed: Vec::new(),
            stats: ThreadStats::default(),
            singular_tests_open: 0,
            attributed_nodes: 0,
            seldepth: 0,
            stoppable: false,
            stopped: false,
            abandoned: false,
            root_window: None,
            role: ThreadRole::Main,
            iteration_depth: 0,
            partial_root: None,
            root_move_nodes: Vec::new(),
            cutoff: None,
            split_research: None,
            research_announced: false,
            path: Box::new([PathNode::default(); MAX_PLY + 2]),
            ancestor_countdown: ANCESTOR_CHECK_INTERVAL,
            stop_countdown: CHECK_INTERVAL,
            unwind_to: None,
            accumulators: AccumulatorStack::new(),
            pickers: vec![MovePicker::empty(); MAX_PLY + 2].into_boxed_slice(),
        }
    }

    /// Forgets what was learnt in earlier games (history, killers).
    pub fn clear(&mut self) {
        self.history.clear();
        self.correction.clear();
        self.killers.fill([None; 2]);
    }

    /// Prepares for a new search of a game whose history (root included) is `game`.
    pub(crate) fn prepare(&mut self, game: Arc<GameHistory>) {
        self.repetitions.reset(game);
        self.killers.fill([None; 2]);
        self.stats = ThreadStats::default();
        self.seldepth = 0;
        self.stoppable = false;
        self.stopped = false;
        self.abandoned = false;
        self.root_window = None;
        self.iteration_depth = 0;
        self.partial_root = None;
        self.excluded.fill(None);
        self.double_extensions[0] = 0;
        self.root_move_nodes.clear();
        self.cutoff = None;
        self.ancestor_countdown = ANCESTOR_CHECK_INTERVAL;
        self.stop_countdown = CHECK_INTERVAL;
        self.unwind_to = None;
        self.accumulators.start_at(0);
    }

    fn count_root_move_nodes(&mut self, mv: Move, nodes: u64) {
        match self
            .root_move_nodes
            .iter_mut()
            .find(|(root_move, _)| *root_move == mv)
        {
            Some((_, total)) => *total += nodes,
            None => self.root_move_nodes.push((mv, nodes)),
        }
    }

    /// Whether this iteration may not choose root move `mv`: a MultiPV line already found, or not among the
    /// `searchmoves`.
    fn is_root_move_ruled_out(&self, mv: Move) -> bool {
        self.root_excluded.contains(&mv) || !(self.root_allowed.is_empty() || self.root_allowed.contains(&mv))
    }

    /// The share of this thread's root-move nodes so far that went to `mv` (`None` before any were counted).
    pub(crate) fn root_move_share(&self, mv: Move) -> Option<f64> {
        let total: u64 = self.root_move_nodes.iter().map(|&(_, nodes)| nodes).sum();
        let spent = self
            .root_move_nodes
            .iter()
            .find(|(root_move, _)| *root_move == mv)
            .map_or(0, |&(_, nodes)| nodes);
        (total > 0).then(|| spent as f64 / total as f64)
    }

    /// Whether the last search call was cut short by a stop.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// The principal variation found by the last root search.
    pub(crate) fn root_pv(&self) -> Vec<Move> {
        self.pv.line(0)
    }

    /// The line found below `ply` by the last search of that ply.
    pub(crate) fn pv_line(&self, ply: usize) -> Vec<Move> {
        self.pv.line(ply)
    }

    /// Counts a node and, every [`CHECK_INTERVAL`] nodes, looks at the stop conditions.
    #[inline]
    fn count_node_and_check_stop(&mut self, shared: &SharedSearch<'_>) -> bool {
        self.stats.nodes += 1;
        if self.cutoff.as_ref().is_some_and(|cutoff| cutoff.is_set()) {
            self.stopped = true;
            return true;
        }
        if !self.stoppable {
            return false;
        }
        if let Some(limit) = shared.node_limit
            && self.stats.nodes >= limit
        {
            shared.abort.store(true, Ordering::Relaxed);
        }
        self.stop_countdown -= 1;
        if self.stop_countdown == 0 {
            self.stop_countdown = CHECK_INTERVAL;
            self.publish_nodes(shared);
            if shared.control.is_stopped() || shared.time.hard_limit_reached(shared.control) {
                shared.abort.store(true, Ordering::Relaxed);
            }
            if self.role == ThreadRole::Main {
                store_exchanged_entries(shared);
            }
            if shared.skip_completed_iterations
                && shared.completed_depth.load(Ordering::Relaxed) >= self.iteration_depth
            {
                self.abandoned = true;
                self.stopped = true;
            }
            if let (Some(windows), Some(window)) = (shared.root_windows, &self.root_window)
                && windows.superseded(window)
            {
                self.abandoned = true;
                self.stopped = true;
            }
        }
        if shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Makes this thread's node count visible to the reporting thread.
    pub(crate) fn publish_nodes(&self, shared: &SharedSearch<'_>) {
        if let Some(counter) = self
            .role
            .index()
            .and_then(|index| shared.node_counters.get(index))
        {
            counter.store(self.stats.nodes, Ordering::Relaxed);
        }
    }

    fn is_draw(&self, position: &Position) -> bool {
        self.repetitions.is_repetition_draw()
            || position.is_insufficient_material()
            || fifty_move_draw(position.halfmove_clock(), || position.is_checkmate())
    }
}

/// What the node routine reads besides its position and window: this thread's own state, what all threads of
/// the search share, and the parallel algorithm's hooks.
pub(crate) struct SearchContext<'a, 's, H> {
    pub(crate) worker: &'a mut Worker,
    pub(crate) shared: &'a SharedSearch<'s>,
    pub(crate) hooks: &'a H,
}

impl<H: SearchHooks> SearchContext<'_, '_, H> {
    /// The static evaluation of `position`, the node at `ply`.
    #[inline]
    fn evaluate(&mut self, position: &Position, ply: usize) -> i32 {
        match self.shared.evaluation {
            Evaluation::Pesto => evaluate(position),
            Evaluation::Nnue(network) => self.worker.accumulators.evaluate(network, position, ply),
        }
    }

    /// `position`, the node at `ply` where this thread's search starts (the root, a YBWC task's split node),
    /// becomes the base its subtree's accumulators update from ([`AccumulatorStack::anchor`]).
    #[inline]
    pub(crate) fn anchor_accumulators(&mut self, position: &Position, ply: usize) {
        if let Evaluation::Nnue(network) = self.shared.evaluation {
            self.worker.accumulators.anchor(network, position, ply);
        }
    }

    /// `child`, the node at `ply`, was made by `mv` from `parent`: the network's accumulators follow.
    #[inline]
    fn push_move(&mut self, ply: usize, parent: &Position, mv: Move, child: &Position) {
        if self.shared.evaluation.is_nnue() {
            self.worker.accumulators.push_move(ply, parent, mv, child);
        }
    }

    /// The node's static evaluation as computed — what the table keeps, `entry`'s when it has one — and as the
    /// search uses it, corrected by the correction history; both `-INFINITY` in check, where the evaluation says
    /// little (the check may cost material) and nothing is pruned on it.
    #[inline]
    fn static_evaluations(
        &mut self,
        position: &Position,
        ply: usize,
        entry: Option<Entry>,
        in_check: bool,
    ) -> (i32, i32) {
        if in_check {
            return (-INFINITY, -INFINITY);
        }
        let raw = entry
            .and_then(|e| e.static_eval())
            .unwrap_or_else(|| self.evaluate(position, ply));
        (raw, self.corrected_eval(position, raw))
    }

    /// The node search. `PV` marks nodes on the principal variation (open window); elsewhere the window is null.
    pub(crate) fn search<const PV: bool>(
        &mut self,
        position: &Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        after_null: bool,
    ) -> i32 {
        let root = ply == 0;
        // Every node clears its line, null-window ones too: a PV node whose null-window child fails high at
        // beta takes that child's line without a re-search, and must not take a line left there by another move.
        self.worker.pv.clear(ply);
        let in_check = position.in_check();
        // No check extension: a lone reply in check gets its ply from the singular extension, and a check
        // extension on top of the singular extensions of the checking move and of the reply made a king hunt gain
        // depth with every move (one position took over 100 M nodes to depth 12).
        if depth <= 0 {
            return self.quiescence::<PV>(position, alpha, beta, ply);
        }
        if self.worker.count_node_and_check_stop(self.shared) {
            return 0;
        }
        self.worker.stats.profile.main_nodes += 1;
        let band = TreeProfile::depth_band(depth);
        self.worker.stats.profile.main_nodes_by_depth[band] += 1;
        if let Some(tree_keys) = self.shared.tree_keys {
            let (new, serial) = tree_keys.visit(position.key(), band);
            let profile = &mut self.worker.stats.profile;
            profile.distinct_main_nodes_by_depth[band] += u64::from(new);
            profile.serial_tree_nodes_by_depth[band] += u64::from(serial);
            profile.serial_tree_distinct_by_depth[band] += u64::from(new && serial);
        }
        self.worker.seldepth = self.worker.seldepth.max(ply);
        if root {
            self.anchor_accumulators(position, ply);
        }
        let nodes_at_entry = self.worker.stats.nodes;
        let attributed_at_entry = self.worker.attributed_nodes;
        if !root {
            if self.worker.is_draw(position) {
                return DRAW;
            }
            if ply >= MAX_PLY {
                return if in_check {
                    DRAW
                } else {
                    self.evaluate(position, ply)
                };
            }
            // Mate-distance pruning: no line from here can beat a mate already found nearer the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let key = position.key();
        let entry = self.shared.tt.probe(key);
        if entry.is_some() {
            self.worker.stats.tt_hits += 1;
        }
        // A singular-extension test searches this node without one move: the table's result and move are the
        // whole node's, so they neither cut nor order here (its evaluation still serves).
        let excluded = self.worker.excluded[ply];
        let entry_window = (alpha, beta);
        let mut answered_at_entry = false;
        let tt_move = if excluded.is_some() {
            None
        } else {
            match probe_cutoff(entry, depth, alpha, beta, ply) {
                // In PV nodes a hit only orders moves, so the reported line stays complete.
                ProbeOutcome::Cutoff(score) if !PV => {
                    self.worker.stats.profile.table_cutoffs += 1;
                    return score;
                }
                ProbeOutcome::Cutoff(_) => {
                    answered_at_entry = true;
                    entry.and_then(|e| e.best_move())
                }
                ProbeOutcome::MoveOnly(mv) => mv,
                ProbeOutcome::Miss => None,
            }
            .and_then(Move::from_bits)
        };
        let hooks = self.hooks;
        // Ancestor checks (the ABDADAs): the node joins the path that is re-probed now and then; when another
        // thread's stored result cuts a node of it, the search unwinds to that node, which returns the result. A
        // singular-extension test keeps its node's place on the path (its own result is not the node's).
        // With `WindowUpdates` the ABDADAs' PV nodes are re-probed for the other threads' raises of their alpha,
        // with or without the checks for cuts.
        let ancestor_checks = hooks.ancestor_checks();
        if ancestor_checks || self.shared.window_updates && self.shared.shared_alpha {
            if excluded.is_none() {
                self.worker.path[ply] = PathNode {
                    key,
                    depth,
                    alpha: if PV { alpha } else { beta - 1 },
                    beta,
                    // A PV node already answered by its entry searches on for its line (the rule above); its
                    // own entry must not end it from below.
                    checked: ancestor_checks
                        && depth >= CUTOFF_CHECK_MIN_DEPTH
                        && (!PV
                            || self.shared.pv_ancestor_min_depth.is_some_and(|min| depth >= min)
                                && !root
                                && !answered_at_entry),
                    restartable: None,
                    searched_against: alpha,
                    searched_moves: 0,
                };
            }
            if self.ancestor_cut(ply) {
                return 0;
            }
        }
        // ABDADA's nproc: Weill enters the node with its table probe; by default it is entered only after the
        // pruning below (`EnterBeforePruning`). The guard leaves on every return.
        let entered_with_probe = hooks
            .enters_before_pruning()
            .then(|| hooks.enter_node(key, depth));
        // The table keeps the evaluation as computed; the correction history's view of it changes as it learns.
        let (raw_eval, static_eval) = self.static_evaluations(position, ply, entry, in_check);
        self.worker.static_evals[ply] = static_eval;
        // Near the root there is no earlier evaluation to compare with: assume improving (prune less).
        let improving = !in_check && (ply < 2 || static_eval > self.worker.static_evals[ply - 2]);

        let params = self.shared.params;
        if !PV && !in_check && !root && excluded.is_none() {
            // Reverse futility pruning: far above beta at low depth, a quiet move will not bring us back down.
            if depth <= params.rfp_max_depth
                && static_eval - params.rfp_margin * (depth - i32::from(improving)) >= beta
                && beta.abs() < MATE_IN_MAX_PLY
            {
                return static_eval;
            }
            // Null-move pruning: if passing still fails high, a real move almost surely does too. Not after
            // another null move, and not with pawns alone (zugzwang).
            let us = position.side_to_move();
            let pieces =
                position.colored(us) & !(position.pieces(PieceKind::Pawn) | position.pieces(PieceKind::King));
            if depth >= params.nmp_min_depth && static_eval >= beta && !after_null && pieces.is_nonempty() {
                let reduction = params.nmp_base_reduction
                    + depth / params.nmp_depth_divisor
                    + ((static_eval - beta) / params.nmp_eval_divisor).min(params.nmp_max_eval_reduction);
                let mut child = *position;
                if child.play_null() {
                    self.worker.stats.profile.null_move_searches += 1;
                    self.worker.repetitions.push_null(child.key());
                    if self.shared.evaluation.is_nnue() {
                        self.worker.accumulators.push_null(ply + 1);
                    }
                    let score =
                        -self.search::<false>(&child, -beta, -beta + 1, depth - 1 - reduction, ply + 1, true);
                    self.worker.repetitions.pop();
                    if self.worker.stopped {
                        return self.unwound(ply);
                    }
                    if score >= beta {
                        self.worker.stats.profile.null_move_cutoffs += 1;
                        return if score >= MATE_IN_MAX_PLY { beta } else { score };
                    }
                }
            }
        }

        // Singular extensions: when the table move's lower bound is deep enough, search the node without it at
        // half depth against a bar a little below its score. If nothing else reaches the bar the move is alone:
        // extend it (twice when far alone, outside PV nodes, a bounded number of times per path). If the bar is
        // at or above beta, another move beats beta as well: the node fails high without further search
        // (multi-cut). If only the table score is above beta, the move is not alone: search it a ply shorter.
        let mut tt_move_extension = 0;
        if !root
            && excluded.is_none()
            && depth >= params.singular_min_depth
            && ply < MAX_PLY / 2
            && ply < EXTENSION_PLIES_PER_DEPTH * self.worker.iteration_depth as usize
            && let (Some(mv), Some(entry)) = (tt_move, entry)
            && entry.depth() >= depth - 3
            && entry.bound().contains(Bound::LOWER)
            && entry.score(ply).abs() < MATE_IN_MAX_PLY
            && position.is_legal(mv)
        {
            let tt_score = entry.score(ply);
            let singular_beta = tt_score - params.singular_margin * depth;
            self.worker.excluded[ply] = Some(mv);
            self.worker.stats.profile.singular_tests += 1;
            let nodes_before_test = self.worker.stats.nodes;
            self.worker.singular_tests_open += 1;
            let score = self.search::<false>(
                position,
                singular_beta - 1,
                singular_beta,
                (depth - 1) / 2,
                ply,
                after_null,
            );
            self.worker.excluded[ply] = None;
            self.worker.singular_tests_open -= 1;
            if self.worker.singular_tests_open == 0 {
                self.worker.stats.profile.singular_test_nodes += self.worker.stats.nodes - nodes_before_test;
            }
            if self.worker.stopped {
                return self.unwound(ply);
            }
            if score < singular_beta {
                self.worker.stats.profile.singular_extensions += 1;
                tt_move_extension = 1;
                if !PV
                    && score < singular_beta - params.singular_double_margin
                    && self.worker.double_extensions[ply] < params.singular_max_doubles
                {
                    tt_move_extension = 2;
                }
            } else if singular_beta >= beta {
                self.worker.stats.multi_cuts += 1;
                return singular_beta;
            } else if tt_score >= beta {
                tt_move_extension = -1;
            }
        }

        // From here on this thread is inside the node (ABDADA's nproc); unless entered with the probe, after the
        // pruning that returns without searching a move, so such nodes never enter.
        let _inside = entered_with_probe.unwrap_or_else(|| hooks.enter_node(key, depth));

        // The TT move is tried before any move is generated: when it cuts off, generation and ordering are
        // never paid for.
        let mut pending_tt_move = tt_move.filter(|&mv| position.is_legal(mv));
        // Whether this ply's picker holds this node's moves yet (it is filled once the table move is done).
        let mut picker_filled = false;
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut moves_searched = 0usize;
        // On the stack: a heap list here allocated at almost every node, and with YBWC the other thread's frees
        // of split-point data then waited on this thread's allocator lock (thousands of futex sleeps a second).
        let mut quiets_tried: SmallVec<[Move; QUIETS_ON_STACK]> = SmallVec::new();
        let mut deferred: Vec<MoveInLoop> = Vec::new();
        // The brothers this thread searched here, with their places and nodes: when a brother cuts the node after
        // brothers of later places were searched (a deferred one, in the second pass), or another thread's result
        // cuts it, those were speculative (`speculative_nodes`). Shallower nodes defer nothing and are not left;
        // brothers are listed only once one was deferred (those before it come before any cut in the second
        // pass) or where ancestor checks may leave the node, so the serial search lists none.
        let may_be_left = depth >= BROTHER_COUNT_MIN_DEPTH && ancestor_checks;
        let mut searched_brothers: SmallVec<[(Move, usize, u64); 8]> = SmallVec::new();
        // `BrothersKeepPlaces`: the deferred moves (and the quiet ones among them) the later brothers' places
        // count, as the serial loop would have searched them by then.
        let (mut places_deferred, mut quiets_deferred) = (0usize, 0usize);
        let us = position.side_to_move();
        // `SharedAlpha`: this PV node publishes each raise of its alpha and takes up the other threads'. A
        // search without a move (singular test, later MultiPV lines) proves nothing about the node and shares
        // nothing.
        let shares_alpha = PV
            && self.shared.shared_alpha
            && depth >= SHARED_ALPHA_MIN_DEPTH
            && excluded.is_none()
            && (!root || self.worker.root_excluded.is_empty());
        // `WindowUpdates` (the ABDADAs): another thread's raise of this node's alpha restarts the younger
        // brother this thread is searching; the brother is searched again at once, against the raised alpha.
        let restarts_brothers = shares_alpha && self.shared.window_updates;
        let mut restarted: Option<MoveInLoop> = None;
        // `HelpResearchDepth` (the ABDADAs): before each move this PV node looks for a brother another thread is
        // searching again with the full window, and joins it; the moves it has searched it neither joins nor
        // searches again when its own loop comes to them.
        let joins_researches =
            PV && depth >= self.shared.help_research_depth && self.shared.research_board.is_some();
        // The moves this thread has searched here, for `SharedAlpha` and `HelpResearchDepth`.
        let lists_searched = shares_alpha || joins_researches;
        let mut searched_here: SmallVec<[Move; 16]> = SmallVec::new();
        // The move and score of the last raise taken up from another thread.
        let mut adopted: Option<(Move, i32)> = None;

        let node = NodeFacts {
            position,
            key,
            beta,
            depth,
            ply,
            improving,
            in_check,
            root,
            expected_cut: !PV && !in_check && static_eval >= beta,
            tt_move,
            tt_move_extension,
        };
        // First pass over the moves, then the deferred ones (ABDADA's second phase); serially nothing is deferred.
        let mut second_pass = 0usize;
        loop {
            // YBWC: the eldest son (and maybe more) is back without a cutoff; at a deep enough node the younger
            // brothers are searched in parallel.
            if moves_searched >= 1
                && pending_tt_move.is_none()
                && let Some(pool) = self.hooks.split_pool(depth, node.expected_cut, moves_searched)
            {
                self.fill_picker(&mut picker_filled, position, ply, tt_move);
                // Each brother with its place in the move loop, as the serial loop would have counted it.
                let mut brothers = Vec::new();
                let mut quiets = quiets_tried.len();
                while let Some((mv, order)) = self.worker.pickers[ply].next_best() {
                    if Some(mv) != tt_move
                        && Some(mv) != excluded
                        && !(root && self.worker.is_root_move_ruled_out(mv))
                    {
                        brothers.push(MoveInLoop {
                            mv,
                            order,
                            is_deferred: false,
                            joins_research: false,
                            moves_searched: moves_searched + brothers.len(),
                            quiets_tried: quiets,
                            place: moves_searched + brothers.len(),
                        });
                        quiets += usize::from(!mv.is_noisy());
                    }
                }
                let split = self.split::<PV>(pool, &node, &brothers, alpha, best_score);
                for &(mv, nodes) in &split.root_move_nodes {
                    self.worker.count_root_move_nodes(mv, nodes);
                }
                if self.worker.stopped {
                    return self.unwound(ply);
                }
                moves_searched += split.searched;
                if let Some((score, mv, line)) = split.best
                    && score > best_score
                {
                    best_score = score;
                    if score > alpha {
                        best_move = Some(mv);
                        if PV {
                            self.worker.pv.set_line(ply, mv, &line);
                        }
                        if score >= beta {
                            self.worker.stats.cutoffs += 1;
                            if !mv.is_noisy() {
                                self.reward_quiet(us, mv, &quiets_tried, depth, ply);
                            }
                        }
                    }
                }
                break;
            }
            // Kerrigan's cutoff checks: another thread may have finished this node while this one waited for
            // its deferred moves; its stored result may already cut.
            if !PV
                && excluded.is_none()
                && depth >= CUTOFF_CHECK_MIN_DEPTH
                && !deferred.is_empty()
                && self.hooks.cutoff_checks()
                && let ProbeOutcome::Cutoff(score) =
                    probe_cutoff(self.shared.tt.probe(key), depth, alpha, beta, ply)
            {
                self.worker.stats.cutoff_check_returns += 1;
                return score;
            }
            let first_pass = |mv: Move, order: i32| MoveInLoop {
                mv,
                order,
                is_deferred: false,
                joins_research: false,
                moves_searched: moves_searched + places_deferred,
                quiets_tried: quiets_tried.len() + quiets_deferred,
                place: moves_searched + deferred.len(),
            };
            let research = if joins_researches && moves_searched >= 1 && restarted.is_none() {
                self.research_to_join(&node, excluded, &searched_here)
            } else {
                None
            };
            let next = if let Some(this) = restarted.take() {
                Some(this)
            } else if let Some(mv) = research {
                Some(MoveInLoop {
                    is_deferred: true,
                    joins_research: true,
                    ..first_pass(mv, 0)
                })
            } else if let Some(mv) = pending_tt_move.take() {
                Some(first_pass(mv, i32::MAX))
            } else if let Some((mv, order)) = {
                self.fill_picker(&mut picker_filled, position, ply, tt_move);
                self.worker.pickers[ply].next_best()
            } {
                if Some(mv) == tt_move || Some(mv) == excluded {
                    continue;
                }
                Some(first_pass(mv, order))
            } else if second_pass < deferred.len() {
                second_pass += 1;
                Some(MoveInLoop {
                    is_deferred: true,
                    ..deferred[second_pass - 1]
                })
            } else {
                None
            };
            let Some(this) = next else {
                break;
            };
            let mv = this.mv;
            if root && self.worker.is_root_move_ruled_out(mv) {
                continue;
            }
            // Joined while another thread searched it again, before this loop came to it.
            if joins_researches && !this.joins_research && searched_here.contains(&mv) {
                continue;
            }
            let quiet = !mv.is_noisy();
            if shares_alpha
                && moves_searched >= 1
                && let Some((raised, other)) = self.other_threads_alpha(&node, alpha, &searched_here)
            {
                alpha = raised;
                adopted = Some(other);
            }
            if restarts_brothers {
                let path = &mut self.worker.path[ply];
                path.restartable = (moves_searched >= 1).then_some(mv);
                path.searched_against = alpha;
            }
            let nodes_before = self.worker.stats.nodes;
            let unclaimed_before = self.worker.stats.unclaimed_nodes();
            let outcome = self.search_move::<PV>(&node, this, alpha, best_score);
            if root {
                self.worker
                    .count_root_move_nodes(mv, self.worker.stats.nodes - nodes_before);
            }
            if restarts_brothers {
                self.worker.path[ply].restartable = None;
            }
            let score = match outcome {
                MoveOutcome::Pruned => continue,
                MoveOutcome::Deferred => {
                    self.worker.stats.deferred_moves += 1;
                    self.worker.stats.deferred_eldest_sons += u64::from(this.place == 0);
                    // Without the knob a brother after this one is reduced and pruned one place earlier.
                    if self.shared.brothers_keep_places {
                        places_deferred += 1;
                        quiets_deferred += usize::from(quiet);
                    }
                    deferred.push(this);
                    continue;
                }
                MoveOutcome::Searched(score) => score,
            };
            let subtree = self.worker.stats.unclaimed_nodes() - unclaimed_before;
            if self.worker.stopped {
                if restarts_brothers && self.restarts_here(ply) {
                    restarted = Some(this);
                    continue;
                }
                if let Some(answer) = self.answered_here(ply) {
                    self.count_left_brother(&node, this, subtree, answer, &searched_brothers, &deferred);
                }
                return self.unwound(ply);
            }
            if may_be_left || depth >= BROTHER_COUNT_MIN_DEPTH && !deferred.is_empty() {
                searched_brothers.push((mv, this.place, subtree));
            }
            let eldest = moves_searched == 0;
            moves_searched += 1;
            if lists_searched {
                searched_here.push(mv);
            }
            if restarts_brothers {
                self.worker.path[ply].searched_moves |= move_bit(mv);
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    if PV {
                        self.worker.pv.update(ply, mv);
                    }
                    if root && !eldest {
                        // Searched after the eldest son and better: sound to play even if the iteration stops.
                        self.worker.partial_root = Some((score, self.worker.pv.line(0)));
                    }
                    if score >= beta {
                        self.worker.stats.cutoffs += 1;
                        if eldest {
                            self.worker.stats.first_move_cutoffs += 1;
                        }
                        self.worker.stats.speculative_nodes += nodes_after(&searched_brothers, this.place);
                        if quiet {
                            self.reward_quiet(us, mv, &quiets_tried, depth, ply);
                        }
                        break;
                    }
                    alpha = score;
                    if shares_alpha {
                        self.publish_alpha(&node, mv, score, (!in_check).then_some(raw_eval));
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }
        // This thread's search did not reach the other thread's score: its move was pruned here, or came back
        // lower (the table changed under it). Its proven score stands, with a line of one move: a score above
        // the node's alpha always comes with a move (the root's aspiration loop counts on it).
        if let Some((mv, score)) = adopted
            && score > best_score
        {
            best_score = score;
            best_move = Some(mv);
            self.worker.pv.set_line(ply, mv, &[]);
        }

        if moves_searched == 0 {
            if picker_filled && self.worker.pickers[ply].is_empty() {
                return if in_check { -MATE + ply as i32 } else { DRAW };
            }
            // Every move was pruned or excluded (MultiPV at the root): nothing proven here.
            return alpha;
        }
        let profile = &mut self.worker.stats.profile;
        let kind = TreeProfile::node_kind(PV, node.expected_cut);
        profile.move_loops[kind] += 1;
        profile.move_loop_fail_highs[kind] += u64::from(best_score >= beta);
        profile.move_loop_moves[kind] += moves_searched as u64;

        // A search without one move proves nothing about the node: neither its table entry nor its correction.
        if excluded.is_none() && (!root || self.worker.root_excluded.is_empty()) {
            // Correction history learns from results that say the evaluation was wrong, on the side they prove:
            // a fail-high above it, a fail-low below it, or an exact score. Not when a capture or promotion
            // decided the node (the evaluation is about the quiet position), nor from mate scores.
            let fail_high = best_score >= beta;
            let fail_low = best_score <= original_alpha;
            if !in_check
                && best_move.is_none_or(|mv| !mv.is_noisy())
                && best_score.abs() < MATE_IN_MAX_PLY
                && !(fail_high && best_score <= static_eval)
                && !(fail_low && best_score >= static_eval)
            {
                self.worker
                    .correction
                    .update(position, depth, raw_eval, best_score);
            }
            if self.shared.count_duplicates {
                // The nodes below that no deeper main-search node took are this node's own.
                let subtree = self.worker.stats.nodes - nodes_at_entry + 1;
                let own = subtree.saturating_sub(self.worker.attributed_nodes - attributed_at_entry);
                self.worker.attributed_nodes = attributed_at_entry + subtree;
                // Another thread's result answers the node now, though not when it was entered: this thread's
                // copy of it came second.
                if !answered_at_entry
                    && let ProbeOutcome::Cutoff(_) = probe_cutoff(
                        self.shared.tt.probe(key),
                        depth,
                        entry_window.0,
                        entry_window.1,
                        ply,
                    )
                {
                    self.worker.stats.duplicate_nodes += own;
                }
            }
            let result = SearchResult {
                best_move,
                best_score,
                original_alpha,
                beta,
            };
            store_result(
                self.shared,
                key,
                ply,
                depth,
                result,
                (!in_check).then_some(raw_eval),
            );
        }
        best_score
    }

    /// `HelpResearchDepth`: the brother another thread is searching again with the full window at this PV node,
    /// if this thread has not searched it and may (the table's posts are keyed by the node's upper key bits
    /// alone, so a move posted for another node must prove legal here).
    fn research_to_join(
        &self,
        node: &NodeFacts<'_>,
        excluded: Option<Move>,
        searched: &[Move],
    ) -> Option<Move> {
        let mv = self.shared.research_board?.posted(node.key)?;
        (Some(mv) != excluded
            && !searched.contains(&mv)
            && !(node.root && self.worker.is_root_move_ruled_out(mv))
            && node.position.is_legal(mv))
        .then_some(mv)
    }

    /// `SharedAlpha`: the alpha this PV node's search goes on with when another thread in the node has stored
    /// a raise above `alpha` (one below its score, so that its move, searched when this thread reaches it, comes
    /// back above alpha with its line), and that thread's move and score; `None` when the entry holds nothing
    /// new, or a move this thread has already searched or may not choose.
    fn other_threads_alpha(
        &mut self,
        node: &NodeFacts<'_>,
        alpha: i32,
        searched: &[Move],
    ) -> Option<(i32, (Move, i32))> {
        let entry = self.shared.tt.probe(node.key)?;
        if entry.depth() < node.depth || !entry.bound().contains(Bound::LOWER) {
            return None;
        }
        let score = entry.score(node.ply);
        let raised = score.min(node.beta) - 1;
        if raised <= alpha {
            return None;
        }
        let mv = entry.best_move().and_then(Move::from_bits)?;
        if searched.contains(&mv)
            || !node.position.is_legal(mv)
            || node.root && self.worker.is_root_move_ruled_out(mv)
        {
            return None;
        }
        self.worker.stats.alpha_adoptions += 1;
        Some((raised, (mv, score)))
    }

    /// `SharedAlpha`: stores at once that this PV node is worth at least `score`, by `mv`, for the other threads
    /// inside it; the node's own result replaces it when the node is done.
    fn publish_alpha(&self, node: &NodeFacts<'_>, mv: Move, score: i32, static_eval: Option<i32>) {
        let record = Record {
            best_move: mv.to_bits(),
            score,
            static_eval,
            depth: node.depth,
            bound: Bound::LOWER,
        };
        self.shared.tt.store(node.key, node.ply, record);
    }

    /// Ancestor checks: every [`ANCESTOR_CHECK_INTERVAL`] main-search nodes, re-probes the checked nodes of the
    /// path above `ply`, shallowest first. When another thread's stored result cuts one, the search is stopped
    /// until it is back in that node, which then returns the stored score ([`Self::unwound`]). With
    /// `WindowUpdates` the ABDADAs' PV nodes searching a younger brother are re-probed too: when another thread
    /// has stored a raise of such a node's alpha above the one the brother is searched against, by a move the
    /// node has not searched, the search is stopped until it is back in that node, which searches the brother
    /// again ([`Self::restarts_here`]); each raise restarts it once.
    fn ancestor_cut(&mut self, ply: usize) -> bool {
        self.worker.ancestor_countdown -= 1;
        if self.worker.ancestor_countdown > 0 {
            return false;
        }
        self.worker.ancestor_countdown = ANCESTOR_CHECK_INTERVAL;
        for (ancestor_ply, node) in self.worker.path[..ply].iter_mut().enumerate() {
            if !node.checked && node.restartable.is_none() {
                continue;
            }
            let entry = self.shared.tt.probe(node.key);
            if node.checked
                && let ProbeOutcome::Cutoff(score) =
                    probe_cutoff(entry, node.depth, node.alpha, node.beta, ancestor_ply)
            {
                self.worker.unwind_to = Some((ancestor_ply, Unwind::Return(score)));
                self.worker.stopped = true;
                return true;
            }
            if let (Some(brother), Some(entry)) = (node.restartable, entry)
                && entry.depth() >= node.depth
                && entry.bound().contains(Bound::LOWER)
                && let Some(raiser) = entry.best_move().and_then(Move::from_bits)
                && raiser != brother
                && node.searched_moves & move_bit(raiser) == 0
            {
                // The raise `SharedAlpha` takes up: one below the stored score, so that the raising move is
                // searched above it when this thread reaches it.
                let raised = entry.score(ancestor_ply).min(node.beta) - 1;
                if raised > node.searched_against {
                    node.searched_against = raised;
                    self.worker.unwind_to = Some((ancestor_ply, Unwind::Restart));
                    self.worker.stopped = true;
                    return true;
                }
            }
        }
        false
    }

    /// `WindowUpdates` (the ABDADAs): whether the search came back stopped into the node at `ply` because an
    /// ancestor check found the node's alpha raised by another thread; the search then goes on in the node,
    /// which searches its current move again (and takes up the raise first). A stop for any other reason goes on
    /// up.
    fn restarts_here(&mut self, ply: usize) -> bool {
        if !matches!(self.worker.unwind_to, Some((target, Unwind::Restart)) if target == ply) {
            return false;
        }
        self.worker.unwind_to = None;
        if self.search_abandoned() {
            return false;
        }
        self.worker.stopped = false;
        self.worker.stats.window_restarts += 1;
        true
    }

    /// The stored score, when the search came back stopped into the node at `ply` because an ancestor check
    /// found another thread's stored result answering this node, which then returns it ([`Self::unwound`]).
    fn answered_here(&self, ply: usize) -> Option<i32> {
        self.unwinds_to_return(ply).filter(|_| !self.search_abandoned())
    }

    /// The stored score when the node at `ply` is the one an ancestor check unwinds to, to return that score. A
    /// singular-extension test at the target's ply is not the target: the stop goes on to the node.
    fn unwinds_to_return(&self, ply: usize) -> Option<i32> {
        match self.worker.unwind_to {
            Some((target, Unwind::Return(score))) if target == ply && self.worker.excluded[ply].is_none() => {
                Some(score)
            }
            _ => None,
        }
    }

    /// Whether the whole search stops (another thread completed the iteration, or the search was aborted), so
    /// that no node goes on after a stop.
    fn search_abandoned(&self) -> bool {
        self.worker.abandoned || self.shared.abort.load(Ordering::Relaxed)
    }

    /// Counts the nodes of `this`, the brother left unfinished because another thread's stored result (`answer`)
    /// answered `node`: when the answer is a cut by a move this thread had reached, the brothers this thread
    /// searched after that move's place, this one included, are speculative; otherwise this brother is one the
    /// serial search searches too, left because the other thread finished the node first (`abandoned_nodes`).
    fn count_left_brother(
        &mut self,
        node: &NodeFacts<'_>,
        this: MoveInLoop,
        subtree: u64,
        answer: i32,
        searched: &[(Move, usize, u64)],
        deferred: &[MoveInLoop],
    ) {
        let cut_place = (answer >= node.beta)
            .then(|| self.shared.tt.probe(node.key))
            .flatten()
            .and_then(|entry| entry.best_move().and_then(Move::from_bits))
            .filter(|&cutting| cutting != this.mv)
            .and_then(|cutting| {
                searched
                    .iter()
                    .map(|&(mv, place, _)| (mv, place))
                    .chain(deferred.iter().map(|d| (d.mv, d.place)))
                    .find(|&(mv, _)| mv == cutting)
                    .map(|(_, place)| place)
            });
        let stats = &mut self.worker.stats;
        match cut_place {
            Some(place) => {
                stats.speculative_nodes += nodes_after(searched, place);
                if this.place > place {
                    stats.speculative_nodes += subtree;
                } else {
                    stats.abandoned_nodes += subtree;
                }
            }
            None => stats.abandoned_nodes += subtree,
        }
    }

    /// What the node at `ply` returns when a child came back with the search stopped: the stored score if this
    /// is the node an ancestor check unwinds to (and nothing else stopped the search), which then goes on;
    /// otherwise 0, and the stop goes on up.
    fn unwound(&mut self, ply: usize) -> i32 {
        let Some(score) = self.unwinds_to_return(ply) else {
            return 0;
        };
        self.worker.unwind_to = None;
        if self.search_abandoned() {
            return 0;
        }
        self.worker.stopped = false;
        self.worker.stats.ancestor_returns += 1;
        // The path still holds the target's entry window (only deeper plies were written since).
        let target = &self.worker.path[ply];
        self.worker.stats.pv_ancestor_returns += u64::from(target.alpha + 1 < target.beta);
        // A PV node's line so far is this thread's, not the stored score's: the line ends here.
        self.worker.pv.clear(ply);
        score
    }

    /// Searches one move of a node: the pruning decisions, the defer hook for younger brothers, and the
    /// search itself — full window for the eldest son; for the others a null window, reduced when late and quiet,
    /// re-searched at full depth if it beats alpha and, in PV nodes, with the full window if it lands inside it.
    // Always inlined: YBWC's split points call it from a second place, and the compiler then kept it a function,
    // whose call (its frame, the node's facts in memory) cost YBWC's two threads about 2% of their speed at 70 ms
    // searches (docs/parallel-search.md, *YBWC's cost per node*).
    #[inline(always)]
    pub(crate) fn search_move<const PV: bool>(
        &mut self,
        node: &NodeFacts<'_>,
        this: MoveInLoop,
        alpha: i32,
        best_score: i32,
    ) -> MoveOutcome {
        let NodeFacts {
            position,
            key,
            beta,
            depth,
            ply,
            improving,
            in_check,
            root,
            expected_cut,
            tt_move,
            tt_move_extension,
        } = *node;
        let MoveInLoop {
            mv,
            order,
            is_deferred,
            joins_research,
            moves_searched,
            quiets_tried,
            place: _,
        } = this;
        let params = self.shared.params;
        let quiet = !mv.is_noisy();
        // Late-move pruning and SEE pruning at shallow depth, once a real score is in hand. Checks are never
        // pruned: a quiet check is how most short mates begin. Whether the move checks is asked last, of the
        // position before the move: a pruned move costs no make, and a searched one no check test.
        if !root && !in_check && best_score > -MATE_IN_MAX_PLY && !is_deferred {
            let late_quiets = (params.lmp_base + depth * depth) as usize / (2 - usize::from(improving));
            let prunable = if quiet {
                !PV && (depth <= params.lmp_max_depth && quiets_tried >= late_quiets
                    // Futility pruning: the margin is what a quiet move gains at most in a few plies, bar tactics
                    // (checks are kept).
                    || is_futile_quiet(params, self.worker.static_evals[ply], alpha, depth)
                    // History pruning: a quiet move that has failed again and again at low depth (its ordering
                    // score is its history; the table move and the killers score above any history, so they are
                    // never pruned).
                    || depth <= params.history_prune_max_depth && order < -params.history_prune_margin * depth)
            } else {
                depth <= params.see_noisy_max_depth
                    && is_losing_noisy(order)
                    && !see_ge(position, mv, -params.see_noisy_margin * depth)
            };
            if prunable && !position.gives_check(mv) {
                return MoveOutcome::Pruned;
            }
        }

        let mut child = *position;
        child.play_unchecked(mv);
        let gives_check = child.in_check();
        let eldest = moves_searched == 0;
        // `DeferEldest`: in a null window the eldest son's result cannot narrow its brothers' window, and a node
        // not expected to fail high searches every son anyway; its eldest son is then shared like a brother.
        let eldest_shared = eldest && !PV && !expected_cut && self.shared.defer_eldest;
        // The eldest son is searched by every thread that comes, and so are the first few sons of a node still
        // expected to fail high (`ExpectedCutSons`): a brother deferred there is one a cutoff is likely to waste.
        let searched_regardless =
            eldest && !eldest_shared || expected_cut && moves_searched < self.shared.expected_cut_sons;
        if !searched_regardless
            && !is_deferred
            && self.hooks.defer_move(&MoveContext {
                key,
                mv,
                child_key: child.key(),
                depth,
                alpha,
                beta,
                ply,
                place: moves_searched,
            })
        {
            return MoveOutcome::Deferred;
        }
        self.shared.tt.prefetch(child.key());
        self.worker.repetitions.push(child.key(), child.halfmove_clock());
        self.push_move(ply + 1, position, mv, &child);
        let extension = if Some(mv) == tt_move { tt_move_extension } else { 0 };
        self.worker.double_extensions[ply + 1] =
            self.worker.double_extensions[ply] + i32::from(extension >= 2);
        let new_depth = depth - 1 + extension;
        let score = if eldest {
            // Marked only where it may be deferred: elsewhere every thread searches it first (note 5.1).
            let marked = eldest_shared && !is_deferred;
            if marked {
                self.hooks.starting_move(key, mv, depth);
            }
            let score = -self.search::<PV>(&child, -beta, -alpha, new_depth, ply + 1, false);
            if marked {
                self.hooks.finished_move(key, mv, depth);
            }
            score
        } else if joins_research {
            // Another thread found this brother above alpha and searches it with the full window: so does this
            // one, unreduced and unmarked (note 5.2), as the serial search would next.
            self.worker.stats.research_helps += 1;
            -self.search::<PV>(&child, -beta, -alpha, new_depth, ply + 1, false)
        } else {
            let mut reduction = 0;
            if depth >= 3 && moves_searched >= 2 + usize::from(PV) && quiet && !in_check && !gives_check {
                reduction = self.shared.reductions.get(depth, moves_searched);
                reduction -= i32::from(PV);
                reduction += i32::from(!improving);
                if self.worker.killers[ply].contains(&Some(mv)) {
                    reduction -= 1;
                }
                reduction -=
                    self.worker.history.score(position.side_to_move(), mv) / params.lmr_history_divisor;
                reduction = reduction.clamp(0, new_depth - 1);
            }
            let marked = !is_deferred;
            if marked {
                self.hooks.starting_move(key, mv, depth);
            }
            let mut score =
                -self.search::<false>(&child, -alpha - 1, -alpha, new_depth - reduction, ply + 1, false);
            if reduction > 0 && score > alpha && !self.worker.stopped {
                self.worker.stats.profile.reduced_researches += 1;
                score = -self.search::<false>(&child, -alpha - 1, -alpha, new_depth, ply + 1, false);
            }
            if marked {
                self.hooks.finished_move(key, mv, depth);
            }
            if PV && score > alpha && score < beta && !self.worker.stopped {
                self.worker.stats.profile.pv_researches += 1;
                // YBWC's `WaitForResearch`: at a PV split point the brothers not yet handed out wait for this
                // search, as for an eldest son.
                if let Some((split_ply, researching)) = &self.worker.split_research
                    && *split_ply == ply
                    && !self.worker.research_announced
                {
                    researching.fetch_add(1, Ordering::SeqCst);
                    self.worker.research_announced = true;
                }
                // The ABDADAs' `HelpResearchDepth`: posted for the node's other threads to join.
                let post = self
                    .shared
                    .research_board
                    .filter(|_| depth >= self.shared.help_research_depth)
                    .map(|board| (board, board.post(key, mv)));
                score = -self.search::<true>(&child, -beta, -alpha, new_depth, ply + 1, false);
                if let Some((board, post)) = post {
                    board.withdraw(post);
                }
            }
            score
        };
        self.worker.repetitions.pop();
        MoveOutcome::Searched(score)
    }

    /// Fills this ply's picker with the moves of the node at `ply`, once: the node's later calls find it filled.
    fn fill_picker(&mut self, filled: &mut bool, position: &Position, ply: usize, tt_move: Option<Move>) {
        if !*filled {
            let worker = &mut *self.worker;
            worker.pickers[ply].refill(
                position,
                PickerKind::All,
                tt_move,
                worker.killers[ply],
                &worker.history,
            );
            *filled = true;
        }
    }

    /// The static evaluation `raw` of `position` with this thread's correction history applied, kept clear of
    /// mate scores.
    #[inline]
    fn corrected_eval(&self, position: &Position, raw: i32) -> i32 {
        self.worker
            .correction
            .corrected(position, raw)
            .clamp(-MATE_IN_MAX_PLY + 1, MATE_IN_MAX_PLY - 1)
    }

    /// A quiet move caused a cutoff: make it a killer, raise its history and lower that of the quiet moves tried
    /// before it.
    fn reward_quiet(&mut self, us: eldest_board::Color, mv: Move, tried: &[Move], depth: i32, ply: usize) {
        let killers = &mut self.worker.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let bonus = self.shared.params.history_bonus(depth);
        self.worker.history.update(us, mv, bonus);
        for &other in tried {
            self.worker.history.update(us, other, -bonus);
        }
    }

    /// Quiescence: captures and promotions until the position is quiet, or every evasion when in check, with
    /// the static evaluation as a floor ("stand pat") out of check.
    fn quiescence<const PV: bool>(
        &mut self,
        position: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.worker.pv.clear(ply);
        if self.worker.count_node_and_check_stop(self.shared) {
            return 0;
        }
        self.worker.seldepth = self.worker.seldepth.max(ply);
        if self.worker.is_draw(position) {
            return DRAW;
        }
        let in_check = position.in_check();
        if ply >= MAX_PLY {
            return if in_check {
                DRAW
            } else {
                self.evaluate(position, ply)
            };
        }

        let key = position.key();
        let entry = self.shared.tt.probe(key);
        let tt_move = match probe_cutoff(entry, 0, alpha, beta, ply) {
            ProbeOutcome::Cutoff(score) if !PV => return score,
            ProbeOutcome::Cutoff(_) => entry.and_then(|e| e.best_move()),
            ProbeOutcome::MoveOnly(mv) => mv,
            ProbeOutcome::Miss => None,
        }
        .and_then(Move::from_bits);

        let (raw_eval, static_eval) = self.static_evaluations(position, ply, entry, in_check);
        let mut best_score = static_eval;
        if !in_check {
            if static_eval >= beta {
                return static_eval;
            }
            alpha = alpha.max(static_eval);
        }
        let original_alpha = alpha;
        let kind = if in_check {
            PickerKind::All
        } else {
            PickerKind::Noisy
        };
        self.worker.pickers[ply].refill(position, kind, tt_move, [None; 2], &self.worker.history);
        let mut best_move = None;
        while let Some((mv, order)) = self.worker.pickers[ply].next_best() {
            // Out of check, captures that lose material cannot raise a quiet position's score.
            if !in_check && is_losing_noisy(order) {
                continue;
            }
            let mut child = *position;
            child.play_unchecked(mv);
            self.worker.repetitions.push(child.key(), child.halfmove_clock());
            self.push_move(ply + 1, position, mv, &child);
            let score = -self.quiescence::<PV>(&child, -beta, -alpha, ply + 1);
            self.worker.repetitions.pop();
            if self.worker.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    if PV {
                        self.worker.pv.update(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && self.worker.pickers[ply].is_empty() {
            return -MATE + ply as i32;
        }
        let result = SearchResult {
            best_move,
            best_score,
            original_alpha,
            beta,
        };
        store_result(self.shared, key, ply, 0, result, (!in_check).then_some(raw_eval));
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn futility_prunes_a_hopeless_quiet_move_but_never_below_a_mate_already_found() {
        let params = SearchParams::DEFAULT;
        let hopeless = -2_000;
        assert!(is_futile_quiet(&params, hopeless, 0, 1));
        assert!(is_futile_quiet(&params, hopeless, 0, params.futility_max_depth));
        assert!(
            !is_futile_quiet(&params, hopeless, 0, params.futility_max_depth + 1),
            "too deep to prune"
        );
        assert!(!is_futile_quiet(&params, 0, 0, 1), "within the margin of alpha");
        for mate_found in [MATE_IN_MAX_PLY, MATE - 20, MATE - 1] {
            assert!(
                !is_futile_quiet(&params, hopeless, mate_found, 1),
                "alpha {mate_found} is a mate found: a quiet move may still mate sooner"
            );
        }
    }
}

#[cfg(test)]
mod hook_rules {
    //! The parallel hooks' rules, checked by recording every call the node routine makes during a real
    //! single-thread search (Kerrigan's notes 5.1–5.3; Weill's "the eldest son regardless").

    use super::*;
    use crate::time::TimeManager;
    use std::sync::Mutex;
    use std::sync::atomic::AtomicU64;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Event {
        Enter(u64),
        Ask {
            key: u64,
            mv: Move,
            child: u64,
            place: usize,
        },
        Start {
            key: u64,
            mv: Move,
        },
        Finish {
            key: u64,
            mv: Move,
        },
    }

    struct Recorder {
        events: Mutex<Vec<Event>>,
        defer_everything: bool,
        enter_with_probe: bool,
    }

    impl Recorder {
        fn push(&self, event: Event) {
            self.events.lock().unwrap().push(event);
        }
    }

    impl SearchHooks for Recorder {
        type NodeGuard<'g> = ();

        fn enter_node(&self, key: u64, _depth: i32) {
            self.push(Event::Enter(key));
        }

        fn defer_move(&self, context: &MoveContext) -> bool {
            self.push(Event::Ask {
                key: context.key,
                mv: context.mv,
                child: context.child_key,
                place: context.place,
            });
            self.defer_everything
        }

        fn starting_move(&self, key: u64, mv: Move, _depth: i32) {
            self.push(Event::Start { key, mv });
        }

        fn finished_move(&self, key: u64, mv: Move, _depth: i32) {
            self.push(Event::Finish { key, mv });
        }

        fn enters_before_pruning(&self) -> bool {
            self.enter_with_probe
        }
    }

    fn record(fen: &str, depth: i32, defer_everything: bool) -> (Vec<Event>, i32) {
        record_with(fen, depth, defer_everything, false, TestKnobs::default())
    }

    fn record_with(
        fen: &str,
        depth: i32,
        defer_everything: bool,
        enter_with_probe: bool,
        knobs: TestKnobs,
    ) -> (Vec<Event>, i32) {
        let tt = TranspositionTable::new(16).unwrap();
        let hooks = Recorder {
            events: Mutex::new(Vec::new()),
            defer_everything,
            enter_with_probe,
        };
        let (score, _, _) = search_with(fen, depth, &tt, &hooks, knobs);
        (hooks.events.into_inner().unwrap(), score)
    }

    /// The parallel knobs the node routine reads from its shared state, as a test sets them.
    #[derive(Clone, Copy)]
    struct TestKnobs {
        brothers_keep_places: bool,
        shared_alpha: bool,
        window_updates: bool,
        /// The PV ancestor checks' floor (`None`: no PV ancestor checks).
        pv_ancestor_min_depth: Option<i32>,
        expected_cut_sons: usize,
        defer_eldest: bool,
        /// `HelpResearchDepth` 1, with this move posted for the root before each iteration as if another thread
        /// searched it again with the full window.
        posted_at_root: Option<Move>,
    }

    impl Default for TestKnobs {
        fn default() -> TestKnobs {
            TestKnobs {
                brothers_keep_places: true,
                shared_alpha: false,
                window_updates: false,
                pv_ancestor_min_depth: None,
                expected_cut_sons: 1,
                defer_eldest: false,
                posted_at_root: None,
            }
        }
    }

    /// Iterative deepening to `depth` on one thread with `hooks` and `knobs`: the score, the thread's counters
    /// and the root's line.
    fn search_with<H: SearchHooks>(
        fen: &str,
        depth: i32,
        tt: &TranspositionTable,
        hooks: &H,
        knobs: TestKnobs,
    ) -> (i32, ThreadStats, Vec<Move>) {
        let position = Position::from_fen(fen).unwrap();
        let control = SearchControl::new();
        let abort = AtomicBool::new(false);
        let time = TimeManager::new(
            std::time::Instant::now(),
            &Default::default(),
            &Default::default(),
        );
        let counters = [AtomicU64::new(0)];
        let research_board = ResearchBoard::new();
        let shared = SharedSearch {
            tt,
            control: &control,
            abort: &abort,
            time: &time,
            node_limit: None,
            node_counters: &counters,
            completed_depth: &std::sync::atomic::AtomicU32::new(0),
            skip_completed_iterations: false,
            root_windows: None,
            brothers_keep_places: knobs.brothers_keep_places,
            expected_cut_sons: knobs.expected_cut_sons,
            defer_eldest: knobs.defer_eldest,
            research_board: knobs.posted_at_root.map(|_| &research_board),
            help_research_depth: 1,
            shared_alpha: knobs.shared_alpha,
            window_updates: knobs.window_updates,
            pv_ancestor_min_depth: knobs.pv_ancestor_min_depth,
            params: &SearchParams::DEFAULT,
            reductions: &Reductions::new(&SearchParams::DEFAULT),
            evaluation: &Evaluation::Pesto,
            exchange: None,
            count_duplicates: true,
            tree_keys: None,
        };
        let game: GameHistory = [(position.key(), position.halfmove_clock())]
            .into_iter()
            .collect();
        let mut worker = Worker::new();
        worker.prepare(Arc::new(game));
        let mut score = 0;
        for d in 1..=depth {
            if let Some(mv) = knobs.posted_at_root {
                let _ = research_board.post(position.key(), mv);
            }
            score = SearchContext {
                worker: &mut worker,
                shared: &shared,
                hooks,
            }
            .search::<true>(&position, -INFINITY, INFINITY, d, 0, false);
            assert!(!worker.stopped, "nothing stops a search without limits");
        }
        (score, worker.stats, worker.root_pv())
    }

    const FEN: &str = "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16";

    /// Each visit of a node: its key and the events from its entry to its next entry (or the end).
    fn visits(events: &[Event]) -> impl Iterator<Item = (u64, &[Event])> {
        events.iter().enumerate().filter_map(|(i, event)| {
            let Event::Enter(parent) = *event else { return None };
            let visit_end = events[i + 1..]
                .iter()
                .position(|e| *e == Event::Enter(parent))
                .map_or(events.len(), |p| i + 1 + p);
            Some((parent, &events[i + 1..visit_end]))
        })
    }

    #[test]
    fn a_move_is_marked_only_right_after_the_younger_brother_query_notes_5_1() {
        let (events, _) = record(FEN, 7, false);
        let starts = events.iter().filter(|e| matches!(e, Event::Start { .. })).count();
        assert!(starts > 100, "the search marked too few moves to judge: {starts}");
        for (i, event) in events.iter().enumerate() {
            if let Event::Start { key, mv } = *event {
                assert!(
                    matches!(events[i - 1], Event::Ask { key: k, mv: m, .. } if k == key && m == mv),
                    "event {i}: {event:?} not directly after its younger-brother query"
                );
            }
        }
    }

    #[test]
    fn the_eldest_son_is_never_asked_about() {
        // Within one visit of a node (from its entry to its next entry), the first child node entered — the
        // eldest son; the null-move probe's child is not a move and is skipped — is never the subject of a query.
        let (events, _) = record(FEN, 7, false);
        let null_child = |parent: u64| parent ^ eldest_hashing::side_to_move();
        let mut checked = 0;
        for (parent, visit) in visits(&events) {
            let Some(first_ask) = visit
                .iter()
                .position(|e| matches!(e, Event::Ask { key, .. } if *key == parent))
            else {
                continue;
            };
            let eldest = visit[..first_ask].iter().find_map(|e| match *e {
                Event::Enter(child) if child != null_child(parent) => Some(child),
                _ => None,
            });
            let Some(eldest) = eldest else { continue };
            let asked_about_eldest = visit
                .iter()
                .any(|e| matches!(e, Event::Ask { key, child, .. } if *key == parent && *child == eldest));
            assert!(
                !asked_about_eldest,
                "node {parent:#x}: the eldest son {eldest:#x} was queried"
            );
            checked += 1;
        }
        assert!(checked > 50, "too few nodes with younger brothers: {checked}");
    }

    #[test]
    fn marks_are_balanced_and_the_full_window_re_search_is_not_marked_note_5_2() {
        let (events, _) = record(FEN, 7, false);
        let mut open: Vec<(u64, Move)> = Vec::new();
        let mut unmarked_re_searches = 0;
        for (i, event) in events.iter().enumerate() {
            match *event {
                Event::Start { key, mv } => open.push((key, mv)),
                Event::Finish { key, mv } => {
                    assert_eq!(
                        open.pop(),
                        Some((key, mv)),
                        "event {i}: marks must nest like the search"
                    );
                    // A re-search of the same child right after the marked null-window search runs unmarked.
                    let child = events[..i]
                        .iter()
                        .rev()
                        .find_map(|e| match *e {
                            Event::Ask {
                                key: k, mv: m, child, ..
                            } if k == key && m == mv => Some(child),
                            _ => None,
                        })
                        .unwrap();
                    if matches!(events.get(i + 1), Some(Event::Enter(k)) if *k == child) {
                        unmarked_re_searches += 1;
                    }
                }
                _ => {}
            }
        }
        assert!(open.is_empty(), "a mark was never cleared");
        assert!(
            unmarked_re_searches > 0,
            "no re-search after a fail-high was seen"
        );
    }

    #[test]
    fn weills_entry_with_the_probe_comes_before_the_null_move_search() {
        // The same serial search either way; entering with the probe adds the entries of the nodes that null-move
        // and reverse futility pruning answer, and puts a node's entry before its null-move child's.
        let null_move_children_inside_their_parent = |events: &[Event]| {
            events
                .windows(2)
                .filter(|pair| {
                    matches!(pair, [Event::Enter(parent), Event::Enter(child)]
                        if *child == parent ^ eldest_hashing::side_to_move())
                })
                .count()
        };
        let entries = |events: &[Event]| events.iter().filter(|e| matches!(e, Event::Enter(_))).count();
        let (after_pruning, score_after) = record_with(FEN, 8, false, false, TestKnobs::default());
        let (with_probe, score_with) = record_with(FEN, 8, false, true, TestKnobs::default());
        assert_eq!(
            score_after, score_with,
            "where a node is entered does not change the serial search"
        );
        assert!(
            null_move_children_inside_their_parent(&with_probe)
                > null_move_children_inside_their_parent(&after_pruning)
        );
        assert!(
            entries(&with_probe) > entries(&after_pruning),
            "nodes pruned by null move or reverse futility are entered too"
        );
    }

    #[test]
    fn a_brother_another_thread_searches_again_is_joined_unmarked_and_not_searched_twice() {
        // `HelpResearchDepth`: a root brother posted as searched again with the full window by another thread is
        // searched right after the eldest son, without asking whether to defer it or marking it (note 5.2), and
        // the root's loop does not come to it again.
        let root = Position::from_fen(FEN).unwrap().key();
        let root_events_of = |events: &[Event], mv: Move| {
            events
                .iter()
                .filter(|e| matches!(e, Event::Ask { key, mv: m, .. } | Event::Start { key, mv: m } if *key == root && *m == mv))
                .count()
        };
        let (plain, _) = record(FEN, 6, false);
        // The last root brother the plain search asked about: a late one, never the eldest.
        let late = plain
            .iter()
            .rev()
            .find_map(|e| match *e {
                Event::Ask { key, mv, .. } if key == root => Some(mv),
                _ => None,
            })
            .unwrap();
        assert!(
            root_events_of(&plain, late) >= 2,
            "asked about and marked in the plain search"
        );
        let hooks = Recorder {
            events: Mutex::new(Vec::new()),
            defer_everything: false,
            enter_with_probe: false,
        };
        let tt = TranspositionTable::new(16).unwrap();
        let knobs = TestKnobs {
            posted_at_root: Some(late),
            ..TestKnobs::default()
        };
        let (score, stats, _) = search_with(FEN, 6, &tt, &hooks, knobs);
        let joined = hooks.events.into_inner().unwrap();
        assert_eq!(root_events_of(&joined, late), 0);
        assert!(
            stats.research_helps >= 1 && stats.research_helps <= 6,
            "{}",
            stats.research_helps
        );
        assert!(score.abs() < MATE_IN_MAX_PLY);
    }

    #[test]
    fn deferred_moves_are_never_marked_note_5_3() {
        let (events, score) = record(FEN, 6, true);
        let asks = events.iter().filter(|e| matches!(e, Event::Ask { .. })).count();
        assert!(asks > 100);
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::Start { .. } | Event::Finish { .. }))
        );
        // Deferring everything only reorders the search: it still reaches a real score, as the plain search does.
        let (_, plain) = record(FEN, 6, false);
        assert!(score.abs() < MATE_IN_MAX_PLY && plain.abs() < MATE_IN_MAX_PLY);
    }

    #[test]
    fn defer_eldest_asks_about_and_marks_the_eldest_son_of_nodes_expected_to_fail_low_only() {
        let knobs = TestKnobs {
            defer_eldest: true,
            ..TestKnobs::default()
        };
        let (events, score) = record_with(FEN, 7, false, false, knobs);
        let (serial_events, serial_score) = record(FEN, 7, false);
        assert_eq!(
            score, serial_score,
            "asking and marking change nothing by themselves"
        );
        let eldest_asks: Vec<usize> = (0..events.len())
            .filter(|&i| matches!(events[i], Event::Ask { place: 0, .. }))
            .collect();
        assert!(
            eldest_asks.len() > 50,
            "too few eldest sons asked about: {}",
            eldest_asks.len()
        );
        assert!(
            !serial_events
                .iter()
                .any(|e| matches!(e, Event::Ask { place: 0, .. }))
        );
        // Each eldest son asked about is marked while searched, as a younger brother is (note 5.1's exception).
        for &i in &eldest_asks {
            let Event::Ask { key, mv, .. } = events[i] else {
                unreachable!()
            };
            assert_eq!(events[i + 1], Event::Start { key, mv }, "event {i}");
        }
        // Not every node: the root and the other PV nodes, and nodes expected to fail high, still search their
        // eldest son regardless, so some visits ask from place 1.
        assert!(asked_places(&events).iter().any(|places| places[0] == 1));
        // Everything deferred, eldest sons included: the second pass searches them all in their order, the eldest
        // son with its full window, and the search is the plain one.
        let (_, all_deferred) = record_with(FEN, 7, true, false, knobs);
        assert_eq!(all_deferred, serial_score);
    }

    /// The places each visit of a node asked its younger brothers at, in order (visits with two asks or more).
    fn asked_places(events: &[Event]) -> Vec<Vec<usize>> {
        visits(events)
            .map(|(parent, visit)| {
                visit
                    .iter()
                    .filter_map(|e| match *e {
                        Event::Ask { key, place, .. } if key == parent => Some(place),
                        _ => None,
                    })
                    .collect::<Vec<usize>>()
            })
            .filter(|places| places.len() >= 2)
            .collect()
    }

    #[test]
    fn brothers_after_deferred_moves_keep_their_serial_places() {
        // Every younger brother deferred in the first pass: with their places kept, a node asks about its
        // brothers at places 1, 2, 3, … — each deferred brother counted, as the serial loop counts a searched one
        // — so late-move reductions and pruning see them where one thread would.
        let (kept, _) = record_with(FEN, 7, true, false, TestKnobs::default());
        let visits = asked_places(&kept);
        assert!(visits.len() > 50, "too few nodes with brothers: {}", visits.len());
        for places in &visits {
            assert_eq!(*places, (1..=places.len()).collect::<Vec<_>>());
        }
        // Without, only the eldest son counts: every brother is asked at place 1, and the later ones escape the
        // reductions and the pruning their place calls for.
        let (counted, _) = record_with(
            FEN,
            7,
            true,
            false,
            TestKnobs {
                brothers_keep_places: false,
                ..TestKnobs::default()
            },
        );
        let visits = asked_places(&counted);
        assert!(visits.len() > 50);
        assert!(visits.iter().flatten().all(|&place| place == 1));
    }

    #[test]
    fn expected_cut_nodes_search_their_first_sons_regardless() {
        // `ExpectedCutSons 3`: a node still expected to fail high searches its first three sons without asking
        // whether to defer them, so its first question is about place 3; every other node asks from place 1.
        let (events, _) = record_with(
            FEN,
            7,
            true,
            false,
            TestKnobs {
                expected_cut_sons: 3,
                ..TestKnobs::default()
            },
        );
        let first_asked: Vec<usize> = asked_places(&events).iter().map(|places| places[0]).collect();
        assert!(
            first_asked.len() > 50,
            "too few nodes with brothers: {}",
            first_asked.len()
        );
        assert!(first_asked.iter().all(|&place| place == 1 || place == 3));
        assert!(first_asked.contains(&1) && first_asked.contains(&3));
        // With the default every node asks from place 1: the eldest son alone is searched regardless.
        let (events, _) = record_with(FEN, 7, true, false, TestKnobs::default());
        assert!(asked_places(&events).iter().all(|places| places[0] == 1));
    }

    /// Plays "another thread" that searches the brother a node would search second and finds it cuts: at each
    /// non-PV node of depth 5 or more (once per node), the brother of place 1 is deferred and a result stored
    /// for its child that makes it fail high, so that the node's second pass cuts with it after the first pass
    /// searched the brothers after it.
    struct CuttingDeferrals<'a> {
        tt: &'a TranspositionTable,
        deferred_at: Mutex<std::collections::HashSet<u64>>,
    }

    impl SearchHooks for CuttingDeferrals<'_> {
        type NodeGuard<'g>
            = ()
        where
            Self: 'g;

        fn enter_node(&self, _key: u64, _depth: i32) {}

        fn defer_move(&self, context: &MoveContext) -> bool {
            let non_pv = context.beta == context.alpha + 1;
            let first_time_here = || self.deferred_at.lock().unwrap().insert(context.key);
            let defers = non_pv && context.ply >= 1 && context.depth >= 5 && context.place == 1;
            if !(defers && first_time_here()) {
                return false;
            }
            // The child fails low against the window it is searched with, so the move fails high.
            let record = Record {
                best_move: 0,
                score: -context.beta - 50,
                static_eval: None,
                depth: context.depth + 2,
                bound: Bound::UPPER,
            };
            self.tt.store(context.child_key, context.ply + 1, record);
            true
        }
    }

    #[test]
    fn brothers_searched_past_a_deferred_brother_that_cuts_are_speculative() {
        let tt = TranspositionTable::new(16).unwrap();
        let hooks = CuttingDeferrals {
            tt: &tt,
            deferred_at: Mutex::new(std::collections::HashSet::new()),
        };
        let (_, stats, _) = search_with(FEN, 9, &tt, &hooks, TestKnobs::default());
        assert!(stats.deferred_moves > 10, "{} deferred", stats.deferred_moves);
        assert!(
            stats.speculative_nodes > 0 && stats.speculative_nodes < stats.nodes,
            "{} speculative of {} nodes",
            stats.speculative_nodes,
            stats.nodes
        );
        assert_eq!(stats.abandoned_nodes, 0, "no ancestor checks, nothing left");
        // Without deferrals the brothers are searched in their order: nothing after a cut.
        let tt = TranspositionTable::new(16).unwrap();
        let (_, serial, _) = search_with(FEN, 9, &tt, &crate::hooks::Serial, TestKnobs::default());
        assert_eq!((serial.speculative_nodes, serial.abandoned_nodes), (0, 0));
    }

    /// Plays "another thread": the first time a child of the root of depth 8 or more, non-PV (or PV with `pv`),
    /// asks about a younger brother, stores a result for that node that ends it (as if another thread had just
    /// finished it): a lower bound above beta, or in a PV node an exact score inside its window, once. A child of
    /// the root, so that enough of its search is left for a periodic ancestor check to come.
    struct Planter<'a> {
        tt: &'a TranspositionTable,
        ancestor_checks: bool,
        pv: bool,
        planted: Mutex<Option<u64>>,
    }

    impl SearchHooks for Planter<'_> {
        type NodeGuard<'g>
            = ()
        where
            Self: 'g;

        fn enter_node(&self, _key: u64, _depth: i32) {}

        fn defer_move(&self, context: &MoveContext) -> bool {
            let mut planted = self.planted.lock().unwrap();
            let pv_node = context.beta > context.alpha + 1;
            if planted.is_none() && context.ply == 1 && context.depth >= 8 && pv_node == self.pv {
                let record = if pv_node {
                    Record {
                        best_move: 0,
                        score: context.alpha + 1,
                        static_eval: None,
                        depth: context.depth + 2,
                        bound: Bound::EXACT,
                    }
                } else {
                    Record {
                        best_move: 0,
                        score: context.beta + 50,
                        static_eval: None,
                        depth: context.depth + 2,
                        bound: Bound::LOWER,
                    }
                };
                self.tt.store(context.key, context.ply, record);
                *planted = Some(context.key);
            }
            false
        }

        fn ancestor_checks(&self) -> bool {
            self.ancestor_checks
        }
    }

    /// A search to `depth` with a [`Planter`] that plants (or not, in a PV node or not) and the ancestor checks
    /// on or off, PV nodes' from the depth `pv_checks` gives: the score, the counters, whether a result was
    /// planted, and the root's line.
    fn planted_search(
        depth: i32,
        (plant, pv): (bool, bool),
        ancestor_checks: bool,
        pv_checks: Option<i32>,
    ) -> (i32, ThreadStats, bool, Vec<Move>) {
        let tt = TranspositionTable::new(16).unwrap();
        let hooks = Planter {
            tt: &tt,
            ancestor_checks,
            pv,
            // `Some` before the search: nothing is planted.
            planted: Mutex::new((!plant).then_some(0)),
        };
        let (score, stats, line) = search_with(
            FEN,
            depth,
            &tt,
            &hooks,
            TestKnobs {
                pv_ancestor_min_depth: pv_checks,
                ..TestKnobs::default()
            },
        );
        let planted = plant && hooks.planted.lock().unwrap().is_some();
        (score, stats, planted, line)
    }

    #[test]
    fn a_node_cut_by_another_threads_result_is_left_from_below_once_and_the_search_goes_on() {
        let (_, checked, planted, _) = planted_search(11, (true, false), true, None);
        assert!(planted, "no node deep enough to plant in");
        assert_eq!(
            checked.ancestor_returns, 1,
            "the planted node is left exactly once"
        );
        let (_, unchecked, planted, _) = planted_search(11, (true, false), false, None);
        assert!(planted, "no node deep enough to plant in");
        assert_eq!(
            unchecked.ancestor_returns, 0,
            "without the checks the node is searched to the end"
        );
        assert_eq!(checked.pv_ancestor_returns, 0, "a non-PV node was left");
        // The brother being searched when the planted result was found is counted: left, or speculative when it
        // comes after the move the planted cut names (the table keeps the node's earlier move, its eldest son).
        let counted = checked.abandoned_nodes + checked.speculative_nodes;
        assert!(
            counted > 0 && counted < checked.nodes,
            "{} left, {} speculative of {} nodes",
            checked.abandoned_nodes,
            checked.speculative_nodes,
            checked.nodes
        );
        assert_eq!(
            (unchecked.abandoned_nodes, unchecked.speculative_nodes),
            (0, 0),
            "nothing left without the checks, nothing deferred"
        );
        // ... and the node, answered by the planted result when it ends, is counted as searched twice (its own
        // nodes: those of its sons that reached their ends are the sons').
        assert!(
            unchecked.duplicate_nodes > 0 && unchecked.duplicate_nodes < unchecked.nodes,
            "{} duplicate of {} nodes",
            unchecked.duplicate_nodes,
            unchecked.nodes
        );
    }

    #[test]
    fn a_pv_node_another_thread_has_finished_is_left_from_below_once_with_pv_ancestor_checks() {
        let (_, pv_checked, planted, line) =
            planted_search(11, (true, true), true, Some(CUTOFF_CHECK_MIN_DEPTH));
        assert!(planted, "no PV node deep enough to plant in");
        assert_eq!(
            pv_checked.ancestor_returns, 1,
            "the planted PV node is left exactly once"
        );
        assert_eq!(pv_checked.pv_ancestor_returns, 1);
        let root = Position::from_fen(FEN).unwrap();
        assert!(
            !line.is_empty() && root.legal_moves().contains(&line[0]),
            "{line:?}"
        );
        // Without the knob the ancestor checks leave PV nodes alone, as before it.
        let (_, unchecked, planted, _) = planted_search(11, (true, true), true, None);
        assert!(planted);
        assert_eq!(unchecked.ancestor_returns, 0);
    }

    #[test]
    fn pv_ancestor_min_depth_leaves_pv_nodes_above_it_and_keeps_those_below() {
        // The planted PV node is at ply 1, planted in the first iteration that gives it a remaining depth of 8.
        let (_, deep_enough, planted, _) = planted_search(11, (true, true), true, Some(8));
        assert!(planted, "no PV node deep enough to plant in");
        assert_eq!(deep_enough.pv_ancestor_returns, 1, "a floor below the node: left");
        let (_, too_shallow, planted, _) = planted_search(11, (true, true), true, Some(12));
        assert!(planted);
        assert_eq!(
            (too_shallow.ancestor_returns, too_shallow.pv_ancestor_returns),
            (0, 0),
            "a floor above the node: searched to its end"
        );
    }

    /// Plays "another thread" at the root (`SharedAlpha`): when the root of the last iteration first asks about
    /// a younger brother, stores that another root move, neither the eldest (the entry's move then) nor the one
    /// asked about, scored `lead` above the eldest's score, as another thread raising the root's alpha would.
    struct RootRaiser<'a> {
        tt: &'a TranspositionTable,
        root: Position,
        depth: i32,
        lead: i32,
        raised: Mutex<Option<(Move, i32)>>,
    }

    impl SearchHooks for RootRaiser<'_> {
        type NodeGuard<'g>
            = ()
        where
            Self: 'g;

        fn enter_node(&self, _key: u64, _depth: i32) {}

        fn defer_move(&self, context: &MoveContext) -> bool {
            let mut raised = self.raised.lock().unwrap();
            if raised.is_none() && context.ply == 0 && context.depth == self.depth {
                *raised = Some(plant_root_raise(
                    self.tt,
                    &self.root,
                    context.key,
                    self.depth,
                    self.lead,
                    context.mv,
                ));
            }
            false
        }
    }

    /// Stores at the root (key `root_key`) what another thread raising its alpha at `depth` would: a lower bound
    /// `lead` above the eldest son's stored score, by a root move neither the eldest nor `asked`; that move and
    /// score.
    fn plant_root_raise(
        tt: &TranspositionTable,
        root: &Position,
        root_key: u64,
        depth: i32,
        lead: i32,
        asked: Move,
    ) -> (Move, i32) {
        let entry = tt.probe(root_key).expect("the eldest's raise is stored");
        let eldest = entry.best_move().and_then(Move::from_bits);
        let other = root
            .legal_moves()
            .iter()
            .copied()
            .find(|&mv| Some(mv) != eldest && mv != asked)
            .expect("three root moves");
        let score = entry.score(0) + lead;
        let record = Record {
            best_move: other.to_bits(),
            score,
            static_eval: None,
            depth,
            bound: Bound::LOWER,
        };
        tt.store(root_key, 0, record);
        (other, score)
    }

    #[test]
    fn a_root_raise_of_another_thread_is_taken_up_and_its_move_played_when_this_thread_cannot_beat_it() {
        // Far above what the move is worth: the thread's own search of it comes back lower, and the other
        // thread's proven score stands, with its move as the line, never an empty line.
        let depth = 8;
        for shared_alpha in [true, false] {
            let tt = TranspositionTable::new(16).unwrap();
            let hooks = RootRaiser {
                tt: &tt,
                root: Position::from_fen(FEN).unwrap(),
                depth,
                lead: 400,
                raised: Mutex::new(None),
            };
            let (score, stats, line) = search_with(
                FEN,
                depth,
                &tt,
                &hooks,
                TestKnobs {
                    shared_alpha,
                    ..TestKnobs::default()
                },
            );
            let (other, raised) = hooks
                .raised
                .lock()
                .unwrap()
                .expect("the root asked about a brother");
            if shared_alpha {
                assert_eq!(stats.alpha_adoptions, 1, "taken up once");
                assert_eq!((score, line.as_slice()), (raised, &[other][..]));
            } else {
                assert_eq!(stats.alpha_adoptions, 0);
                assert!(
                    score < raised && !line.is_empty() && line[0] != other,
                    "{score} {line:?}"
                );
            }
        }
    }

    /// Plays "another thread" raising the root's alpha while this one is inside a younger brother of the root
    /// (`WindowUpdates`). In the root of the last iteration it counts the nodes entered below each younger
    /// brother; below the brother `target`, the first node entered stores that a third root move, neither the
    /// eldest nor the brother, is worth `lead` more than the eldest.
    struct BrotherRaiser<'a> {
        tt: &'a TranspositionTable,
        root: Position,
        depth: i32,
        lead: i32,
        target: Option<Move>,
        /// The root's key and the younger brother it is searching, once the root has asked about one.
        inside: Mutex<Option<(u64, Move)>>,
        entered: Mutex<Vec<(Move, u64)>>,
        raised: Mutex<Option<(Move, i32)>>,
    }

    impl SearchHooks for BrotherRaiser<'_> {
        type NodeGuard<'g>
            = ()
        where
            Self: 'g;

        fn enter_node(&self, _key: u64, _depth: i32) {
            let Some((root_key, brother)) = *self.inside.lock().unwrap() else {
                return;
            };
            let mut entered = self.entered.lock().unwrap();
            match entered.iter_mut().find(|(mv, _)| *mv == brother) {
                Some((_, count)) => *count += 1,
                None => entered.push((brother, 1)),
            }
            let mut raised = self.raised.lock().unwrap();
            if raised.is_none() && self.target == Some(brother) {
                *raised = Some(plant_root_raise(
                    self.tt, &self.root, root_key, self.depth, self.lead, brother,
                ));
            }
        }

        fn defer_move(&self, context: &MoveContext) -> bool {
            if context.ply == 0 && context.depth == self.depth {
                *self.inside.lock().unwrap() = Some((context.key, context.mv));
            }
            false
        }
    }

    /// What a search with a [`BrotherRaiser`] found.
    struct RaisedSearch {
        score: i32,
        stats: ThreadStats,
        line: Vec<Move>,
        /// The move and score the raiser stored, if it did.
        raised: Option<(Move, i32)>,
        /// The nodes entered below each younger brother of the root in the last iteration.
        entered: Vec<(Move, u64)>,
    }

    /// A search with a [`BrotherRaiser`] raising below `target` (`None`: counting only), `SharedAlpha` on and
    /// `WindowUpdates` as given.
    fn brother_raised_search(depth: i32, target: Option<Move>, window_updates: bool) -> RaisedSearch {
        let tt = TranspositionTable::new(16).unwrap();
        let hooks = BrotherRaiser {
            tt: &tt,
            root: Position::from_fen(FEN).unwrap(),
            depth,
            lead: 400,
            target,
            inside: Mutex::new(None),
            entered: Mutex::new(Vec::new()),
            raised: Mutex::new(None),
        };
        let knobs = TestKnobs {
            shared_alpha: true,
            window_updates,
            ..TestKnobs::default()
        };
        let (score, stats, line) = search_with(FEN, depth, &tt, &hooks, knobs);
        let raised = *hooks.raised.lock().unwrap();
        RaisedSearch {
            score,
            stats,
            line,
            raised,
            entered: hooks.entered.into_inner().unwrap(),
        }
    }

    #[test]
    fn a_raise_of_the_roots_alpha_restarts_the_brother_in_flight_once_with_window_updates() {
        let depth = 13;
        // The younger brother of the root with the largest tree: the periodic re-probe comes while the
        // thread is still inside it. The search is the same up to the raise, so the brother is the same.
        let entered = brother_raised_search(depth, None, true).entered;
        let &(target, nodes) = entered
            .iter()
            .max_by_key(|(_, nodes)| *nodes)
            .expect("the root asked");
        assert!(
            nodes > 2 * u64::from(ANCESTOR_CHECK_INTERVAL),
            "no brother big enough: {entered:?}"
        );
        for window_updates in [true, false] {
            let RaisedSearch {
                score,
                stats,
                line,
                raised,
                ..
            } = brother_raised_search(depth, Some(target), window_updates);
            let (other, raised) = raised.expect("a node below the brother was entered");
            // Restarted once, not again for the same raise; without the knob the raise waits for the root's
            // next move. Either way it is taken up once, and its move, which cannot reach it, is played with
            // its proven score.
            assert_eq!(stats.window_restarts, u64::from(window_updates));
            assert_eq!(stats.alpha_adoptions, 1);
            assert_eq!((score, line.as_slice()), (raised, &[other][..]));
        }
    }

    #[test]
    fn ancestor_checks_change_nothing_when_no_other_thread_stores() {
        let (with_checks, checked, _, _) =
            planted_search(10, (false, false), true, Some(CUTOFF_CHECK_MIN_DEPTH));
        let (without, unchecked, _, _) = planted_search(10, (false, false), false, None);
        assert_eq!(with_checks, without);
        assert_eq!(checked.nodes, unchecked.nodes, "the same tree, node for node");
        assert_eq!(checked.ancestor_returns, 0);
        // A serial search never finds its own node answered on leaving it: nothing is counted twice.
        assert_eq!((checked.duplicate_nodes, unchecked.duplicate_nodes), (0, 0));
    }
}
