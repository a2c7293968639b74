//! [`Engine`]: the search as the UCI layer and the tools use it — the transposition table, the search threads,
//! iterative deepening with aspiration windows, MultiPV, and the choice of the move to play.
//!
//! With `Threads` above 1 the threads run lazy SMP (the modern baseline): every thread searches the whole root
//! with the shared table, odd-numbered helpers one ply deeper, and the move comes from the thread that
//! completed the deepest iteration. The other parallel algorithms plug into the same node search through
//! [`SearchHooks`](crate::SearchHooks).

use crate::eval::Evaluation;
use crate::exchange::EntryExchange;
use crate::hooks::{SearchHooks, Serial};
use crate::limits::{SearchControl, SearchLimits, SearchOptions};
use crate::parallel::abdada::AbdadaHooks;
use crate::parallel::lazy::{Ballot, choose_ballot, lazy_helper_depth, vote_applies};
use crate::parallel::pool::SearchPool;
use crate::parallel::researches::ResearchBoard;
use crate::parallel::simplified_abdada::{
    CsTableKind, CurrentlySearching, DashCurrentlySearching, SimplifiedAbdadaHooks,
};
use crate::parallel::windows::{RootWindow, RootWindows};
use crate::parallel::ybwc::{PoolSettings, YbwcHooks, YbwcPool};
use crate::parallel::{HelperHistory, ParallelAlgorithm};
use crate::params::{Reductions, SearchParams};
use crate::report::{IterationReport, Score, ScoreBound, SearchOutcome};
use crate::time::{SearchStability, TimeManager};
use crate::tree_keys::TreeRecording;
use crate::worker::{
    Completed, INFINITY, MAX_PLY, SearchContext, SharedSearch, ThreadRole, ThreadStats, Worker,
    store_exchanged_entries,
};
use eldest_board::{Move, Position};
use eldest_repetition::GameHistory;
use eldest_tt::{MATE, MATE_IN_MAX_PLY, NodeCounters, TableSizeError, TranspositionTable};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The score of a search as UCI reports it: mate in moves, or centipawns.
///
/// # Examples
///
/// ```
/// use eldest_search::{Score, uci_score};
/// use eldest_tt::MATE;
///
/// // Mating on our next move is one ply away (mate in 1); the opponent mating after our move is two (−1).
/// assert_eq!(uci_score(MATE - 1), Score::Mate(1));
/// assert_eq!(uci_score(-(MATE - 2)), Score::Mate(-1));
/// assert_eq!(uci_score(-250), Score::Centipawns(-250));
/// ```
pub fn uci_score(score: i32) -> Score {
    if score >= MATE_IN_MAX_PLY {
        Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_IN_MAX_PLY {
        Score::Mate(-(MATE + score) / 2)
    } else {
        Score::Centipawns(score)
    }
}

/// How the threads of a search spent its wall time: `threads × wall` is what was available, `busy` what was
/// searched, the rest idle — a YBWC pool thread waiting for work, or a thread started or joined late.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use eldest_search::Utilisation;
///
/// // Four threads for one second: three thread-seconds searched, one waited.
/// let spent = Utilisation { threads: 4, wall: Duration::from_secs(1), busy: Duration::from_secs(3) };
/// assert_eq!(spent.idle(), Duration::from_secs(1));
/// assert_eq!(spent.busy_fraction(), 0.75);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Utilisation {
    /// Threads of the search.
    pub threads: usize,
    /// Wall time of the search.
    pub wall: Duration,
    /// Thread time spent searching, summed over threads.
    pub busy: Duration,
}

impl Utilisation {
    /// Thread time not spent searching: `threads × wall − busy` (never negative).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use eldest_search::Utilisation;
    ///
    /// let wall = Duration::from_millis(100);
    /// let two = Utilisation { threads: 2, wall, busy: Duration::from_millis(150) };
    /// assert_eq!(two.idle(), Duration::from_millis(50));
    /// // Timer granularity can make busy exceed what was available: idle stays at zero.
    /// assert_eq!(Utilisation { busy: Duration::from_millis(250), ..two }.idle(), Duration::ZERO);
    /// ```
    pub fn idle(&self) -> Duration {
        (self.wall * self.threads as u32).saturating_sub(self.busy)
    }

    /// Busy share of the available thread time, 0 to 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use eldest_search::Utilisation;
    ///
    /// let half = Utilisation { threads: 2, wall: Duration::from_secs(2), busy: Duration::from_secs(2) };
    /// assert_eq!(half.busy_fraction(), 0.5);
    /// // No search yet: nothing was available, and the share is 0 rather than NaN.
    /// assert_eq!(Utilisation::default().busy_fraction(), 0.0);
    /// ```
    pub fn busy_fraction(&self) -> f64 {
        let available = self.wall.as_secs_f64() * self.threads as f64;
        if available > 0.0 {
            (self.busy.as_secs_f64() / available).min(1.0)
        } else {
            0.0
        }
    }
}

/// The search engine: a transposition table and per-thread state that persist between searches.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
///
/// let mut engine = Engine::new(1)?;
/// let limits = SearchLimits { depth: Some(5), ..SearchLimits::default() };
/// let mut search = || engine.search(&Position::startpos(), Default::default(), &limits,
///     &SearchOptions::default(), &SearchControl::new(), &mut |_| {});
/// let (first, second) = (search(), search());
/// // The table and the histories persist: the same search again costs fewer nodes.
/// assert!(second.nodes < first.nodes, "{} then {}", first.nodes, second.nodes);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug)]
pub struct Engine {
    tt: TranspositionTable,
    workers: Vec<Worker>,
    last_stats: Vec<ThreadStats>,
    /// Wall time of the last search.
    last_wall: Duration,
    /// Simplified ABDADA's table, sized by the settings of the last search that used it.
    currently_searching: CurrentlySearching,
    /// The same marks in a `dashmap` set, when `CsTable` is `dashmap`.
    dash_currently_searching: DashCurrentlySearching,
    /// Weill's ABDADA's `nproc` counters apart from the entries (`NprocTable`), sized by the thread count of the
    /// last search that used them.
    node_counters: NodeCounters,
    /// The search threads, created by the first search with more than one thread and parked between searches.
    pool: SearchPool,
    /// YBWC's bookkeeping of those threads and their reusable states.
    ybwc: YbwcPool,
    /// Late-move reductions of the last search's parameters, rebuilt only when they change.
    reductions: Reductions,
    /// The static evaluation.
    evaluation: Evaluation,
    /// Other processes' tables, in a cluster build.
    exchange: Option<Arc<dyn EntryExchange>>,
    /// This process's place among the processes of a cluster (0 alone).
    process_index: usize,
    /// `eldest bench --serial-tree`: where the searches record their trees' keys.
    tree_keys: Option<TreeRecording>,
}

impl Engine {
    /// An engine with a `hash_mib` MiB transposition table.
    ///
    /// # Errors
    /// When the size is zero, too large, or cannot be allocated.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::Engine;
    ///
    /// let engine = Engine::new(1)?;
    /// assert_eq!(engine.hashfull(), 0);
    /// assert!(Engine::new(0).is_err(), "a table needs at least one MiB");
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn new(hash_mib: usize) -> Result<Engine, TableSizeError> {
        Ok(Engine {
            tt: TranspositionTable::new(hash_mib)?,
            workers: vec![Worker::new()],
            last_stats: Vec::new(),
            last_wall: Duration::ZERO,
            currently_searching: CurrentlySearching::new(1, 1),
            dash_currently_searching: DashCurrentlySearching::new(),
            node_counters: NodeCounters::for_threads(1),
            pool: SearchPool::default(),
            ybwc: YbwcPool::new(1),
            reductions: Reductions::new(&SearchParams::DEFAULT),
            evaluation: Evaluation::default(),
            exchange: None,
            process_index: 0,
            tree_keys: None,
        })
    }

    /// The static evaluation searches use.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{Engine, Evaluation};
    ///
    /// let mut engine = Engine::new(1)?;
    /// // A new engine plays with the embedded network, the evaluation that won the games.
    /// assert!(engine.evaluation().is_nnue());
    /// engine.set_evaluation(Evaluation::Pesto);
    /// assert_eq!(engine.evaluation(), &Evaluation::Pesto);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// Changes the static evaluation. Everything learnt is forgotten, as by [`Engine::new_game`]: the table's
    /// evaluations and the correction history belong to the old evaluation.
    ///
    /// ```
    /// use eldest_search::{Engine, Evaluation};
    ///
    /// let mut engine = Engine::new(1)?;
    /// engine.set_evaluation(Evaluation::network());
    /// assert!(engine.evaluation().is_nnue());
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
        self.new_game();
    }

    /// Records the keys of the next searches' main-search nodes, looked up in a serial search's where `tree_keys`
    /// has them (`eldest bench --serial-tree`; the counts go to each thread's [`TreeProfile`](crate::TreeProfile));
    /// `None`, the default, records nothing. Each node then writes one bit and reads another in sets far larger
    /// than the caches, so a search that records is slower than one that does not. See [`TreeRecording`] for an
    /// example.
    pub fn set_tree_keys(&mut self, tree_keys: Option<TreeRecording>) {
        self.tree_keys = tree_keys;
    }

    /// Shares this engine's deep table results with other processes and stores theirs (the cluster build's
    /// MPI ranks); `None`, the default, searches alone. See [`EntryExchange`] for an example.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::{Arc, atomic::{AtomicUsize, Ordering}};
    /// use eldest_board::Position;
    /// use eldest_search::{Engine, EntryExchange, SearchControl, SearchLimits, SearchOptions, TableEntry};
    ///
    /// /// Counts what would be sent to the other processes.
    /// #[derive(Debug, Default)]
    /// struct Count(AtomicUsize);
    /// impl EntryExchange for Count {
    ///     fn min_depth(&self) -> i32 { 2 }
    ///     fn offer(&self, _: TableEntry) { self.0.fetch_add(1, Ordering::Relaxed); }
    ///     fn deliver(&self, _: &mut dyn FnMut(TableEntry)) {}
    /// }
    /// let count = Arc::new(Count::default());
    /// let mut engine = Engine::new(1)?;
    /// engine.set_entry_exchange(Some(count.clone()));
    /// let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
    /// engine.search(&Position::startpos(), Default::default(), &limits, &SearchOptions::default(),
    ///     &SearchControl::new(), &mut |_| {});
    /// assert!(count.0.load(Ordering::Relaxed) > 0, "deep results were offered");
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn set_entry_exchange(&mut self, exchange: Option<Arc<dyn EntryExchange>>) {
        self.exchange = exchange;
    }

    /// This process's place among the processes of a cluster (the MPI rank; 0, the default, alone). With
    /// `ClusterStaggeredRanks` the threads are numbered across the processes, process `i`'s first thread being
    /// thread `i × Threads` of the cluster, so that where depths are staggered the processes' main threads do
    /// not all search the same depths.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_board::Position;
    /// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
    ///
    /// let mut engine = Engine::new(1)?;
    /// engine.set_process_index(1);
    /// let mut options = SearchOptions::default();
    /// options.parallel.cluster_staggered_ranks = true;
    /// let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
    /// let mut depths = Vec::new();
    /// engine.search(&Position::startpos(), Arc::default(), &limits, &options, &SearchControl::new(),
    ///     &mut |report| depths.push(report.depth));
    /// // The second process's only thread is the cluster's thread 1, an odd helper: one ply ahead, up to the limit
    /// // (which it searches again while the first process finishes it).
    /// assert_eq!(depths, [2, 3, 4, 4]);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn set_process_index(&mut self, index: usize) {
        self.process_index = index;
    }

    /// Resizes the transposition table (its contents are lost).
    ///
    /// # Errors
    /// As [`Engine::new`]; the old table is kept on error.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::Engine;
    ///
    /// let mut engine = Engine::new(1)?;
    /// engine.set_hash(2)?;
    /// // A refused size leaves the engine with the table it had.
    /// assert!(engine.set_hash(0).is_err());
    /// assert_eq!(engine.hashfull(), 0);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn set_hash(&mut self, mib: usize) -> Result<(), TableSizeError> {
        self.tt.resize(mib)
    }

    /// Forgets everything learnt: the table and every thread's history (`ucinewgame`).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
    ///
    /// let mut engine = Engine::new(1)?;
    /// let limits = SearchLimits { depth: Some(5), ..SearchLimits::default() };
    /// let search = |engine: &mut Engine| engine.search(&Position::startpos(), Default::default(),
    ///     &limits, &SearchOptions::default(), &SearchControl::new(), &mut |_| {}).nodes;
    /// let fresh = search(&mut engine);
    /// engine.new_game();
    /// // Nothing of the first search is left to help the second: it is the same search again.
    /// assert_eq!(search(&mut engine), fresh);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.workers.iter_mut().for_each(Worker::clear);
        self.ybwc.clear();
    }

    /// Empties the transposition table (the `Clear Hash` button).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
    ///
    /// let mut engine = Engine::new(1)?;
    /// let limits = SearchLimits { depth: Some(5), ..SearchLimits::default() };
    /// engine.search(&Position::startpos(), Default::default(), &limits, &SearchOptions::default(),
    ///     &SearchControl::new(), &mut |_| {});
    /// assert!(engine.hashfull() > 0);
    /// engine.clear_hash();
    /// assert_eq!(engine.hashfull(), 0);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Transposition-table fill in permille.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
    ///
    /// let mut engine = Engine::new(1)?;
    /// assert_eq!(engine.hashfull(), 0);
    /// let limits = SearchLimits { depth: Some(5), ..SearchLimits::default() };
    /// engine.search(&Position::startpos(), Default::default(), &limits, &SearchOptions::default(),
    ///     &SearchControl::new(), &mut |_| {});
    /// assert!((1..=1000).contains(&engine.hashfull()));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// What the parallel algorithms leave in the shared tables between searches: ABDADA `nproc` counts still
    /// standing, in the entries or apart (must be 0 when no search runs), and occupied `currently_searching`
    /// slots (must be 0 too).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{Engine, ParallelAlgorithm, SearchControl, SearchLimits, SearchOptions};
    ///
    /// let mut engine = Engine::new(1)?;
    /// let mut options = SearchOptions { threads: 2, ..SearchOptions::default() };
    /// let limits = SearchLimits { depth: Some(5), ..SearchLimits::default() };
    /// for algorithm in [ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada] {
    ///     options.parallel.algorithm = algorithm;
    ///     engine.search(&Position::startpos(), Default::default(), &limits, &options, &SearchControl::new(),
    ///         &mut |_| {});
    ///     assert_eq!(engine.parallel_leftovers(), (0, 0), "{algorithm} left marks behind");
    /// }
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn parallel_leftovers(&self) -> (usize, usize) {
        (
            self.tt.nproc_total() + self.node_counters.total(),
            self.currently_searching.occupied() + self.dash_currently_searching.occupied(),
        )
    }

    /// Per-thread counters of the last search (YBWC: the pool's tasks are counted in thread 0, the one that
    /// runs the iterative deepening).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
    ///
    /// let mut engine = Engine::new(1)?;
    /// let options = SearchOptions { threads: 2, ..SearchOptions::default() };
    /// let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
    /// let outcome = engine.search(&Position::startpos(), Default::default(), &limits, &options,
    ///     &SearchControl::new(), &mut |_| {});
    /// assert_eq!(engine.thread_stats().len(), 2);
    /// assert_eq!(engine.thread_stats().iter().map(|stats| stats.nodes).sum::<u64>(), outcome.nodes);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn thread_stats(&self) -> &[ThreadStats] {
        &self.last_stats
    }

    /// How the threads of the last search spent its wall time.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
    ///
    /// let mut engine = Engine::new(1)?;
    /// let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
    /// engine.search(&Position::startpos(), Default::default(), &limits, &SearchOptions::default(),
    ///     &SearchControl::new(), &mut |_| {});
    /// let used = engine.utilisation();
    /// assert_eq!(used.threads, 1);
    /// assert!(!used.wall.is_zero() && (0.0..=1.0).contains(&used.busy_fraction()));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn utilisation(&self) -> Utilisation {
        Utilisation {
            threads: self.last_stats.len().max(1),
            wall: self.last_wall,
            busy: Duration::from_nanos(self.last_stats.iter().map(ThreadStats::busy_ns).sum()),
        }
    }

    /// Searches `root` (the last position of `game`) within `limits`, calling `on_iteration` with each
    /// principal variation of the main thread, and returns the move to play.
    ///
    /// The call blocks until a limit is reached or `control` is stopped. For `go infinite` and while
    /// `control.is_pondering()`, it does not return before `stop` or `ponderhit`, even if the search itself
    /// ends (a forced mate, the depth limit), so the caller may print `bestmove` as soon as it returns. A root
    /// without legal moves returns at once with no move.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
    ///
    /// let mut engine = Engine::new(1)?;
    /// let root = Position::startpos();
    /// // `go depth 4 searchmoves a2a3`: the move comes from the allowed ones, however poor.
    /// let a3 = root.parse_uci_move("a2a3").unwrap();
    /// let limits = SearchLimits { depth: Some(4), search_moves: vec![a3], ..SearchLimits::default() };
    /// let outcome = engine.search(&root, Default::default(), &limits, &SearchOptions::default(),
    ///     &SearchControl::new(), &mut |_| {});
    /// assert_eq!((outcome.best_move, outcome.depth), (Some(a3), 4));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn search(
        &mut self,
        root: &Position,
        game: Arc<GameHistory>,
        limits: &SearchLimits,
        options: &SearchOptions,
        control: &SearchControl,
        on_iteration: &mut (dyn FnMut(&IterationReport) + Send),
    ) -> SearchOutcome {
        let start = Instant::now();
        let time = TimeManager::new(start, limits, options);
        let legal = root.legal_moves();
        let allowed: Vec<Move> = limits
            .search_moves
            .iter()
            .copied()
            .filter(|m| legal.contains(m))
            .collect();
        let candidates = if allowed.is_empty() {
            legal.len()
        } else {
            allowed.len()
        };
        if candidates == 0 {
            // Nothing is searched: no thread has counters to report.
            self.last_stats = vec![ThreadStats::default(); options.threads.max(1)];
            self.last_wall = start.elapsed();
            let score = if root.in_check() {
                Score::Mate(0)
            } else {
                Score::Centipawns(0)
            };
            return SearchOutcome {
                best_move: None,
                ponder_move: None,
                score,
                depth: 0,
                nodes: 0,
                time: start.elapsed(),
            };
        }

        let threads = options.threads.max(1);
        self.workers.resize_with(threads, Worker::new);
        self.tt.new_search();
        for (index, worker) in self.workers.iter_mut().enumerate() {
            worker.prepare(Arc::clone(&game));
            worker.role = ThreadRole::of_index(index);
            worker.root_allowed.clone_from(&allowed);
        }
        let settings = options.parallel;
        // Both ABDADAs in a cluster tell the other processes what they search, even with one thread.
        let busy_hints = settings.cluster_busy_hints
            && self.exchange.is_some()
            && matches!(
                settings.algorithm,
                ParallelAlgorithm::Abdada | ParallelAlgorithm::SimplifiedAbdada
            );
        // One thread is the plain serial search, whatever the algorithm (see `parallel`), but for a cluster's
        // busy hints.
        let mut algorithm = if threads == 1 && !busy_hints {
            ParallelAlgorithm::Lazy
        } else {
            settings.algorithm
        };
        if algorithm == ParallelAlgorithm::SimplifiedAbdada {
            match settings.cs_table {
                CsTableKind::Array => {
                    // By node, every thread may be searching a move of one node at once: a way each.
                    let ways = if settings.cs_rows_by_node {
                        settings.cs_ways.max(threads)
                    } else {
                        settings.cs_ways
                    };
                    self.prepare_currently_searching(settings.cs_rows, ways);
                }
                CsTableKind::DashMap => {
                    if self.dash_currently_searching.occupied() != 0 {
                        self.dash_currently_searching.clear();
                    }
                }
            }
        }
        if algorithm == ParallelAlgorithm::Abdada && settings.abdada_nproc_marks {
            // A way per thread: every thread may be in nodes of one row at once.
            self.prepare_currently_searching(settings.cs_rows, settings.cs_ways.max(threads));
        }
        if algorithm == ParallelAlgorithm::Abdada
            && settings.abdada_nproc_table
            && self.node_counters.lines() != NodeCounters::lines_for(threads)
        {
            self.node_counters = NodeCounters::for_threads(threads);
        }
        if threads > 1
            && let Err(error) = self.pool.ensure(threads)
        {
            tracing::warn!(%error, "cannot start the search threads; searching with one thread");
            algorithm = ParallelAlgorithm::Lazy;
            self.workers.truncate(1);
        }
        if algorithm == ParallelAlgorithm::Ybwc && self.ybwc.threads() != threads {
            self.ybwc = YbwcPool::new(threads);
        }
        // Threads that run their own iterative deepening (and share the node limit): one for YBWC.
        let root_threads = if algorithm.every_thread_searches_the_root() {
            self.workers.len()
        } else {
            1
        };
        self.reductions.update(&options.params);
        let abort = AtomicBool::new(false);
        let counters: Vec<AtomicU64> = (0..self.workers.len()).map(|_| AtomicU64::new(0)).collect();
        let completed_depth = AtomicU32::new(0);
        let completed = Mutex::new(None);
        let root_windows = RootWindows::new();
        let abdadas = matches!(
            algorithm,
            ParallelAlgorithm::Abdada | ParallelAlgorithm::SimplifiedAbdada
        );
        let research_board =
            (abdadas && settings.help_research_depth > 0 && self.workers.len() > 1).then(ResearchBoard::new);
        let window_updates = settings.window_updates_for(algorithm, self.workers.len());
        // Only the ABDADAs' helpers may share the main thread's history; lazy SMP's keep their own, and YBWC's
        // split-point tasks take theirs at each join. A handle left shared by an earlier search becomes private.
        let helper_history = match algorithm {
            ParallelAlgorithm::Abdada => settings.abdada_history,
            ParallelAlgorithm::SimplifiedAbdada => settings.simplified_abdada_history,
            ParallelAlgorithm::Lazy | ParallelAlgorithm::Ybwc => HelperHistory::Own,
        };
        if let Some((main, helpers)) = self.workers.split_first_mut() {
            for helper in helpers {
                helper.learn_with(main, helper_history);
            }
        }
        let shared = SharedSearch {
            tt: &self.tt,
            control,
            abort: &abort,
            time: &time,
            node_limit: limits.nodes.map(|n| (n / root_threads as u64).max(1)),
            node_counters: &counters,
            completed_depth: &completed_depth,
            skip_completed_iterations: abdadas && settings.skip_completed_iterations,
            root_windows: (abdadas && settings.shared_windows && self.workers.len() > 1)
                .then_some(&root_windows),
            brothers_keep_places: settings.brothers_keep_places,
            expected_cut_sons: if abdadas { settings.expected_cut_sons } else { 1 },
            defer_eldest: abdadas && settings.defer_eldest,
            research_board: research_board.as_ref(),
            help_research_depth: settings.help_research_depth,
            // The ABDADAs' window updates restart a move for the raises `SharedAlpha` stores and takes up.
            shared_alpha: abdadas && (settings.shared_alpha || window_updates) && self.workers.len() > 1,
            window_updates,
            pv_ancestor_min_depth: (settings.pv_ancestor_checks(algorithm) && self.workers.len() > 1)
                .then_some(settings.pv_ancestor_min_depth),
            params: &options.params,
            reductions: &self.reductions,
            evaluation: &self.evaluation,
            exchange: self.exchange.as_deref(),
            count_duplicates: options.count_duplicates && (self.workers.len() > 1 || self.exchange.is_some()),
            tree_keys: self.tree_keys.as_ref(),
        };
        store_exchanged_entries(&shared);
        let multi_pv = options.multi_pv.clamp(1, candidates);
        let plan = PlanBase {
            root,
            limits,
            multi_pv,
            start,
            // Staggering follows the algorithm asked for: a one-thread ABDADA process of a cluster without busy
            // hints runs the plain search, but is still one of the cluster's ABDADA processes.
            staggered_depths: match settings.algorithm {
                ParallelAlgorithm::Lazy => true,
                ParallelAlgorithm::Abdada | ParallelAlgorithm::SimplifiedAbdada => {
                    settings.abdada_staggered_depths
                }
                ParallelAlgorithm::Ybwc => false,
            },
            first_thread: if settings.cluster_staggered_ranks {
                self.process_index * threads
            } else {
                0
            },
            completed: &completed,
        };
        let remote = self.exchange.as_deref().filter(|_| settings.cluster_busy_hints);
        if let Some(remote) = remote {
            remote.use_busy_owners(
                settings
                    .cluster_busy_owners
                    .then_some(settings.cluster_owner_depth),
            );
        }
        let workers = &mut self.workers;
        let pool = &self.pool;
        let mut results = match algorithm {
            ParallelAlgorithm::Lazy => {
                run_root_threads(pool, workers, &shared, &plan.with_hooks(&Serial), on_iteration)
            }
            ParallelAlgorithm::Abdada => {
                let hooks = AbdadaHooks {
                    tt: &self.tt,
                    counters: settings.abdada_nproc_table.then_some(&self.node_counters),
                    marks: settings.abdada_nproc_marks.then_some(&self.currently_searching),
                    min_depth: settings.abdada_min_depth,
                    cutoff_checks: settings.cutoff_checks,
                    enter_before_pruning: settings.abdada_enter_before_pruning,
                    ancestor_checks: settings.ancestor_checks,
                    remote,
                };
                run_root_threads(pool, workers, &shared, &plan.with_hooks(&hooks), on_iteration)
            }
            ParallelAlgorithm::Ybwc => {
                // One iterative deepening; the other threads only ever work on younger brothers.
                let hooks = YbwcHooks {
                    min_split_depth: settings.min_split_depth_for(threads),
                    split_only_when_idle: settings.split_only_when_idle,
                    eager_split_depth: settings.ybwc_eager_split_depth,
                    split_expected_cuts: settings.ybwc_split_expected_cuts,
                    late_splits: settings.ybwc_late_splits,
                    expected_cut_sons: settings.expected_cut_sons,
                    pool: &self.ybwc,
                };
                self.ybwc.start_search(PoolSettings {
                    helper_history: settings.ybwc_helper_history,
                    spin: settings.ybwc_spin,
                    split_group: settings.ybwc_split_group,
                    split_killers: settings.ybwc_split_killers,
                    wait_for_research: settings.ybwc_wait_for_research,
                });
                let plan = plan.with_hooks(&hooks);
                let main = &mut workers[0];
                let iterate = || plan.iterate(main, &shared, on_iteration);
                vec![if settings.ybwc_spin {
                    pool.run_in_pool_spinning(iterate)
                } else {
                    pool.run_in_pool(iterate)
                }]
            }
            ParallelAlgorithm::SimplifiedAbdada => match settings.cs_table {
                CsTableKind::Array => {
                    let hooks = SimplifiedAbdadaHooks {
                        table: &self.currently_searching,
                        defer_depth: settings.defer_depth,
                        rows_by_node: settings.cs_rows_by_node,
                        cutoff_checks: settings.cutoff_checks,
                        ancestor_checks: settings.ancestor_checks,
                        remote,
                    };
                    run_root_threads(pool, workers, &shared, &plan.with_hooks(&hooks), on_iteration)
                }
                CsTableKind::DashMap => {
                    let hooks = SimplifiedAbdadaHooks {
                        table: &self.dash_currently_searching,
                        defer_depth: settings.defer_depth,
                        rows_by_node: settings.cs_rows_by_node,
                        cutoff_checks: settings.cutoff_checks,
                        ancestor_checks: settings.ancestor_checks,
                        remote,
                    };
                    run_root_threads(pool, workers, &shared, &plan.with_hooks(&hooks), on_iteration)
                }
            },
        };

        // Never answer before stop or ponderhit in infinite or ponder mode.
        while (limits.infinite || control.is_pondering()) && !control.is_stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }

        self.last_stats = self.workers.iter().map(|w| w.stats).collect();
        self.last_stats.resize(threads, ThreadStats::default());
        self.last_wall = start.elapsed();
        let nodes = self.last_stats.iter().map(|s| s.nodes).sum();
        // The ABDADAs share their deepest completed iteration: it competes too (ties go to the threads' own).
        results.push(completed.into_inner().unwrap_or_else(|e| e.into_inner()));
        let vote =
            algorithm == ParallelAlgorithm::Lazy && settings.lazy_vote && vote_applies(limits, multi_pv);
        let best = choose_result(results, vote);
        let fallback = if allowed.is_empty() { legal[0] } else { allowed[0] };
        let (best_move, ponder_move, score, depth) = match best {
            Some(c) => {
                let ponder =
                    c.pv.get(1)
                        .copied()
                        .or_else(|| self.ponder_from_table(root, c.pv[0]));
                (c.pv[0], ponder, uci_score(c.score), c.depth)
            }
            None => (fallback, None, Score::Centipawns(0), 0),
        };
        tracing::debug!(nodes, depth, threads, "search finished");
        SearchOutcome {
            best_move: Some(best_move),
            ponder_move,
            score,
            depth,
            nodes,
            time: start.elapsed(),
        }
    }

    /// Gives simplified ABDADA an empty `currently_searching` table of the configured shape.
    fn prepare_currently_searching(&mut self, rows: usize, ways: usize) {
        if self.currently_searching.rows() != rows.max(1).next_power_of_two()
            || self.currently_searching.ways() != ways.max(1)
        {
            self.currently_searching = CurrentlySearching::new(rows, ways);
        }
        // Otherwise the table is already empty: every mark is cleared by the thread that made it (or by the
        // one that overwrote it), stops included — `parallel_leftovers` is 0 after every search, which the
        // parallel tests check after a thousand random stops.
    }

    /// The stored best reply after `mv`, when the principal variation ended at the root move.
    fn ponder_from_table(&self, root: &Position, mv: Move) -> Option<Move> {
        let mut child = *root;
        child.play_unchecked(mv);
        let reply = self
            .tt
            .probe(child.key())?
            .best_move()
            .and_then(Move::from_bits)?;
        child.is_legal(reply).then_some(reply)
    }
}

/// Runs every thread's iterative deepening on the pool (the main thread's reports go to `on_iteration`); when
/// the main thread is done the helpers are aborted. Returns each thread's last completed iteration.
fn run_root_threads<H: SearchHooks>(
    pool: &SearchPool,
    workers: &mut [Worker],
    shared: &SharedSearch<'_>,
    plan: &IterationPlan<'_, H>,
    on_iteration: &mut (dyn FnMut(&IterationReport) + Send),
) -> Vec<Option<Completed>> {
    pool.run_root_threads(
        workers,
        |main| plan.iterate(main, shared, on_iteration),
        |helper| plan.iterate(helper, shared, &mut |_| {}),
        || shared.abort.store(true, Ordering::Relaxed),
    )
}

/// Selects the move to play from the threads' last completed iterations: the lazy SMP vote, or the deepest
/// iteration (the main thread, first in `results`, wins ties).
fn choose_result(results: Vec<Option<Completed>>, vote: bool) -> Option<Completed> {
    let mut results: Vec<Completed> = results
        .into_iter()
        .flatten()
        .filter(|c| !c.pv.is_empty())
        .collect();
    let ballots: Vec<Ballot> = results
        .iter()
        .map(|c| Ballot {
            depth: c.depth,
            score: c.score,
            mv: c.pv[0],
        })
        .collect();
    let index = choose_ballot(&ballots, vote)?;
    Some(results.swap_remove(index))
}

/// An iteration plan before the algorithm's hooks are chosen.
#[derive(Clone, Copy)]
struct PlanBase<'a> {
    root: &'a Position,
    limits: &'a SearchLimits,
    multi_pv: usize,
    start: Instant,
    staggered_depths: bool,
    first_thread: usize,
    completed: &'a Mutex<Option<Completed>>,
}

impl<'a> PlanBase<'a> {
    fn with_hooks<'h, H>(self, hooks: &'h H) -> IterationPlan<'h, H>
    where
        'a: 'h,
    {
        IterationPlan {
            root: self.root,
            limits: self.limits,
            multi_pv: self.multi_pv,
            start: self.start,
            hooks,
            staggered_depths: self.staggered_depths,
            first_thread: self.first_thread,
            completed: self.completed,
        }
    }
}

/// Counts, on the main thread, an iteration whose best move is not the previous iteration's.
fn count_best_move_change(worker: &mut Worker, previous: Option<&Completed>, next: &Completed) {
    if worker.role == ThreadRole::Main
        && let Some(previous) = previous
        && previous.pv.first() != next.pv.first()
    {
        worker.stats.best_move_changes += 1;
    }
}

/// What every thread's iterative deepening shares.
struct IterationPlan<'a, H> {
    root: &'a Position,
    limits: &'a SearchLimits,
    multi_pv: usize,
    start: Instant,
    /// The parallel algorithm's hooks.
    hooks: &'a H,
    /// Odd helpers search one ply deeper: lazy SMP, and the ABDADAs with `StaggeredDepths`; otherwise every
    /// thread searches the same depth.
    staggered_depths: bool,
    /// The number of this process's first thread among all the cluster's threads, for the staggering (0 alone, or
    /// without `ClusterStaggeredRanks`).
    first_thread: usize,
    /// The deepest iteration completed by any thread (kept when iterations are shared: the ABDADAs).
    completed: &'a Mutex<Option<Completed>>,
}

impl<H: SearchHooks> IterationPlan<'_, H> {
    /// Iterative deepening on one thread; returns its last completed iteration.
    fn iterate(
        &self,
        worker: &mut Worker,
        shared: &SharedSearch<'_>,
        report: &mut (dyn FnMut(&IterationReport) + Send),
    ) -> Option<Completed> {
        let is_main = worker.role == ThreadRole::Main;
        let index = worker.role.index().unwrap_or(0);
        let started = Instant::now();
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut completed: Option<Completed> = None;
        let mut stability = SearchStability::default();
        let mut depth = 1;
        while depth <= max_depth {
            let cluster_thread = self.first_thread + index;
            let search_depth = if !self.staggered_depths || (is_main && cluster_thread == 0) {
                depth
            } else {
                lazy_helper_depth(cluster_thread, depth, max_depth)
            };
            // The ABDADAs: an iteration another thread has completed is not searched again.
            if shared.skip_completed_iterations
                && shared.completed_depth.load(Ordering::Relaxed) >= search_depth
            {
                let adopted = lock(self.completed).clone();
                if let Some(adopted) = adopted.filter(|a| a.depth >= search_depth) {
                    depth = adopted.depth + 1;
                    if is_main {
                        report(&self.report(
                            worker,
                            shared,
                            adopted.depth,
                            0,
                            ScoreBound::Exact,
                            (adopted.score, adopted.pv.clone()),
                        ));
                    }
                    count_best_move_change(worker, completed.as_ref(), &adopted);
                    let score = adopted.score;
                    let scale = adopted
                        .pv
                        .first()
                        .map_or(1.0, |&best| stability.scale(best, score, None));
                    completed = Some(adopted);
                    if is_main && self.should_stop_iterating(shared, score, scale) {
                        break;
                    }
                    continue;
                }
            }
            worker.iteration_depth = search_depth;
            worker.partial_root = None;
            worker.root_excluded.clear();
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
            for pv_index in 0..self.multi_pv {
                let previous = if pv_index == 0 {
                    completed.as_ref().map(|c| c.score)
                } else {
                    None
                };
                let Some((score, pv)) =
                    self.aspiration(worker, shared, search_depth, previous, pv_index, report)
                else {
                    break;
                };
                worker.root_excluded.push(pv[0]);
                lines.push((score, pv));
            }
            worker.root_excluded.clear();
            if worker.abandoned && !shared.abort.load(Ordering::Relaxed) {
                // Another thread completed this iteration: go on from the one after it.
                worker.abandoned = false;
                worker.stopped = false;
                continue;
            }
            if worker.stopped() || lines.is_empty() {
                // A root move that beat the eldest son in the unfinished iteration is a better move to play.
                if lines.is_empty()
                    && let Some((score, pv)) = worker.partial_root.take()
                    && !pv.is_empty()
                {
                    let depth = completed.as_ref().map_or(0, |c| c.depth);
                    completed = Some(Completed { depth, score, pv });
                }
                break;
            }
            if is_main {
                for (pv_index, (score, pv)) in lines.iter().enumerate() {
                    report(&self.report(
                        worker,
                        shared,
                        search_depth,
                        pv_index,
                        ScoreBound::Exact,
                        (*score, pv.clone()),
                    ));
                }
            }
            let (score, pv) = lines.swap_remove(0);
            tracing::debug!(
                thread = index,
                depth = search_depth,
                seldepth = worker.seldepth,
                score,
                nodes = worker.stats.nodes,
                tt_hits = worker.stats.tt_hits,
                cutoffs = worker.stats.cutoffs,
                first_move_cutoffs = worker.stats.first_move_cutoffs,
                elapsed_ms = self.start.elapsed().as_millis() as u64,
                "iteration complete"
            );
            let this = Completed {
                depth: search_depth,
                score,
                pv,
            };
            count_best_move_change(worker, completed.as_ref(), &this);
            if shared.skip_completed_iterations {
                let mut shared_best = lock(self.completed);
                if shared_best.as_ref().is_none_or(|c| c.depth < search_depth) {
                    *shared_best = Some(this.clone());
                }
                shared.completed_depth.fetch_max(search_depth, Ordering::Relaxed);
            }
            completed = Some(this);
            worker.stoppable = true;
            if shared.abort.load(Ordering::Relaxed) {
                break;
            }
            if is_main {
                let best = completed.as_ref().and_then(|c| c.pv.first().copied());
                let scale = best.map_or(1.0, |best| {
                    stability.scale(best, score, worker.root_move_share(best))
                });
                if self.should_stop_iterating(shared, score, scale) {
                    break;
                }
            }
            depth += 1;
        }
        worker.publish_nodes(shared);
        worker.stats.search_ns = started.elapsed().as_nanos() as u64;
        completed
    }

    /// Whether the main thread starts no further iteration: a `go mate` limit is met, or the soft time budget
    /// times `scale` (the search's stability) is used.
    fn should_stop_iterating(&self, shared: &SharedSearch<'_>, score: i32, scale: f64) -> bool {
        if let Some(moves) = self.limits.mate
            && score >= MATE_IN_MAX_PLY
            && (MATE - score + 1) / 2 <= moves as i32
        {
            return true;
        }
        shared.time.soft_limit_reached(shared.control, scale)
    }

    /// One root search of `depth` with an aspiration window around `previous`, widened on failure. Returns the
    /// score and line, or `None` if the search was stopped before the line was known. The main thread reports
    /// each failed window of a long search.
    fn aspiration(
        &self,
        worker: &mut Worker,
        shared: &SharedSearch<'_>,
        depth: u32,
        previous: Option<i32>,
        pv_index: usize,
        report: &mut (dyn FnMut(&IterationReport) + Send),
    ) -> Option<(i32, Vec<Move>)> {
        let delta = shared.params.aspiration_window;
        let mut window = match previous {
            Some(score)
                if depth as i32 >= shared.params.aspiration_min_depth && score.abs() < MATE_IN_MAX_PLY =>
            {
                RootWindow::new(
                    depth,
                    (score - delta).max(-INFINITY),
                    (score + delta).min(INFINITY),
                    delta,
                )
            }
            _ => RootWindow::new(depth, -INFINITY, INFINITY, delta),
        };
        // Only the first line's window is shared: the threads search the same first line.
        let windows = shared.root_windows.filter(|_| pv_index == 0);
        if let Some(windows) = windows {
            window = windows.join(window);
        }
        let outcome = loop {
            worker.root_window = windows.map(|_| window);
            let score = SearchContext {
                worker: &mut *worker,
                shared,
                hooks: self.hooks,
            }
            .search::<true>(self.root, window.alpha, window.beta, depth as i32, 0, false);
            if worker.stopped() {
                // Another thread failed this window (`SharedWindows`): go on in the one it opened.
                match windows.and_then(|windows| self.window_left(worker, shared, windows, &window)) {
                    Some(next) => {
                        window = next;
                        continue;
                    }
                    None => break None,
                }
            }
            let pv = worker.root_pv();
            let bound = if score <= window.alpha {
                ScoreBound::Upper
            } else if score >= window.beta {
                ScoreBound::Lower
            } else {
                break (!pv.is_empty()).then_some((score, pv));
            };
            if worker.role == ThreadRole::Main {
                worker.stats.root_researches += 1;
                if !pv.is_empty() && self.start.elapsed() > Duration::from_millis(1000) {
                    report(&self.report(worker, shared, depth, pv_index, bound, (score, pv)));
                }
            }
            let widened = widen(window, bound, score);
            window = windows.map_or(widened, |windows| windows.failed(window, widened));
        };
        worker.root_window = None;
        outcome
    }

    /// The window to search next when this thread's search of `left` stopped because another thread opened a
    /// newer window of the iteration, with the thread ready to search again; `None` when it stopped for any
    /// other reason (the search is over, or another thread completed the iteration), which the caller handles.
    fn window_left(
        &self,
        worker: &mut Worker,
        shared: &SharedSearch<'_>,
        windows: &RootWindows,
        left: &RootWindow,
    ) -> Option<RootWindow> {
        if !worker.abandoned
            || shared.abort.load(Ordering::Relaxed)
            || shared.completed_depth.load(Ordering::Relaxed) >= left.depth
        {
            return None;
        }
        let next = windows.current(left.depth).filter(|next| next != left)?;
        worker.abandoned = false;
        worker.stopped = false;
        worker.stats.windows_left += 1;
        if worker.role == ThreadRole::Main {
            worker.stats.root_researches += 1;
        }
        Some(next)
    }

    /// The report of one line (`pv_index` from 0) of `depth`: its score and moves, and the search's counters.
    fn report(
        &self,
        worker: &Worker,
        shared: &SharedSearch<'_>,
        depth: u32,
        pv_index: usize,
        bound: ScoreBound,
        (score, pv): (i32, Vec<Move>),
    ) -> IterationReport {
        worker.publish_nodes(shared);
        let nodes = shared
            .node_counters
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum();
        IterationReport {
            depth,
            seldepth: worker.seldepth as u32,
            multipv: pv_index + 1,
            score: uci_score(score),
            bound,
            nodes,
            time: self.start.elapsed(),
            hashfull: shared.tt.hashfull(),
            pv,
        }
    }
}

/// The aspiration window after `window` failed with `score` on the side `bound` says: the failed bound moved
/// past the score by the window's step (on a fail low the upper bound also comes down to the middle of the old
/// window), then the step doubled; past 1000 centipawns the window is the whole range.
fn widen(window: RootWindow, bound: ScoreBound, score: i32) -> RootWindow {
    let RootWindow {
        depth,
        mut alpha,
        mut beta,
        delta,
        ..
    } = window;
    if bound == ScoreBound::Upper {
        beta = (alpha + beta) / 2;
        alpha = (score - delta).max(-INFINITY);
    } else {
        beta = (score + delta).min(INFINITY);
    }
    let delta = delta + delta;
    if delta > 1000 {
        alpha = -INFINITY;
        beta = INFINITY;
    }
    RootWindow::new(depth, alpha, beta, delta)
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::ParallelSettings;

    /// Searches the start position to `depth` with `options`, every report passed to `on_iteration`.
    fn search_startpos(
        engine: &mut Engine,
        options: &SearchOptions,
        depth: u32,
        on_iteration: &mut (dyn FnMut(&IterationReport) + Send),
    ) -> SearchOutcome {
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        engine.search(
            &Position::startpos(),
            Arc::default(),
            &limits,
            options,
            &SearchControl::new(),
            on_iteration,
        )
    }

    /// The depths a one-thread search to depth 5 reports as process `process` of a cluster.
    fn reported_depths(process: usize, staggered_ranks: bool, algorithm: ParallelAlgorithm) -> Vec<u32> {
        let mut engine = Engine::new(1).unwrap();
        engine.set_process_index(process);
        let options = SearchOptions {
            parallel: ParallelSettings {
                algorithm,
                cluster_staggered_ranks: staggered_ranks,
                ..ParallelSettings::default()
            },
            ..SearchOptions::default()
        };
        let mut depths = Vec::new();
        search_startpos(&mut engine, &options, 5, &mut |report| depths.push(report.depth));
        depths
    }

    #[test]
    fn staggered_ranks_put_odd_processes_one_ply_ahead_only_when_asked() {
        let lazy = ParallelAlgorithm::Lazy;
        assert_eq!(reported_depths(0, true, lazy), [1, 2, 3, 4, 5]);
        assert_eq!(reported_depths(1, true, lazy), [2, 3, 4, 5, 5]);
        assert_eq!(reported_depths(2, true, lazy), [1, 2, 3, 4, 5]);
        assert_eq!(reported_depths(1, false, lazy), [1, 2, 3, 4, 5]);
        // The ABDADAs stagger only with StaggeredDepths; YBWC never.
        assert_eq!(
            reported_depths(1, true, ParallelAlgorithm::Abdada),
            [1, 2, 3, 4, 5]
        );
        assert_eq!(reported_depths(1, true, ParallelAlgorithm::Ybwc), [1, 2, 3, 4, 5]);
    }

    /// With the network every algorithm's threads keep their accumulators in step with their positions (the
    /// stack checks each evaluation against one from the pieces in test builds), YBWC's tasks included, and
    /// still find the mate.
    #[test]
    fn every_algorithm_searches_with_the_network_and_its_accumulators_stay_in_step() {
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let mut engine = Engine::new(8).unwrap();
        engine.set_evaluation(Evaluation::network());
        for algorithm in ParallelAlgorithm::ALL {
            for threads in [1, 2, 4] {
                for fen in fens {
                    let root = Position::from_fen(fen).unwrap();
                    let game = Arc::new(
                        [(root.key(), root.halfmove_clock())]
                            .into_iter()
                            .collect::<GameHistory>(),
                    );
                    let options = SearchOptions {
                        threads,
                        parallel: ParallelSettings {
                            algorithm,
                            ..ParallelSettings::default()
                        },
                        ..SearchOptions::default()
                    };
                    let limits = SearchLimits {
                        depth: Some(7),
                        ..SearchLimits::default()
                    };
                    engine.new_game();
                    let outcome =
                        engine.search(&root, game, &limits, &options, &SearchControl::new(), &mut |_| {});
                    let best = outcome.best_move.expect("a legal move exists");
                    assert!(root.is_legal(best), "{algorithm:?} {threads} threads: {fen}");
                    if fen == fens[0] {
                        assert_eq!(
                            root.move_to_uci(best),
                            "h5f7",
                            "{algorithm:?} {threads} threads mates"
                        );
                    }
                }
            }
        }
    }

    /// The main thread counts its changes of mind as the iterations it reports show them, and its aspiration
    /// re-searches; a lazy SMP helper's own iterations count nothing.
    #[test]
    fn the_main_thread_counts_best_move_changes_and_root_researches() {
        let mut engine = Engine::new(8).unwrap();
        // A window of one centipawn fails on nearly every iteration.
        let mut options = SearchOptions::default();
        options.params.aspiration_window = 1;
        let mut best_moves = Vec::new();
        search_startpos(&mut engine, &options, 9, &mut |report| {
            if report.bound == ScoreBound::Exact && report.multipv == 1 {
                best_moves.push(report.pv[0]);
            }
        });
        let changes = best_moves.windows(2).filter(|pair| pair[0] != pair[1]).count() as u64;
        let main = engine.thread_stats()[0];
        assert!(changes > 0, "the start position changes its mind: {best_moves:?}");
        assert_eq!(main.best_move_changes, changes, "{best_moves:?}");
        assert!(main.root_researches > 0);

        let two_threads = SearchOptions {
            threads: 2,
            ..options
        };
        search_startpos(&mut engine, &two_threads, 9, &mut |_| {});
        let helper = engine.thread_stats()[1];
        assert_eq!((helper.best_move_changes, helper.root_researches), (0, 0));
        assert!(engine.thread_stats()[0].root_researches > 0);
    }

    /// `AbdadaHistory` / `SimplifiedAbdadaHistory`: an ABDADA helper searches with the main thread's tables or its
    /// own, as its algorithm's knob says (both share by default), and a lazy SMP
    /// search after a shared one gives every helper its own again.
    #[test]
    fn abdada_helpers_share_the_main_threads_history_only_when_set() {
        let mut engine = Engine::new(8).unwrap();
        let helpers_share = |engine: &Engine| {
            engine.workers[1..]
                .iter()
                .map(|helper| {
                    let history = helper
                        .history
                        .table
                        .is_shared_with(&engine.workers[0].history.table);
                    let correction = helper
                        .correction
                        .table
                        .is_shared_with(&engine.workers[0].correction.table);
                    assert_eq!(history, correction, "both tables follow the setting");
                    history
                })
                .collect::<Vec<bool>>()
        };
        // (algorithm, its knob's value or None for the default, the helpers share the main thread's tables)
        let runs = [
            (ParallelAlgorithm::Abdada, None, true),
            (ParallelAlgorithm::SimplifiedAbdada, Some("own"), false),
            (ParallelAlgorithm::Abdada, Some("own"), false),
            (ParallelAlgorithm::SimplifiedAbdada, None, true),
            (ParallelAlgorithm::Lazy, None, false),
            (ParallelAlgorithm::Abdada, Some("copy"), false),
            (ParallelAlgorithm::SimplifiedAbdada, Some("copy"), false),
        ];
        for (algorithm, setting, shared) in runs {
            let mut parallel = ParallelSettings {
                algorithm,
                ..ParallelSettings::default()
            };
            if let Some(setting) = setting {
                let knob = match algorithm {
                    ParallelAlgorithm::Abdada => "AbdadaHistory",
                    _ => "SimplifiedAbdadaHistory",
                };
                parallel.set_knob(knob, setting).unwrap();
            }
            let options = SearchOptions {
                threads: 3,
                parallel,
                ..SearchOptions::default()
            };
            let outcome = search_startpos(&mut engine, &options, 6, &mut |_| {});
            assert!(outcome.best_move.is_some());
            assert_eq!(
                helpers_share(&engine),
                [shared, shared],
                "{algorithm} {setting:?}"
            );
        }
    }

    /// Node-based time management reads the share of the root's nodes below each root move: every node below
    /// the root is counted for its root move, YBWC's root split points (whose brothers other threads search)
    /// included.
    #[test]
    fn root_move_nodes_account_for_the_whole_tree_with_and_without_split_points() {
        let mut engine = Engine::new(8).unwrap();
        for threads in [1, 2, 4] {
            let mut parallel = ParallelSettings {
                algorithm: ParallelAlgorithm::Ybwc,
                ..ParallelSettings::default()
            };
            parallel.set_knob("MinSplitDepth", "2").unwrap();
            parallel.set_knob("SplitOnlyWhenIdle", "false").unwrap();
            let options = SearchOptions {
                threads,
                parallel,
                ..SearchOptions::default()
            };
            engine.new_game();
            search_startpos(&mut engine, &options, 7, &mut |_| {});
            let main = &engine.workers[0];
            let below_root: u64 = main.root_move_nodes.iter().map(|&(_, nodes)| nodes).sum();
            let all = main.stats.nodes;
            assert_eq!(main.root_move_nodes.len(), 20, "{threads} threads");
            // Only the root nodes themselves (one per iteration and aspiration window) are outside.
            assert!(
                below_root <= all && all - below_root < 100,
                "{threads} threads: {below_root} of {all} nodes counted below root moves"
            );
            if threads > 1 {
                assert!(main.stats.splits > 0, "{threads} threads split");
            }
        }
    }
}
