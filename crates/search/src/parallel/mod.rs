//! The parallel algorithms, one module each, and the one table of their research knobs.
//!
//! - [`lazy`] — lazy SMP: every thread searches the whole root with the shared table; odd helpers one ply
//!   deeper; the reported move is chosen by a vote weighted by depth and score.
//! - [`ybwc`] — Young Brothers Wait: after a node's eldest son returns without a cutoff, its younger brothers
//!   are searched in parallel by the pool's threads at a split point.
//! - [`abdada`] — Weill's ABDADA (seed 001): every thread searches the root at the same depth; a node a thread
//!   is inside has `nproc > 0` in the table; younger brothers whose node another thread is inside are skipped in
//!   the first pass (the exclusive probe answers ON_EVALUATION) and searched in the second.
//! - [`simplified_abdada`] — Kerrigan's simplified ABDADA (seed 000): the same two passes, but "being searched"
//!   is a separate `currently_searching` table of move hashes, and only at depth ≥ DeferDepth.
//! - [`windows`] — both ABDADAs: the root's aspiration window, widened for every thread by the first to fail it.
//!
//! With one thread every algorithm runs the plain serial search (no hooks): a lone thread has no one to share
//! work with, and Weill's exclusive probe would otherwise see the thread's own path and reorder moves.
//!
//! Every knob — a source text's constant or a measured departure from it — is one row of [`KNOBS`]: its UCI
//! option name, its command-line flag, its type and range, and where it lives in [`ParallelSettings`], whose
//! `Default` is the one place a default is written. The UCI options and the `eldest bench` / `cargo xtask
//! bench` flags are all made from this table.
//!
//! # Examples
//!
//! ```
//! use eldest_board::Position;
//! use eldest_search::{Engine, ParallelAlgorithm, SearchControl, SearchLimits, SearchOptions};
//!
//! let (mut engine, root) = (Engine::new(1)?, Position::startpos());
//! let mut options = SearchOptions { threads: 2, ..SearchOptions::default() };
//! let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
//! for algorithm in ParallelAlgorithm::ALL {
//!     options.parallel.algorithm = algorithm;
//!     let outcome =
//!         engine.search(&root, Default::default(), &limits, &options, &SearchControl::new(), &mut |_| {});
//!     assert!(root.legal_moves().contains(&outcome.best_move.unwrap()), "{algorithm}");
//! }
//! # Ok::<(), eldest_tt::TableSizeError>(())
//! ```

pub mod abdada;
pub mod lazy;
pub(crate) mod pool;
pub mod researches;
pub mod simplified_abdada;
pub mod windows;
pub mod ybwc;

use crate::worker::{CUTOFF_CHECK_MIN_DEPTH, Worker};
use std::fmt;
use std::str::FromStr;

/// A parallel search algorithm (the UCI option `ParallelAlgorithm`).
///
/// ```
/// use eldest_search::ParallelAlgorithm;
/// assert_eq!("simplified-abdada".parse(), Ok(ParallelAlgorithm::SimplifiedAbdada));
/// assert_eq!(ParallelAlgorithm::Ybwc.name(), "ybwc");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ParallelAlgorithm {
    /// Lazy SMP, the modern baseline.
    #[default]
    Lazy,
    /// Weill's ABDADA with the TT `nproc` counter.
    Abdada,
    /// Kerrigan's simplified ABDADA with a `currently_searching` table.
    SimplifiedAbdada,
    /// Young Brothers Wait: younger brothers searched in parallel after the eldest son.
    Ybwc,
}

impl ParallelAlgorithm {
    /// Every algorithm, in the order of the UCI combo option.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::ParallelAlgorithm;
    ///
    /// // Each one is offered, under a name of its own, and the default comes first.
    /// for algorithm in ParallelAlgorithm::ALL {
    ///     assert_eq!(algorithm.name().parse(), Ok(algorithm));
    /// }
    /// assert_eq!(ParallelAlgorithm::ALL[0], ParallelAlgorithm::default());
    /// ```
    pub const ALL: [ParallelAlgorithm; 4] = [
        ParallelAlgorithm::Lazy,
        ParallelAlgorithm::Ybwc,
        ParallelAlgorithm::Abdada,
        ParallelAlgorithm::SimplifiedAbdada,
    ];

    /// The UCI name: `lazy`, `ybwc`, `abdada`, `simplified-abdada`.
    ///
    /// ```
    /// assert_eq!(eldest_search::ParallelAlgorithm::Abdada.name(), "abdada");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ParallelAlgorithm::Lazy => "lazy",
            ParallelAlgorithm::Abdada => "abdada",
            ParallelAlgorithm::SimplifiedAbdada => "simplified-abdada",
            ParallelAlgorithm::Ybwc => "ybwc",
        }
    }

    /// Whether every thread runs its own iterative deepening from the root (lazy SMP and both ABDADAs), as
    /// opposed to YBWC's one iterative deepening whose younger brothers the other threads search.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::ParallelAlgorithm;
    ///
    /// assert!(ParallelAlgorithm::Lazy.every_thread_searches_the_root());
    /// assert!(ParallelAlgorithm::SimplifiedAbdada.every_thread_searches_the_root());
    /// // YBWC's helpers only ever search younger brothers handed to them at split points.
    /// assert!(!ParallelAlgorithm::Ybwc.every_thread_searches_the_root());
    /// ```
    pub const fn every_thread_searches_the_root(self) -> bool {
        !matches!(self, ParallelAlgorithm::Ybwc)
    }
}

impl fmt::Display for ParallelAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown algorithm name.
///
/// # Examples
///
/// ```
/// use eldest_search::{ParallelAlgorithm, ParseAlgorithmError};
///
/// let error = "smp".parse::<ParallelAlgorithm>().unwrap_err();
/// assert_eq!(error, ParseAlgorithmError("smp".to_string()));
/// // The message lists what would have been accepted.
/// assert!(error.to_string().ends_with("expected one of lazy, ybwc, abdada, simplified-abdada"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseAlgorithmError(pub String);

impl fmt::Display for ParseAlgorithmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = ParallelAlgorithm::ALL.iter().map(|a| a.name()).collect();
        write!(
            f,
            "unknown parallel algorithm {:?}; expected one of {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for ParseAlgorithmError {}

impl FromStr for ParallelAlgorithm {
    type Err = ParseAlgorithmError;

    fn from_str(s: &str) -> Result<ParallelAlgorithm, ParseAlgorithmError> {
        ParallelAlgorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseAlgorithmError(s.to_string()))
    }
}

pub use simplified_abdada::CsTableKind;

/// Where the history and the correction history a helper thread reads and updates live: YBWC's `HelperHistory`
/// (a split point's task), Weill's ABDADA's `AbdadaHistory` and simplified ABDADA's `SimplifiedAbdadaHistory` (a
/// helper's own iterative deepening).
///
/// # Examples
///
/// ```
/// use eldest_search::{HelperHistory, ParallelSettings};
///
/// let mut settings = ParallelSettings::default();
/// settings.set_knob("HelperHistory", "shared").unwrap();
/// assert_eq!(settings.ybwc_helper_history, HelperHistory::Shared);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelperHistory {
    /// One table for the whole search, read and updated by every thread (Crafty, Stockfish 6): what one thread
    /// learns orders the others' moves at once, and the main thread's iterative deepening sees all of it. YBWC's
    /// default: in games at 4+0.04 its second thread was worth +120 Elo with it against +35 with `Own`
    /// (docs/parallel-search.md, *One history for YBWC's threads*). Weill's ABDADA's default since 2026-12-02:
    /// +23 Elo against `Own` at 2 threads (*One history for Weill's ABDADA: the game set and games*).
    Shared,
    /// Each thread keeps its own, learnt from the nodes it searched (in this search and earlier ones), as lazy
    /// SMP's threads do; YBWC's main thread then learns only from the nodes it searches outside split points.
    /// Simplified ABDADA's default: with one history its threads order moves alike and meet on the same
    /// brothers, and it was slower on the long set in both runs (docs/parallel-search.md, *One history for the
    /// ABDADAs' threads?*, *The brothers' places*).
    Own,
    /// A helper copies the tables of the thread it helps (YBWC: the splitting thread's, when it joins a split
    /// point; an ABDADA helper: the main thread's, when a search starts; 32 + 64 KB) and keeps what it learns
    /// to itself.
    Copy,
}

impl HelperHistory {
    /// Every setting, in declaration order (`setting as usize` indexes it).
    pub(crate) const ALL: [HelperHistory; 3] =
        [HelperHistory::Shared, HelperHistory::Own, HelperHistory::Copy];
    /// The knob's words, in the same order.
    pub(crate) const WORDS: &'static [&'static str] = &["shared", "own", "copy"];

    /// The knob's word.
    ///
    /// ```
    /// use eldest_search::HelperHistory;
    /// assert_eq!(HelperHistory::Own.word(), "own");
    /// ```
    pub fn word(self) -> &'static str {
        Self::WORDS[self as usize]
    }

    /// The setting a knob word names (`None` for an unknown word).
    ///
    /// ```
    /// use eldest_search::HelperHistory;
    /// assert_eq!(HelperHistory::from_word("copy"), Some(HelperHistory::Copy));
    /// assert_eq!(HelperHistory::from_word("merged"), None);
    /// ```
    pub fn from_word(word: &str) -> Option<HelperHistory> {
        Self::ALL.into_iter().find(|setting| setting.word() == word)
    }
}

/// Whether a raise of a PV node's alpha by one thread stops the younger brothers other threads are searching
/// there against the lower alpha, to search them again against the raised one (`WindowUpdates`; Feldmann's
/// YBWC sends a split node's better bound to the processors searching its brothers). What a stopped brother had
/// finished is in the table: a subtree that failed low against the old alpha fails low against the higher one.
///
/// # Examples
///
/// ```
/// use eldest_search::{ParallelAlgorithm, ParallelSettings, WindowUpdates};
///
/// let mut settings = ParallelSettings::default();
/// assert_eq!(settings.window_updates, WindowUpdates::Auto);
/// assert!(settings.window_updates_for(ParallelAlgorithm::Ybwc, 2));
/// assert!(!settings.window_updates_for(ParallelAlgorithm::Ybwc, 16));
/// assert!(!settings.window_updates_for(ParallelAlgorithm::Abdada, 2));
/// settings.set_knob("WindowUpdates", "true").unwrap();
/// assert!(settings.window_updates_for(ParallelAlgorithm::Ybwc, 16));
/// assert!(settings.window_updates_for(ParallelAlgorithm::SimplifiedAbdada, 2));
/// assert!(!settings.window_updates_for(ParallelAlgorithm::Lazy, 2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowUpdates {
    /// The default: YBWC's split points below [`MANY_THREADS`] threads, nothing else. At two threads YBWC took
    /// 0.95 of the time without them on the long set over 24 paired rounds and 0.97 on the game set over 18, and
    /// played even in 400 games at 4+0.04; at 16 threads 1.14 in one run; the ABDADAs showed no change either
    /// way at two (docs/parallel-search.md, *Window updates on by default for YBWC below 8 threads*, *Window
    /// updates for the ABDADAs*).
    Auto,
    /// YBWC and both ABDADAs at every thread count (lazy SMP's threads share no node).
    On,
    /// Never: the brothers finish against the alpha they began with, as in Stockfish 6 and Crafty.
    Off,
}

impl WindowUpdates {
    /// Every setting, in declaration order (`setting as usize` indexes it).
    const ALL: [WindowUpdates; 3] = [WindowUpdates::Auto, WindowUpdates::On, WindowUpdates::Off];
    /// The knob's words, in the same order: `true` and `false` as for a check option, so the spellings of the
    /// option's earlier boolean type keep their meaning.
    pub(crate) const WORDS: &'static [&'static str] = &["auto", "true", "false"];

    /// The knob's word.
    ///
    /// ```
    /// use eldest_search::WindowUpdates;
    /// assert_eq!(WindowUpdates::On.word(), "true");
    /// ```
    pub fn word(self) -> &'static str {
        Self::WORDS[self as usize]
    }

    /// The setting a knob word names, in any case (`None` for an unknown word).
    ///
    /// ```
    /// use eldest_search::WindowUpdates;
    /// assert_eq!(WindowUpdates::from_word("FALSE"), Some(WindowUpdates::Off));
    /// assert_eq!(WindowUpdates::from_word("sometimes"), None);
    /// ```
    pub fn from_word(word: &str) -> Option<WindowUpdates> {
        Self::ALL
            .into_iter()
            .find(|setting| setting.word().eq_ignore_ascii_case(word))
    }
}

impl Worker {
    /// Makes this helper's history and correction history what `setting` says with respect to `main`'s: the
    /// same tables, a private copy of them, or private tables of its own (which a shared handle becomes by
    /// taking a copy of the shared values).
    pub(crate) fn learn_with(&mut self, main: &Worker, setting: HelperHistory) {
        match setting {
            HelperHistory::Shared => {
                if !self.history.table.is_shared_with(&main.history.table) {
                    self.history.table = main.history.table.share();
                    self.correction.table = main.correction.table.share();
                }
            }
            HelperHistory::Own | HelperHistory::Copy => {
                self.history.table.make_private();
                self.correction.table.make_private();
                if setting == HelperHistory::Copy {
                    self.history.copy_from(&main.history);
                    self.correction.copy_from(&main.correction);
                }
            }
        }
    }
}

/// The algorithm and its research knobs. `Default` holds every knob's default (the only place it is written);
/// [`KNOBS`] says how each is named, typed and bounded.
///
/// ```
/// use eldest_search::{ParallelAlgorithm, ParallelSettings};
/// let mut settings = ParallelSettings::default();
/// settings.set_knob("MinSplitDepth", "5").unwrap();
/// assert_eq!(settings.min_split_depth, 5);
/// assert!(settings.set_knob("MinSplitDepth", "65").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParallelSettings {
    /// Which algorithm runs the threads.
    pub algorithm: ParallelAlgorithm,
    /// Simplified ABDADA: the shallowest remaining depth at which moves are marked and deferred (note 1).
    pub defer_depth: i32,
    /// Simplified ABDADA: rows of the `currently_searching` table (a power of two).
    pub cs_rows: usize,
    /// Simplified ABDADA: ways (slots) per row (note 2).
    pub cs_ways: usize,
    /// Simplified ABDADA: a move's mark goes in the row of its node's key, so the checks of a node's younger
    /// brothers read one row (one cache line) instead of one row each (Kerrigan's placement by the move's
    /// hash, note 4); the rows get at least one way per thread, as many as can search one node's moves.
    pub cs_rows_by_node: bool,
    /// Simplified ABDADA: which structure holds the `currently_searching` marks.
    pub cs_table: CsTableKind,
    /// YBWC: the shallowest remaining depth at which a node's younger brothers are searched in parallel; 0 (the
    /// default) chooses by the number of threads, see [`ParallelSettings::min_split_depth_for`].
    pub min_split_depth: i32,
    /// YBWC: split only while some thread of the pool is idle (Stockfish 6 and Crafty split only for an idle
    /// thread); when false every node of `min_split_depth` splits, as in Feldmann's YBWC.
    pub split_only_when_idle: bool,
    /// YBWC: nodes of at least this remaining depth split after their eldest son even while every thread is
    /// busy; the spare tasks wait in the splitting thread's queue, and a thread that becomes idle steals the
    /// oldest, the shallowest such node's brothers (DTS's help at an ancestor, instead of waiting for the
    /// busy thread's next deep enough node). 0: never (only `SplitOnlyWhenIdle` decides).
    pub ybwc_eager_split_depth: i32,
    /// YBWC: a null-window node whose static evaluation is at least beta (expected to fail high on a later move)
    /// splits like any other; when false it searches its younger brothers alone, so no helper starts work that a
    /// cutoff is likely to throw away.
    pub ybwc_split_expected_cuts: bool,
    /// YBWC: a node may split after any of its sons when a thread is idle then, as Stockfish 6's move loop offers
    /// a split after every move (the default); when false only right after the eldest son, so a thread that becomes
    /// idle later waits for the next node whose eldest son returns.
    pub ybwc_late_splits: bool,
    /// YBWC: when a brother raises a PV split point's alpha, the brothers still being searched there with the
    /// lower alpha are stopped and searched again against the raised one (Feldmann's window updates: the new
    /// bound is sent to the processors searching the brothers); what they had finished is in the table. When
    /// false they finish with the alpha they began with (Stockfish 6, Crafty).
    ///
    /// The ABDADAs: the same for a PV node's threads, which share its alpha as `shared_alpha` has them (the
    /// knob turns that on): a thread searching a younger brother of a PV node whose alpha another thread has
    /// raised since (seen by the periodic re-probes of the path, as the ancestor checks' are) leaves it and
    /// searches it again against the raised alpha.
    ///
    /// By default ([`WindowUpdates::Auto`]) YBWC's below [`MANY_THREADS`] threads only; what a search does is
    /// [`ParallelSettings::window_updates_for`].
    pub window_updates: WindowUpdates,
    /// YBWC and the ABDADAs: the sons a node still expected to fail high (a null-window node whose static
    /// evaluation is at least beta) searches before its younger brothers are shared out — YBWC's node may split
    /// after them, the ABDADAs' thread defers no brother before them but searches it with the thread already in
    /// it (1: only the eldest, as for every other node). Each son that returns without a cutoff makes the node
    /// likelier an all node, where sharing its brothers wastes nothing.
    pub expected_cut_sons: usize,
    /// YBWC: the most threads, the splitting one included, that search one split point's brothers (Crafty's
    /// `smp_split_group`, 8; Stockfish 6's four slaves and their master, 5). The default, 256, offers every pool
    /// thread a task at every split point.
    pub ybwc_split_group: usize,
    /// YBWC: whether the threads share one history and correction history, each pool thread keeps its own, or
    /// a thread joining a split point copies the splitting thread's.
    pub ybwc_helper_history: HelperHistory,
    /// YBWC: the killers found below a split point's brothers go on to the next brother searched there and back
    /// to the splitting thread afterwards, as the serial search hands a node's killers from one son's subtree to
    /// the next and on to the node's later brothers; when false (Stockfish 6, Crafty) a task keeps those it
    /// finds to itself and the splitting thread searches on with the killers it had before the split.
    pub ybwc_split_killers: bool,
    /// YBWC: at a PV split point, a brother that beats alpha in its null-window search and is searched again
    /// with the full window is waited for as an eldest son is: no further brother is handed out until that
    /// search returns, and the threads that would have taken one help inside it instead. Its result may cut
    /// the node (the aspiration bound, at the PV nodes of the leftmost path) or raise alpha, and the brothers
    /// searched meanwhile against the old alpha are then wasted or searched again; when false (Stockfish 6,
    /// Crafty) the other threads go on with the brothers.
    pub ybwc_wait_for_research: bool,
    /// YBWC: while a search runs, idle pool threads poll for split-point work without sleeping (Crafty's and
    /// Stockfish 6's threads spin between split points); when false they sleep in rayon's idle loop and a split
    /// point wakes them.
    pub ybwc_spin: bool,
    /// Classic ABDADA: the shallowest remaining depth at which a thread enters a node's `nproc` count (and
    /// younger brothers are probed exclusively). Weill enters every node (1).
    pub abdada_min_depth: i32,
    /// Classic ABDADA: a thread enters a node with its table probe, as Weill's `retrieveAsk` does; when false it
    /// enters only after null-move and reverse futility pruning, so nodes those prune are never entered.
    pub abdada_enter_before_pruning: bool,
    /// Classic ABDADA: the `nproc` counts are kept in a small table of their own, on cache lines away from the
    /// transposition table's entries, and a younger brother's entry is read only when another thread is counted
    /// in it; when false they are kept in the entries, as Weill keeps them, and every younger brother's
    /// exclusive probe reads its entry before the move is made.
    pub abdada_nproc_table: bool,
    /// Classic ABDADA: instead of counting the threads in a node (`nproc`, a compare-and-swap at each enter and
    /// leave), each thread marks the node it enters in a table like Kerrigan's `currently_searching`, keyed by
    /// the node, with plain stores, and clears the mark when it leaves; a younger brother is deferred when its
    /// node is marked and its entry does not answer it. A set, not a count: a thread leaving a node another
    /// thread is still in may clear the mark, and the other's next brothers there are then not deferred (a
    /// missed deferral, never a wrong result, as Kerrigan's note 3 accepts).
    pub abdada_nproc_marks: bool,
    /// Both ABDADAs: Kerrigan's cutoff checks — from depth 4, in a node that has deferred moves, re-probe the
    /// node's own table entry before each move and return on a cutoff another thread stored.
    pub cutoff_checks: bool,
    /// Both ABDADAs: ancestor checks — every few hundred nodes a thread re-probes the non-PV nodes of its path
    /// (from depth 4) and leaves a subtree whose ancestor another thread's stored result now cuts, returning that
    /// result from the ancestor.
    pub ancestor_checks: bool,
    /// Both ABDADAs: a thread that is still searching an iteration another thread has completed abandons it and
    /// starts the next one.
    pub skip_completed_iterations: bool,
    /// Both ABDADAs: the first thread whose root search fails the iteration's aspiration window widens it for
    /// all, and the threads still inside the old window leave it and join the new one (YBWC's threads share
    /// one aspiration loop by construction). When false each thread widens its own window when it fails it.
    pub shared_windows: bool,
    /// Both ABDADAs: in a PV node of depth 4 or more, a thread that raises alpha stores the new bound in the
    /// node's table entry at once, and a thread in the same node re-reads the entry before each move and raises
    /// its own alpha to it, as the threads of a YBWC split point share its alpha; the other thread's move is then
    /// searched when this thread reaches it, for its line. When false each thread's alpha rises only with the
    /// moves it searched itself (Weill, Kerrigan).
    pub shared_alpha: bool,
    /// Classic ABDADA, with `ancestor_checks` and several threads: the ancestor checks re-probe the PV nodes
    /// below the root too, against their window on entry, so a thread leaves a PV node another thread has
    /// finished (its exact score stored) instead of searching the rest of its moves again. When false only
    /// non-PV nodes are re-probed: a PV node searches on for its line. On by default: +18 Elo in games.
    pub abdada_pv_ancestor_checks: bool,
    /// Simplified ABDADA: the same choice as `abdada_pv_ancestor_checks`, measured apart: alone −10 Elo in games,
    /// with `simplified_abdada_history` shared +23 Elo, so on by default as that is shared.
    pub simplified_abdada_pv_ancestor_checks: bool,
    /// Both ABDADAs, with their PV ancestor checks: the shallowest remaining depth of a PV node the ancestor checks
    /// re-probe (4, the checks' own floor, re-probes them all). Leaving a shallow PV node saves little and ends
    /// the reported line there; a deep one is where the thread would search a finished subtree's moves again.
    pub pv_ancestor_min_depth: i32,
    /// Both ABDADAs: the brothers searched after a deferred move keep the place the serial move loop gives
    /// them (the deferred moves counted), so late-move reductions and pruning treat them as one thread would;
    /// when false they count only the moves this thread has searched, and each deferral makes every later
    /// brother one move "earlier" — reduced and pruned less.
    pub brothers_keep_places: bool,
    /// Both ABDADAs: at a null-window node not expected to fail high (its static evaluation below beta, or in
    /// check) the eldest son is deferred too when another thread is in it. Weill and Kerrigan search the eldest
    /// son regardless, so that its result narrows the window of the brothers; a null window cannot narrow, and
    /// at a node expected to fail low every son is searched anyway, so the thread that finds another in the
    /// eldest son takes a younger brother instead of following it down its path.
    pub defer_eldest: bool,
    /// Both ABDADAs (0: off): at PV nodes of at least this remaining depth, a thread searching a brother again
    /// with the full window (it beat alpha in its null-window search) posts it, and another thread at the node
    /// searches it with the full window before its own next brother, as Kerrigan's note 5.2 means a re-search
    /// to be helped; without the knob the other thread goes on with its brothers against the old alpha and
    /// comes to the re-searched one only in its own order, if at all.
    pub help_research_depth: i32,
    /// Both ABDADAs: odd helpers search each iteration one ply deeper than the main thread, as lazy SMP's do, so
    /// a helper walks the next iteration's leftmost path while the main thread finishes the current one.
    pub abdada_staggered_depths: bool,
    /// Classic ABDADA: whether the helpers share the main thread's history and correction history, keep their
    /// own, or copy the main thread's when a search starts.
    pub abdada_history: HelperHistory,
    /// Simplified ABDADA: the same choice as `abdada_history`, measured apart; shared by default, together with
    /// its PV ancestor checks (+23 Elo in games against neither).
    pub simplified_abdada_history: HelperHistory,
    /// Lazy SMP: choose the reported move by a vote of the threads weighted by depth and score (Stockfish);
    /// when false, or under a depth limit, or with several lines (MultiPV), the deepest completed iteration wins.
    pub lazy_vote: bool,
    /// Both ABDADAs in a cluster (an [`EntryExchange`](crate::EntryExchange) is set): announce to the other
    /// processes the nodes (Weill) or moves (Kerrigan) this one starts searching, and defer those they announced,
    /// as Texel's busy bit does. A process of one thread then runs the algorithm's hooks too.
    pub cluster_busy_hints: bool,
    /// With `cluster_busy_hints`, an experiment after Weill's distributed table: each node's (Weill) or move's
    /// (Kerrigan) searchers are counted at an owner process chosen by its key, and a younger brother is deferred
    /// when its owner counts a searcher — asked when it is needed, instead of hints broadcast a round late.
    /// Needs an exchange that has owners (the MPI transport under `MPI_THREAD_MULTIPLE`); without, hints.
    pub cluster_busy_owners: bool,
    /// With `cluster_busy_owners`: the shallowest node (Weill: its remaining depth) or move (Kerrigan: its
    /// node's depth) counted at an owner; every count costs round trips to the owner.
    pub cluster_owner_depth: i32,
    /// In a cluster, where depths are staggered (lazy SMP, and the ABDADAs with `StaggeredDepths`): number the
    /// threads across processes, so that a process's main thread counts as a helper of the whole cluster and
    /// odd-numbered ones search one ply deeper. When false every process staggers its own threads alone, and
    /// the main threads of all processes search the same depths.
    pub cluster_staggered_ranks: bool,
}

impl Default for ParallelSettings {
    fn default() -> ParallelSettings {
        ParallelSettings {
            algorithm: ParallelAlgorithm::Lazy,
            defer_depth: 3,
            cs_rows: 32_768,
            cs_ways: 4,
            cs_rows_by_node: true,
            cs_table: CsTableKind::Array,
            min_split_depth: 0,
            split_only_when_idle: true,
            ybwc_eager_split_depth: 0,
            ybwc_split_expected_cuts: true,
            ybwc_late_splits: true,
            window_updates: WindowUpdates::Auto,
            expected_cut_sons: 1,
            ybwc_split_group: 256,
            ybwc_helper_history: HelperHistory::Shared,
            ybwc_spin: true,
            ybwc_split_killers: false,
            ybwc_wait_for_research: false,
            abdada_min_depth: 1,
            abdada_enter_before_pruning: false,
            abdada_nproc_table: false,
            abdada_nproc_marks: false,
            cutoff_checks: false,
            ancestor_checks: true,
            skip_completed_iterations: true,
            shared_windows: false,
            shared_alpha: false,
            abdada_pv_ancestor_checks: true,
            simplified_abdada_pv_ancestor_checks: true,
            pv_ancestor_min_depth: CUTOFF_CHECK_MIN_DEPTH,
            brothers_keep_places: true,
            defer_eldest: false,
            help_research_depth: 0,
            abdada_staggered_depths: false,
            abdada_history: HelperHistory::Shared,
            simplified_abdada_history: HelperHistory::Shared,
            lazy_vote: true,
            cluster_busy_hints: true,
            cluster_busy_owners: false,
            cluster_owner_depth: 6,
            cluster_staggered_ranks: false,
        }
    }
}

/// The type and range of a knob.
///
/// # Examples
///
/// ```
/// use eldest_search::{KnobKind, find_knob};
///
/// let kind = |name| find_knob(name).unwrap().kind;
/// assert_eq!(kind("CsWays"), KnobKind::Spin { min: 1, max: 64 });
/// assert_eq!(kind("LazyVote"), KnobKind::Check);
/// assert_eq!(kind("CsTable"), KnobKind::Combo(&["array", "dashmap"]));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnobKind {
    /// An integer in `min..=max` (UCI `spin`).
    Spin {
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// A boolean (UCI `check`).
    Check,
    /// One of a few words (UCI `combo`).
    Combo(&'static [&'static str]),
}

/// A knob's value.
///
/// # Examples
///
/// ```
/// use eldest_search::{KnobValue, find_knob};
///
/// // A value prints as the knob reads it, so it can be passed on as text.
/// for (name, value) in [("DeferDepth", KnobValue::Int(5)), ("IdleSpin", KnobValue::Bool(false)),
///                       ("HelperHistory", KnobValue::Word("copy"))] {
///     assert_eq!(find_knob(name).unwrap().parse(&value.to_string()), Ok(value));
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnobValue {
    /// For [`KnobKind::Spin`].
    Int(i64),
    /// For [`KnobKind::Check`].
    Bool(bool),
    /// For [`KnobKind::Combo`], spelled as declared.
    Word(&'static str),
}

impl fmt::Display for KnobValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KnobValue::Int(n) => write!(f, "{n}"),
            KnobValue::Bool(b) => write!(f, "{b}"),
            KnobValue::Word(w) => f.write_str(w),
        }
    }
}

/// A value a knob refuses, or a knob that does not exist.
///
/// # Examples
///
/// ```
/// use eldest_search::ParallelSettings;
///
/// let mut settings = ParallelSettings::default();
/// let error = settings.set_knob("DeferDepth", "0").unwrap_err();
/// assert_eq!(error.to_string(), "DeferDepth: invalid value \"0\", expected an integer from 1 to 64");
/// assert!(settings.set_knob("Contempt", "10").unwrap_err().0.contains("no parallel-search knob"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnobError(pub String);

impl fmt::Display for KnobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KnobError {}

/// One research knob of a parallel algorithm: a row of [`KNOBS`].
///
/// # Examples
///
/// ```
/// use eldest_search::{ParallelAlgorithm, find_knob};
///
/// let knob = find_knob("DeferDepth").unwrap();
/// assert_eq!(knob.flag, "defer-depth");
/// // Only simplified ABDADA reads it: the UCI layer can say so, and the other algorithms ignore it.
/// assert_eq!(knob.algorithms, [ParallelAlgorithm::SimplifiedAbdada]);
/// assert!(knob.help.starts_with("simplified ABDADA"));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Knob {
    /// The UCI option name, e.g. `DeferDepth`.
    pub name: &'static str,
    /// The command-line flag of `eldest bench` and `cargo xtask bench`, without dashes, e.g. `defer-depth`.
    pub flag: &'static str,
    /// The algorithm it tunes.
    pub algorithms: &'static [ParallelAlgorithm],
    /// Type and range.
    pub kind: KnobKind,
    /// One line for `--help` and docs.
    pub help: &'static str,
    get: fn(&ParallelSettings) -> KnobValue,
    set: fn(&mut ParallelSettings, KnobValue),
}

impl PartialEq for Knob {
    fn eq(&self, other: &Knob) -> bool {
        self.name == other.name
    }
}

impl Eq for Knob {}

impl Knob {
    /// The default value (from `ParallelSettings::default()`).
    ///
    /// ```
    /// use eldest_search::{KnobValue, find_knob};
    /// assert_eq!(find_knob("DeferDepth").unwrap().default_value(), KnobValue::Int(3));
    /// ```
    pub fn default_value(&self) -> KnobValue {
        (self.get)(&ParallelSettings::default())
    }

    /// The value in `settings`.
    ///
    /// ```
    /// use eldest_search::{KnobValue, ParallelSettings, find_knob};
    /// let knob = find_knob("cutoff-checks").unwrap();
    /// assert_eq!(knob.value(&ParallelSettings::default()), knob.default_value());
    /// ```
    pub fn value(&self, settings: &ParallelSettings) -> KnobValue {
        (self.get)(settings)
    }

    /// Parses and range-checks `text` (integers, `true`/`false`, or one of the words, case-insensitively).
    ///
    /// # Errors
    /// A [`KnobError`] saying what the knob accepts.
    ///
    /// ```
    /// use eldest_search::{KnobValue, find_knob};
    /// let knob = find_knob("MinSplitDepth").unwrap();
    /// assert_eq!(knob.parse("6"), Ok(KnobValue::Int(6)));
    /// assert!(knob.parse("-1").is_err() && knob.parse("six").is_err());
    /// ```
    pub fn parse(&self, text: &str) -> Result<KnobValue, KnobError> {
        let text = text.trim();
        let refuse = |expected: String| {
            KnobError(format!(
                "{}: invalid value {text:?}, expected {expected}",
                self.name
            ))
        };
        match self.kind {
            KnobKind::Spin { min, max } => match text.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(KnobValue::Int(n)),
                _ => Err(refuse(format!("an integer from {min} to {max}"))),
            },
            KnobKind::Check => match text.to_ascii_lowercase().as_str() {
                "true" => Ok(KnobValue::Bool(true)),
                "false" => Ok(KnobValue::Bool(false)),
                _ => Err(refuse("true or false".to_string())),
            },
            KnobKind::Combo(words) => words
                .iter()
                .find(|w| w.eq_ignore_ascii_case(text))
                .map(|&w| KnobValue::Word(w))
                .ok_or_else(|| refuse(format!("one of {}", words.join(", ")))),
        }
    }

    /// Sets the knob in `settings` to a value [`Knob::parse`] accepted.
    ///
    /// ```
    /// use eldest_search::{KnobValue, ParallelSettings, find_knob};
    /// let mut settings = ParallelSettings::default();
    /// find_knob("CsWays").unwrap().apply(&mut settings, KnobValue::Int(8));
    /// assert_eq!(settings.cs_ways, 8);
    /// ```
    pub fn apply(&self, settings: &mut ParallelSettings, value: KnobValue) {
        (self.set)(settings, value);
    }
}

fn int(value: KnobValue) -> i64 {
    match value {
        KnobValue::Int(n) => n,
        KnobValue::Bool(b) => i64::from(b),
        KnobValue::Word(_) => 0,
    }
}

fn boolean(value: KnobValue) -> bool {
    matches!(value, KnobValue::Bool(true)) || matches!(value, KnobValue::Int(n) if n != 0)
}

/// The setting of a combo knob that `from_word` finds for the knob's word; `current` for anything else (a parsed
/// combo value is always one of its words).
fn word_setting<T>(value: KnobValue, current: T, from_word: fn(&str) -> Option<T>) -> T {
    match value {
        KnobValue::Word(word) => from_word(word).unwrap_or(current),
        KnobValue::Int(_) | KnobValue::Bool(_) => current,
    }
}

/// Every knob of every algorithm: the UCI options and the bench flags are made from this table.
///
/// # Examples
///
/// ```
/// use eldest_search::{KNOBS, ParallelSettings};
///
/// for knob in KNOBS {
///     // Every default is a value the knob accepts, so the UCI options start valid.
///     assert_eq!(knob.parse(&knob.default_value().to_string()), Ok(knob.default_value()), "{}", knob.name);
///     assert_eq!(knob.value(&ParallelSettings::default()), knob.default_value());
/// }
/// ```
pub static KNOBS: &[Knob] = &[
    Knob {
        name: "MinSplitDepth",
        flag: "min-split-depth",
        algorithms: &[ParallelAlgorithm::Ybwc],
        kind: KnobKind::Spin { min: 0, max: 64 },
        help: "YBWC: split nodes of at least this remaining depth (0: by thread count, 4 below 8 threads, 6 from 8)",
        get: |s| KnobValue::Int(i64::from(s.min_split_depth)),
        set: |s, v| s.min_split_depth = int(v) as i32,
    },
    Knob {
        name: "SplitOnlyWhenIdle",
        flag: "split-only-when-idle",
        algorithms: &[ParallelAlgorithm::Ybwc],
        kind: KnobKind::Check,
        help: "YBWC: split only while a pool thread is idle (false: every deep enough node splits)",
        get: |s| KnobValue::Bool(s.split_only_when_idle),
        set: |s, v| s.split_only_when_idle = boolean(v),
    },
    Knob {
        name: "EagerSplitDepth",
        flag: "eager-split-depth",
        algorithms: &[ParallelAlgorithm::Ybwc],
        kind: KnobKind::Spin { min: 0, max: 64 },
        help: "YBWC: nodes of at least this remaining depth split even while no thread is idle; their spare tasks wait for the next idle thread (0: never)",
        get: |s| KnobValue::Int(i64::from(s.ybwc_eager_split_depth)),
        set: |s, v| s.ybwc_eager_split_depth = int(v) as i32,
    },
    Knob {
        name: "SplitExpectedCuts",
        flag: "split-expected-cuts",
        algorithms: &[ParallelAlgorithm::Ybwc],
        kind: KnobKind::Check,
        help: "YBWC: a null-window node whose static evaluation is at least beta splits too (false: it keeps its brothers)",
        get: |s| KnobValue::Bool(s.ybwc_split_expected_cuts),
        set: |s, v| s.ybwc_split_expected_cuts = boolean(v),
    },
    Knob {
        name: "LateSplits",
        flag: "late-splits",
        algorithms: &[ParallelAlgorithm::Ybwc],
        kind: KnobKind::Check,
        help: "YBWC: a node may split after any son, not only right after the eldest (Stockfish 6)",
        get: |s| KnobValue::Bool(s.ybwc_late_splits),
        set: |s, v| s.ybwc_late_splits = boolean(v),
    },
    Knob {
        name: "WindowUpdates",
        flag: "window-updates",
        algorithms: &[
            ParallelAlgorithm::Ybwc,
            ParallelAlgorithm::Abdada,
            ParallelAlgorithm::SimplifiedAbdada,
        ],
        kind: KnobKind::Combo(WindowUpdates::WORDS),
        help: "YBWC and both ABDADAs: a raise of a PV node's alpha by one thread stops the brothers another searches there with the lower one, which are searched again against it (Feldmann; the ABDADAs share PV nodes' alphas for it, as SharedAlpha does; auto: YBWC below 8 threads only)",
        get: |s| KnobValue::Word(s.window_updates.word()),
        set: |s, v| s.window_updates = word_setting(v, s.window_updates, WindowUpdates::from_word),
    },
    Knob {
        name: "ExpectedCutSons",
        flag: "expected-cut-sons",
        algorithms: &[
            ParallelAlgorithm::Ybwc,
            ParallelAlgorithm::Abdada,
            ParallelAlgorithm::SimplifiedAbdada,
        ],
        kind: KnobKind::Spin { min: 1, max: 16 },
        help: "YBWC and the ABDADAs: the sons a node still expected to fail high searches before its brothers are shared out (YBWC splits, the ABDADAs defer)",
        get: |s| KnobValue::Int(s.expected_cut_sons as i64),
        set: |s, v| s.expected_cut_sons = int(v) as usize,
    },
    Knob {
        name: "SplitGroup",
        flag: "split-group",
        algorithms: &[ParallelAlgorithm::Ybwc],
        kind: KnobKind::Spin { min: 2, max: 256 },
        help: "YBWC: the most threads (the splitting one included) that search one split point (Crafty 8, Stockfish 6 5; 256: all)",
        get: |s| KnobValue::Int(s.ybwc_split_group as i64),
        set: |s, v| s.ybwc_split_group = int(v) as usize,
    },
    Knob {
        name: "HelperHistory",
        flag: "helper-history",
        algorithms: &[ParallelAlgorithm::Ybwc],
        kind: KnobKind::Combo(HelperHistory::WORDS),
        help: "YBWC: the threads share one history (Crafty, Stockfish 6), each keeps its own, or a joining thread copies the splitting thread's",
        get: |s| KnobValue::Word(s.ybwc_helper_history.word()),
        set: |s, v| s.ybwc_helper_history = word_setting(v, s.ybwc_helper_history, HelperHistory::from_word),
    },
    Knob {
        name: "IdleSpin",
        flag: "idle-spin",
        algorithms: &[ParallelAlgorithm::Ybwc],
        kind: KnobKind::Check,
        help: "YBWC: idle threads poll for split points during a search instead of sleeping (Crafty, Stockfish 6)",
        get: |s| KnobValue::Bool(s.ybwc_spin),
        set: |s, v| s.ybwc_spin = boolean(v),
    },
    Knob {
        name: "SplitKillers",
        flag: "split-killers",
        algorithms: &[ParallelAlgorithm::Ybwc],
        kind: KnobKind::Check,
        help: "YBWC: the killers found below a split point's brothers pass to the next brother and back to the splitting thread (false: each task keeps its own, as in Stockfish 6 and Crafty)",
        get: |s| KnobValue::Bool(s.ybwc_split_killers),
        set: |s, v| s.ybwc_split_killers = boolean(v),
    },
    Knob {
        name: "WaitForResearch",
        flag: "wait-for-research",
        algorithms: &[ParallelAlgorithm::Ybwc],
        kind: KnobKind::Check,
        help: "YBWC: at a PV split point, a brother searched again with the full window after beating alpha is waited for as an eldest son is, the other threads helping inside it (false: they go on with the brothers, as in Stockfish 6 and Crafty)",
        get: |s| KnobValue::Bool(s.ybwc_wait_for_research),
        set: |s, v| s.ybwc_wait_for_research = boolean(v),
    },
    Knob {
        name: "AbdadaMinDepth",
        flag: "abdada-min-depth",
        algorithms: &[ParallelAlgorithm::Abdada],
        kind: KnobKind::Spin { min: 1, max: 64 },
        help: "ABDADA: enter nproc and probe exclusively only at this remaining depth or more (1: every node, as Weill does)",
        get: |s| KnobValue::Int(i64::from(s.abdada_min_depth)),
        set: |s, v| s.abdada_min_depth = int(v) as i32,
    },
    Knob {
        name: "EnterBeforePruning",
        flag: "enter-before-pruning",
        algorithms: &[ParallelAlgorithm::Abdada],
        kind: KnobKind::Check,
        help: "ABDADA: enter a node with its table probe (Weill) instead of after null-move and futility pruning",
        get: |s| KnobValue::Bool(s.abdada_enter_before_pruning),
        set: |s, v| s.abdada_enter_before_pruning = boolean(v),
    },
    Knob {
        name: "NprocTable",
        flag: "nproc-table",
        algorithms: &[ParallelAlgorithm::Abdada],
        kind: KnobKind::Check,
        help: "ABDADA: keep nproc in a small table of its own, away from the entries the other threads probe (Weill: in the entries, false)",
        get: |s| KnobValue::Bool(s.abdada_nproc_table),
        set: |s, v| s.abdada_nproc_table = boolean(v),
    },
    Knob {
        name: "NprocMarks",
        flag: "nproc-marks",
        algorithms: &[ParallelAlgorithm::Abdada],
        kind: KnobKind::Check,
        help: "ABDADA: mark the nodes threads are in with plain stores in a table like Kerrigan's currently_searching instead of counting them with compare-and-swap (Weill: counts, false)",
        get: |s| KnobValue::Bool(s.abdada_nproc_marks),
        set: |s, v| s.abdada_nproc_marks = boolean(v),
    },
    Knob {
        name: "DeferDepth",
        flag: "defer-depth",
        algorithms: &[ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Spin { min: 1, max: 64 },
        help: "simplified ABDADA: mark and defer moves only at this remaining depth or more (Kerrigan: 3)",
        get: |s| KnobValue::Int(i64::from(s.defer_depth)),
        set: |s, v| s.defer_depth = int(v) as i32,
    },
    Knob {
        name: "CsTableRows",
        flag: "cs-rows",
        algorithms: &[ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Spin { min: 1, max: 1 << 22 },
        help: "simplified ABDADA: rows of currently_searching, rounded up to a power of two (Kerrigan: 32768)",
        get: |s| KnobValue::Int(s.cs_rows as i64),
        set: |s, v| s.cs_rows = int(v) as usize,
    },
    Knob {
        name: "CsWays",
        flag: "cs-ways",
        algorithms: &[ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Spin { min: 1, max: 64 },
        help: "simplified ABDADA: slots per row of currently_searching (Kerrigan: 4)",
        get: |s| KnobValue::Int(s.cs_ways as i64),
        set: |s, v| s.cs_ways = int(v) as usize,
    },
    Knob {
        name: "CsRowsByNode",
        flag: "cs-rows-by-node",
        algorithms: &[ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "simplified ABDADA: a node's moves share one row of currently_searching, at least one way per thread (Kerrigan: false, a row per move hash)",
        get: |s| KnobValue::Bool(s.cs_rows_by_node),
        set: |s, v| s.cs_rows_by_node = boolean(v),
    },
    Knob {
        name: "CsTable",
        flag: "cs-table",
        algorithms: &[ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Combo(&["array", "dashmap"]),
        help: "simplified ABDADA: the structure behind currently_searching",
        get: |s| KnobValue::Word(s.cs_table.name()),
        set: |s, v| {
            if let KnobValue::Word(word) = v {
                s.cs_table = word.parse().unwrap_or_default();
            }
        },
    },
    Knob {
        name: "CutoffChecks",
        flag: "cutoff-checks",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "both ABDADAs: Kerrigan's cutoff checks (re-probe a node with deferred moves before each move)",
        get: |s| KnobValue::Bool(s.cutoff_checks),
        set: |s, v| s.cutoff_checks = boolean(v),
    },
    Knob {
        name: "AncestorChecks",
        flag: "ancestor-checks",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "both ABDADAs: leave a subtree when another thread's stored result cuts a node of the path above",
        get: |s| KnobValue::Bool(s.ancestor_checks),
        set: |s, v| s.ancestor_checks = boolean(v),
    },
    Knob {
        name: "AbdadaPvAncestorChecks",
        flag: "abdada-pv-ancestor-checks",
        algorithms: &[ParallelAlgorithm::Abdada],
        kind: KnobKind::Check,
        help: "ABDADA: the ancestor checks re-probe PV nodes too and leave one another thread has finished",
        get: |s| KnobValue::Bool(s.abdada_pv_ancestor_checks),
        set: |s, v| s.abdada_pv_ancestor_checks = boolean(v),
    },
    Knob {
        name: "SimplifiedAbdadaPvAncestorChecks",
        flag: "simplified-abdada-pv-ancestor-checks",
        algorithms: &[ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "simplified ABDADA: the ancestor checks re-probe PV nodes too and leave one another thread has finished",
        get: |s| KnobValue::Bool(s.simplified_abdada_pv_ancestor_checks),
        set: |s, v| s.simplified_abdada_pv_ancestor_checks = boolean(v),
    },
    Knob {
        name: "PvAncestorMinDepth",
        flag: "pv-ancestor-min-depth",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        // Below the ancestor checks' own floor no node is on the checked path: a smaller value would read as more.
        kind: KnobKind::Spin {
            min: CUTOFF_CHECK_MIN_DEPTH as i64,
            max: 64,
        },
        help: "both ABDADAs, with their PV ancestor checks: re-probe only PV nodes of at least this remaining depth (4: all)",
        get: |s| KnobValue::Int(i64::from(s.pv_ancestor_min_depth)),
        set: |s, v| s.pv_ancestor_min_depth = int(v) as i32,
    },
    Knob {
        name: "SkipCompletedIterations",
        flag: "skip-completed-iterations",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "both ABDADAs: abandon an iteration another thread has completed",
        get: |s| KnobValue::Bool(s.skip_completed_iterations),
        set: |s, v| s.skip_completed_iterations = boolean(v),
    },
    Knob {
        name: "SharedWindows",
        flag: "shared-windows",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "both ABDADAs: the first thread to fail the root's aspiration window widens it for all threads, which leave the old window at once",
        get: |s| KnobValue::Bool(s.shared_windows),
        set: |s, v| s.shared_windows = boolean(v),
    },
    Knob {
        name: "SharedAlpha",
        flag: "shared-alpha",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "both ABDADAs: a thread raising alpha in a PV node stores it at once, and another thread in the node raises its alpha to it before its next move",
        get: |s| KnobValue::Bool(s.shared_alpha),
        set: |s, v| s.shared_alpha = boolean(v),
    },
    Knob {
        name: "BrothersKeepPlaces",
        flag: "brothers-keep-places",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "both ABDADAs: moves searched after a deferred move keep their serial place in the move loop (late-move reductions and pruning count the deferred moves)",
        get: |s| KnobValue::Bool(s.brothers_keep_places),
        set: |s, v| s.brothers_keep_places = boolean(v),
    },
    Knob {
        name: "DeferEldest",
        flag: "defer-eldest",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "both ABDADAs: at a null-window node not expected to fail high, the eldest son is deferred too when another thread is in it (Weill, Kerrigan: the eldest son regardless)",
        get: |s| KnobValue::Bool(s.defer_eldest),
        set: |s, v| s.defer_eldest = boolean(v),
    },
    Knob {
        name: "HelpResearchDepth",
        flag: "help-research-depth",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Spin { min: 0, max: 64 },
        help: "both ABDADAs (0: off): at PV nodes of at least this depth, another thread's re-search of a brother with the full window is joined before the next brother (Kerrigan's note 5.2: helped only if reached)",
        get: |s| KnobValue::Int(i64::from(s.help_research_depth)),
        set: |s, v| s.help_research_depth = int(v) as i32,
    },
    Knob {
        name: "StaggeredDepths",
        flag: "staggered-depths",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "both ABDADAs: odd helpers search each iteration one ply deeper than the main thread (lazy SMP's pattern)",
        get: |s| KnobValue::Bool(s.abdada_staggered_depths),
        set: |s, v| s.abdada_staggered_depths = boolean(v),
    },
    Knob {
        name: "AbdadaHistory",
        flag: "abdada-history",
        algorithms: &[ParallelAlgorithm::Abdada],
        kind: KnobKind::Combo(HelperHistory::WORDS),
        help: "ABDADA: the threads share one history (as YBWC's), each keeps its own (as lazy SMP's), or a helper copies the main thread's when a search starts",
        get: |s| KnobValue::Word(s.abdada_history.word()),
        set: |s, v| s.abdada_history = word_setting(v, s.abdada_history, HelperHistory::from_word),
    },
    Knob {
        name: "SimplifiedAbdadaHistory",
        flag: "simplified-abdada-history",
        algorithms: &[ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Combo(HelperHistory::WORDS),
        help: "simplified ABDADA: the threads share one history, each keeps its own, or a helper copies the main thread's when a search starts",
        get: |s| KnobValue::Word(s.simplified_abdada_history.word()),
        set: |s, v| {
            s.simplified_abdada_history =
                word_setting(v, s.simplified_abdada_history, HelperHistory::from_word)
        },
    },
    Knob {
        name: "ClusterBusyHints",
        flag: "cluster-busy-hints",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "both ABDADAs in a cluster build: tell the other ranks which nodes this rank is searching and defer those they are searching",
        get: |s| KnobValue::Bool(s.cluster_busy_hints),
        set: |s, v| s.cluster_busy_hints = boolean(v),
    },
    Knob {
        name: "ClusterBusyOwners",
        flag: "cluster-busy-owners",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Check,
        help: "both ABDADAs in a cluster build, with ClusterBusyHints (experiment): count each node's searchers at an owner rank and ask it before searching a younger brother (Weill's distributed table, MPI one-sided atomics) instead of broadcasting hints",
        get: |s| KnobValue::Bool(s.cluster_busy_owners),
        set: |s, v| s.cluster_busy_owners = boolean(v),
    },
    Knob {
        name: "ClusterOwnerDepth",
        flag: "cluster-owner-depth",
        algorithms: &[ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada],
        kind: KnobKind::Spin { min: 1, max: 64 },
        help: "both ABDADAs in a cluster build, with ClusterBusyOwners: count at the owners only nodes (Weill) or moves (Kerrigan) of at least this depth (each count costs round trips)",
        get: |s| KnobValue::Int(i64::from(s.cluster_owner_depth)),
        set: |s, v| s.cluster_owner_depth = int(v) as i32,
    },
    Knob {
        name: "ClusterStaggeredRanks",
        flag: "cluster-staggered-ranks",
        algorithms: &[
            ParallelAlgorithm::Lazy,
            ParallelAlgorithm::Abdada,
            ParallelAlgorithm::SimplifiedAbdada,
        ],
        kind: KnobKind::Check,
        help: "cluster build, where depths are staggered (lazy SMP, StaggeredDepths): number threads across ranks, so odd ranks' main threads search one ply deeper",
        get: |s| KnobValue::Bool(s.cluster_staggered_ranks),
        set: |s, v| s.cluster_staggered_ranks = boolean(v),
    },
    Knob {
        name: "LazyVote",
        flag: "lazy-vote",
        algorithms: &[ParallelAlgorithm::Lazy],
        kind: KnobKind::Check,
        help: "lazy SMP: choose the move by the threads' depth-and-score vote (false: deepest thread)",
        get: |s| KnobValue::Bool(s.lazy_vote),
        set: |s, v| s.lazy_vote = boolean(v),
    },
];

/// The knob whose UCI name or command-line flag is `name` (case-insensitive; leading dashes ignored).
///
/// ```
/// use eldest_search::find_knob;
/// assert_eq!(find_knob("--defer-depth").unwrap().name, "DeferDepth");
/// assert_eq!(find_knob("mINsPLITdEPTH").unwrap().flag, "min-split-depth");
/// assert!(find_knob("Contempt").is_none());
/// ```
pub fn find_knob(name: &str) -> Option<&'static Knob> {
    let name = name.trim().trim_start_matches('-');
    KNOBS
        .iter()
        .find(|k| k.name.eq_ignore_ascii_case(name) || k.flag.eq_ignore_ascii_case(name))
}

/// YBWC's minimum split depth below [`MANY_THREADS`] threads when `MinSplitDepth` is 0 (the 2-core measurements
/// of docs/parallel-search.md, *At the games' move time once more*; Stockfish 6's 4).
pub const FEW_THREADS_MIN_SPLIT_DEPTH: i32 = 4;
/// YBWC's minimum split depth from [`MANY_THREADS`] threads on when `MinSplitDepth` is 0: at 16 threads it took
/// 0.74 (0.63–0.86) of depth 4's time on the long set (docs/parallel-search.md, *16 threads again*); Stockfish 6
/// takes 7 there.
pub const MANY_THREADS_MIN_SPLIT_DEPTH: i32 = 6;
/// The thread count from which YBWC splits only deeper nodes when `MinSplitDepth` is 0 (Stockfish 6's threshold;
/// between 2 and 16 threads it is not measured).
pub const MANY_THREADS: usize = 8;

impl ParallelSettings {
    /// YBWC's minimum split depth for a search of `threads` threads: `MinSplitDepth` when set, else, at 0 (the
    /// default), [`FEW_THREADS_MIN_SPLIT_DEPTH`] below [`MANY_THREADS`] threads and
    /// [`MANY_THREADS_MIN_SPLIT_DEPTH`] from it, as Stockfish 6 chooses its own: with many threads a split point
    /// near the leaves costs every idle thread a task offer for a subtree too small to repay it.
    ///
    /// ```
    /// use eldest_search::ParallelSettings;
    /// let mut settings = ParallelSettings::default();
    /// assert_eq!(settings.min_split_depth_for(2), 4);
    /// assert_eq!(settings.min_split_depth_for(16), 6);
    /// settings.set_knob("MinSplitDepth", "5").unwrap();
    /// assert_eq!(settings.min_split_depth_for(16), 5);
    /// ```
    pub fn min_split_depth_for(&self, threads: usize) -> i32 {
        match self.min_split_depth {
            0 if threads < MANY_THREADS => FEW_THREADS_MIN_SPLIT_DEPTH,
            0 => MANY_THREADS_MIN_SPLIT_DEPTH,
            depth => depth,
        }
    }

    /// Whether `algorithm`'s threads restart a brother searched against a PV node's alpha another thread has
    /// raised since, in a search of `threads` threads: `WindowUpdates` when set, else YBWC's below
    /// [`MANY_THREADS`]. At two threads YBWC's restarts are one or two a split point and the brother they stop
    /// has the raise to use; at 16 a raise may stop up to fifteen brothers at once, each walking its subtree
    /// again, and there the one run measured took 1.14 of the time without them. Never for lazy SMP, whose threads share no
    /// node.
    ///
    /// ```
    /// use eldest_search::{ParallelAlgorithm, ParallelSettings};
    /// let mut settings = ParallelSettings::default();
    /// assert!(settings.window_updates_for(ParallelAlgorithm::Ybwc, 4));
    /// assert!(!settings.window_updates_for(ParallelAlgorithm::Ybwc, 8));
    /// settings.set_knob("WindowUpdates", "false").unwrap();
    /// assert!(!settings.window_updates_for(ParallelAlgorithm::Ybwc, 2));
    /// ```
    pub fn window_updates_for(&self, algorithm: ParallelAlgorithm, threads: usize) -> bool {
        match self.window_updates {
            WindowUpdates::Auto => algorithm == ParallelAlgorithm::Ybwc && threads < MANY_THREADS,
            WindowUpdates::On => algorithm != ParallelAlgorithm::Lazy,
            WindowUpdates::Off => false,
        }
    }

    /// Whether `algorithm`'s ancestor checks re-probe PV nodes too: `AbdadaPvAncestorChecks` for Weill's
    /// ABDADA, `SimplifiedAbdadaPvAncestorChecks` for Kerrigan's; never for lazy SMP and YBWC, which have no
    /// ancestor checks.
    ///
    /// ```
    /// use eldest_search::{ParallelAlgorithm, ParallelSettings};
    /// let settings = ParallelSettings::default();
    /// assert!(settings.pv_ancestor_checks(ParallelAlgorithm::Abdada));
    /// assert!(settings.pv_ancestor_checks(ParallelAlgorithm::SimplifiedAbdada));
    /// assert!(!settings.pv_ancestor_checks(ParallelAlgorithm::Ybwc));
    /// ```
    pub fn pv_ancestor_checks(&self, algorithm: ParallelAlgorithm) -> bool {
        match algorithm {
            ParallelAlgorithm::Abdada => self.abdada_pv_ancestor_checks,
            ParallelAlgorithm::SimplifiedAbdada => self.simplified_abdada_pv_ancestor_checks,
            ParallelAlgorithm::Lazy | ParallelAlgorithm::Ybwc => false,
        }
    }

    /// Sets the knob called `name` (UCI name or flag) from text.
    ///
    /// # Errors
    /// An unknown knob or a value it refuses; the settings are then unchanged.
    ///
    /// ```
    /// use eldest_search::ParallelSettings;
    /// let mut settings = ParallelSettings::default();
    /// settings.set_knob("cs-table", "DashMap").unwrap();
    /// assert_eq!(settings.cs_table.name(), "dashmap");
    /// assert!(settings.set_knob("nonsense", "1").is_err());
    /// ```
    pub fn set_knob(&mut self, name: &str, value: &str) -> Result<(), KnobError> {
        let knob =
            find_knob(name).ok_or_else(|| KnobError(format!("no parallel-search knob named {name:?}")))?;
        let value = knob.parse(value)?;
        knob.apply(self, value);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_names_round_trip() {
        for algorithm in ParallelAlgorithm::ALL {
            assert_eq!(algorithm.name().parse::<ParallelAlgorithm>(), Ok(algorithm));
            assert_eq!(
                algorithm.to_string().to_uppercase().parse::<ParallelAlgorithm>(),
                Ok(algorithm)
            );
        }
        assert!("ybwc2".parse::<ParallelAlgorithm>().is_err());
    }

    #[test]
    fn every_knob_round_trips_its_default_and_refuses_nonsense() {
        let mut names = std::collections::HashSet::new();
        for knob in KNOBS {
            assert!(
                names.insert(knob.name.to_ascii_lowercase()),
                "{} twice",
                knob.name
            );
            assert!(names.insert(knob.flag.to_string()), "{} twice", knob.flag);
            let default = knob.default_value();
            assert_eq!(knob.parse(&default.to_string()), Ok(default), "{}", knob.name);
            let mut settings = ParallelSettings::default();
            knob.apply(&mut settings, default);
            assert_eq!(settings, ParallelSettings::default(), "{}", knob.name);
            assert!(knob.parse("nonsense").is_err(), "{}", knob.name);
            if let KnobKind::Spin { min, max } = knob.kind {
                assert!((min..=max).contains(&int(default)), "{}", knob.name);
                assert!(knob.parse(&(max + 1).to_string()).is_err());
                assert!(knob.parse(&(min - 1).to_string()).is_err());
            }
        }
    }

    #[test]
    fn a_set_knob_changes_only_its_field() {
        let mut settings = ParallelSettings::default();
        settings.set_knob("AbdadaMinDepth", "5").unwrap();
        assert_eq!(
            settings,
            ParallelSettings {
                abdada_min_depth: 5,
                ..ParallelSettings::default()
            }
        );
        settings.set_knob("LazyVote", "FALSE").unwrap();
        assert!(!settings.lazy_vote);
        assert!(settings.set_knob("LazyVote", "maybe").is_err());
        assert!(!settings.lazy_vote, "a refused value leaves the knob unchanged");
    }
}

/// The knobs as command-line flags, one `--<flag> VALUE` per row of [`KNOBS`], for any clap command
/// (`eldest bench`, `cargo xtask bench`): `#[command(flatten)] knobs: KnobArgs`. Feature `cli`.
///
/// # Examples
///
/// ```
/// use eldest_search::parallel::cli::KnobArgs;
/// use eldest_search::{KnobValue, find_knob};
///
/// // What `--cs-ways 8` parses to, passed on to another command unchanged.
/// let args = KnobArgs { values: vec![(find_knob("cs-ways").unwrap(), KnobValue::Int(8))] };
/// assert_eq!(args.to_flags(), ["--cs-ways", "8"]);
/// ```
#[cfg(feature = "cli")]
pub mod cli {
    use super::{KNOBS, Knob, KnobKind, KnobValue, ParallelSettings};

    /// The knobs given on a command line, validated by the knob table.
    ///
    /// ```
    /// use clap::Parser;
    /// use eldest_search::parallel::cli::KnobArgs;
    /// #[derive(Parser)]
    /// struct Cli {
    ///     #[command(flatten)]
    ///     knobs: KnobArgs,
    /// }
    /// let cli = Cli::try_parse_from(["bench", "--min-split-depth", "5", "--cutoff-checks", "true"]).unwrap();
    /// let mut settings = eldest_search::ParallelSettings::default();
    /// cli.knobs.apply(&mut settings);
    /// assert_eq!(settings.min_split_depth, 5);
    /// assert_eq!(cli.knobs.to_flags(), ["--min-split-depth", "5", "--cutoff-checks", "true"]);
    /// assert!(Cli::try_parse_from(["bench", "--min-split-depth", "65"]).is_err());
    /// ```
    #[derive(Debug, Clone, Default, PartialEq, Eq)]
    pub struct KnobArgs {
        /// The knobs set, in table order.
        pub values: Vec<(&'static Knob, KnobValue)>,
    }

    impl KnobArgs {
        /// Sets the given knobs in `settings`.
        ///
        /// # Examples
        ///
        /// ```
        /// use eldest_search::parallel::cli::KnobArgs;
        /// use eldest_search::{KnobValue, ParallelSettings, find_knob};
        ///
        /// let args = KnobArgs { values: vec![(find_knob("LazyVote").unwrap(), KnobValue::Bool(false))] };
        /// let mut settings = ParallelSettings::default();
        /// args.apply(&mut settings);
        /// // Knobs not given keep their defaults.
        /// assert_eq!(settings, ParallelSettings { lazy_vote: false, ..ParallelSettings::default() });
        /// ```
        pub fn apply(&self, settings: &mut ParallelSettings) {
            for (knob, value) in &self.values {
                knob.apply(settings, *value);
            }
        }

        /// The flags again, to pass them on to another command.
        ///
        /// # Examples
        ///
        /// ```
        /// use eldest_search::parallel::cli::KnobArgs;
        /// use eldest_search::{KnobValue, find_knob};
        ///
        /// let args = KnobArgs {
        ///     values: vec![(find_knob("MinSplitDepth").unwrap(), KnobValue::Int(6)),
        ///                  (find_knob("CsTable").unwrap(), KnobValue::Word("dashmap"))],
        /// };
        /// assert_eq!(args.to_flags(), ["--min-split-depth", "6", "--cs-table", "dashmap"]);
        /// assert!(KnobArgs::default().to_flags().is_empty());
        /// ```
        pub fn to_flags(&self) -> Vec<String> {
            self.values
                .iter()
                .flat_map(|(knob, value)| [format!("--{}", knob.flag), value.to_string()])
                .collect()
        }
    }

    fn help(knob: &Knob) -> String {
        let range = match knob.kind {
            KnobKind::Spin { min, max } => format!("{min}–{max}"),
            KnobKind::Check => "true or false".to_string(),
            KnobKind::Combo(words) => words.join(", "),
        };
        format!(
            "{} [{range}; UCI {}; default {}]",
            knob.help,
            knob.name,
            knob.default_value()
        )
    }

    impl clap::Args for KnobArgs {
        fn augment_args(mut command: clap::Command) -> clap::Command {
            for knob in KNOBS {
                command = command.arg(
                    clap::Arg::new(knob.flag)
                        .long(knob.flag)
                        .value_name("VALUE")
                        .help(help(knob))
                        .help_heading("Parallel-search knobs"),
                );
            }
            command
        }

        fn augment_args_for_update(command: clap::Command) -> clap::Command {
            KnobArgs::augment_args(command)
        }
    }

    impl clap::FromArgMatches for KnobArgs {
        fn from_arg_matches(matches: &clap::ArgMatches) -> Result<KnobArgs, clap::Error> {
            let mut values = Vec::new();
            for knob in KNOBS {
                if let Some(text) = matches.get_one::<String>(knob.flag) {
                    let value = knob.parse(text).map_err(|error| {
                        clap::Error::raw(
                            clap::error::ErrorKind::ValueValidation,
                            format!("--{}: {error}\n", knob.flag),
                        )
                    })?;
                    values.push((knob, value));
                }
            }
            Ok(KnobArgs { values })
        }

        fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
            *self = KnobArgs::from_arg_matches(matches)?;
            Ok(())
        }
    }
}
