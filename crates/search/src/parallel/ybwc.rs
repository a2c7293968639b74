//! Young Brothers Wait (Feldmann; Hyatt's and Stockfish 6's split points as models): one thread runs the
//! iterative deepening; at a node of at least `MinSplitDepth` plies whose eldest son has returned without a
//! cutoff, the younger brothers are searched in parallel at a *split point* by the pool's threads.
//!
//! - **When to split.** With `SplitOnlyWhenIdle` (the default) a node splits only while some pool thread is
//!   idle, as Stockfish 6 and Crafty do: when every thread is busy, splitting would only cost. The pool counts
//!   its working threads; a thread waiting at its own split point for the others does not count as working, so
//!   a thread that finishes its brothers lends itself to the others' split points (the "helpful master").
//!   A node may split right after its eldest son and, with `LateSplits` (the default), after any later son,
//!   as Stockfish 6 offers a split after every move: a thread that becomes idle while a deep node is half-way
//!   through its moves gets that node's remaining brothers, not the next small node below.
//!   `EagerSplitDepth` (off by default) makes nodes of that depth split while every thread is busy too: the
//!   spare task waits in the splitting thread's queue and a thread that becomes idle steals the oldest, so it
//!   helps at the shallowest open node of the busy thread's path, as DTS lets it (measured no gain at 2 threads).
//! - **Joining.** The split point's remaining moves form one list taken from with an atomic cursor; one task per
//!   pool thread is offered (at most `SplitGroup`: Crafty lets 8 threads share a split point, Stockfish 6 five),
//!   and a thread that becomes idle later steals a task not yet started and joins.
//! - **What a helper copies.** Each pool thread keeps its own search state (its tables stay warm in its cache
//!   across split points and searches); joining a split point copies only the path: the repetition list, the
//!   killers and the static evaluations of the plies above, and the root restrictions. What the threads learn
//!   about moves (history, correction history) is governed by [`HelperHistory`]. With `SplitKillers` (off by
//!   default: measured no gain) the killers found below the brothers pass on to the next brother searched there
//!   and back to the splitting thread, as the serial search hands them on.
//! - **Cutoffs.** Every split point has a `Cutoff` flag linked to the flags of the split points opened below
//!   it; a brother that fails high sets its split point's flag and, through the links, every flag below — so
//!   each node checks one flag, its own innermost split point's, instead of walking the chain above it.
//! - **Window updates.** With `WindowUpdates` a brother that raises a PV split point's alpha stops the brothers
//!   still searched there against the lower alpha, through a flag of each linked below the split point's, and
//!   they are searched again against the raised one, as Feldmann's YBWC sends a new bound to the processors
//!   searching the brothers (Stockfish 6 and Crafty let them finish). On by default below
//!   [`MANY_THREADS`](super::MANY_THREADS) threads ([`WindowUpdates::Auto`](super::WindowUpdates::Auto)).
//!
//! # Examples
//!
//! ```
//! use eldest_board::Position;
//! use eldest_search::{Engine, ParallelAlgorithm, SearchControl, SearchLimits, SearchOptions};
//!
//! let mut engine = Engine::new(1)?;
//! let mut options = SearchOptions { threads: 2, ..SearchOptions::default() };
//! options.parallel.algorithm = ParallelAlgorithm::Ybwc;
//! // Feldmann's YBWC: every node of depth 2 or more splits, whether or not a thread is idle.
//! options.parallel.set_knob("MinSplitDepth", "2").unwrap();
//! options.parallel.set_knob("SplitOnlyWhenIdle", "false").unwrap();
//! let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
//! let outcome = engine.search(&Position::startpos(), Default::default(), &limits, &options,
//!     &SearchControl::new(), &mut |_| {});
//! assert!(outcome.best_move.is_some());
//! // The pool's work is counted in thread 0, the one that runs the iterative deepening.
//! assert!(engine.thread_stats()[0].splits > 0);
//! # Ok::<(), eldest_tt::TableSizeError>(())
//! ```

use crate::hooks::SearchHooks;
use crate::parallel::HelperHistory;
use crate::parallel::pool::poll_for_work;
use crate::worker::{
    Killers, MoveInLoop, MoveOutcome, NodeFacts, SearchContext, SharedSearch, ThreadRole, ThreadStats, Worker,
};
use crossbeam_utils::CachePadded;
use eldest_board::Move;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// YBWC as hooks: which nodes split, and the pool that searches their younger brothers.
///
/// # Examples
///
/// ```
/// use eldest_search::{SearchHooks, YbwcHooks, YbwcPool};
///
/// let pool = YbwcPool::new(4);
/// let hooks = YbwcHooks {
///     min_split_depth: 5, split_only_when_idle: true, eager_split_depth: 0, split_expected_cuts: true,
///     late_splits: true, expected_cut_sons: 2, pool: &pool,
/// };
/// // Idle threads wait in the pool, so a deep enough node hands its younger brothers to it.
/// assert!(hooks.split_pool(5, false, 1).is_some());
/// assert!(hooks.split_pool(4, false, 1).is_none());
/// // A node expected to fail high searches two sons alone first.
/// assert!(hooks.split_pool(5, true, 1).is_none());
/// assert!(hooks.split_pool(5, true, 2).is_some());
/// // With late splits, also after a later son (when a thread has become idle since the eldest returned).
/// assert!(hooks.split_pool(5, false, 3).is_some());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct YbwcHooks<'a> {
    /// `MinSplitDepth`.
    pub min_split_depth: i32,
    /// `SplitOnlyWhenIdle`.
    pub split_only_when_idle: bool,
    /// `EagerSplitDepth` (0: off): nodes this deep split while every thread is busy too.
    pub eager_split_depth: i32,
    /// `SplitExpectedCuts`: nodes still expected to fail high split too.
    pub split_expected_cuts: bool,
    /// `LateSplits`: a node may split after any son, not only right after the eldest.
    pub late_splits: bool,
    /// `ExpectedCutSons`: the sons a node still expected to fail high searches alone before it may split.
    pub expected_cut_sons: usize,
    /// The threads and their states.
    pub pool: &'a YbwcPool,
}

impl YbwcHooks<'_> {
    /// Whether a node of `depth` splits whether or not a thread is idle now (`EagerSplitDepth`). One thread
    /// never gets here: the engine runs the plain search for it.
    #[inline]
    fn eager(&self, depth: i32) -> bool {
        self.eager_split_depth > 0 && depth >= self.eager_split_depth
    }
}

impl SearchHooks for YbwcHooks<'_> {
    type NodeGuard<'g>
        = ()
    where
        Self: 'g;

    #[inline(always)]
    fn enter_node(&self, _key: u64, _depth: i32) {}

    #[inline(always)]
    fn split_pool(&self, depth: i32, expected_cut: bool, sons_searched: usize) -> Option<&YbwcPool> {
        let sons_alone = if expected_cut { self.expected_cut_sons } else { 1 };
        (depth >= self.min_split_depth
            && (sons_searched == sons_alone || (self.late_splits && sons_searched > sons_alone))
            && (self.split_expected_cuts || !expected_cut)
            && (!self.split_only_when_idle || self.eager(depth) || self.pool.has_idle_thread()))
        .then_some(self.pool)
    }
}

/// YBWC's threads as split points see them: how many are working, and each pool thread's reusable search states.
///
/// ```
/// use eldest_search::YbwcPool;
/// let pool = YbwcPool::new(2);
/// assert_eq!(pool.threads(), 2);
/// assert!(pool.has_idle_thread(), "nobody works before a search starts");
/// ```
#[derive(Debug)]
pub struct YbwcPool {
    threads: usize,
    /// Threads searching right now: the main thread's iterative deepening and every running task, less the
    /// threads waiting at their own split points. On cache lines of its own: it changes at every split point's
    /// start and end, and a neighbour read at every node (the engine keeps the table's address beside the pool)
    /// would miss each time.
    working: CachePadded<AtomicUsize>,
    /// Per pool thread, states not in use (a thread may need several: a task inside a wait inside a task).
    states: Vec<Mutex<Vec<Worker>>>,
    /// `HelperHistory`, stored as `setting as u8` (only ever a valid setting's).
    helper_history: AtomicU8,
    /// `IdleSpin`: a thread waiting at its split point polls for the tasks' end (and for work) instead of
    /// sleeping until the last task wakes it.
    spin: AtomicBool,
    /// `SplitGroup`: the most tasks a split point offers (each task is one thread's share of the brothers).
    split_group: AtomicUsize,
    /// `SplitKillers`: the killers found below a split point's brothers go on to the next brother searched
    /// there and back to the splitting thread.
    split_killers: AtomicBool,
    /// `WaitForResearch`: a PV split point hands out no brother while one of its brothers is searched again
    /// with the full window.
    wait_for_research: AtomicBool,
}

impl YbwcPool {
    /// Bookkeeping for a pool of `threads` threads.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::YbwcPool;
    ///
    /// assert_eq!(YbwcPool::new(8).threads(), 8);
    /// // A search always has its own thread.
    /// assert_eq!(YbwcPool::new(0).threads(), 1);
    /// ```
    pub fn new(threads: usize) -> YbwcPool {
        YbwcPool {
            threads: threads.max(1),
            working: CachePadded::new(AtomicUsize::new(0)),
            states: (0..threads.max(1)).map(|_| Mutex::new(Vec::new())).collect(),
            helper_history: AtomicU8::new(HelperHistory::Shared as u8),
            spin: AtomicBool::new(false),
            split_group: AtomicUsize::new(usize::MAX),
            split_killers: AtomicBool::new(false),
            wait_for_research: AtomicBool::new(false),
        }
    }

    /// The pool's thread count.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::YbwcPool;
    ///
    /// assert_eq!(YbwcPool::new(3).threads(), 3);
    /// ```
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether fewer threads work than the pool has.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::YbwcPool;
    ///
    /// // Between searches nobody works, so even a pool of one thread has one idle.
    /// assert!(YbwcPool::new(1).has_idle_thread());
    /// ```
    #[inline]
    pub fn has_idle_thread(&self) -> bool {
        self.working.load(Ordering::Relaxed) < self.threads
    }

    /// A search starts: its main thread is the one working thread.
    pub(crate) fn start_search(&self, settings: PoolSettings) {
        let PoolSettings {
            helper_history,
            spin,
            split_group,
            split_killers,
            wait_for_research,
        } = settings;
        self.working.store(1, Ordering::Relaxed);
        self.split_killers.store(split_killers, Ordering::Relaxed);
        self.wait_for_research.store(wait_for_research, Ordering::Relaxed);
        self.split_group.store(split_group, Ordering::Relaxed);
        self.helper_history.store(helper_history as u8, Ordering::Relaxed);
        self.spin.store(spin, Ordering::Relaxed);
    }

    /// Forgets what the states learnt (`ucinewgame`).
    pub(crate) fn clear(&self) {
        for states in &self.states {
            lock(states).iter_mut().for_each(Worker::clear);
        }
    }

    /// How many tasks a split point of `brothers` younger brothers offers: one per pool thread, at most
    /// `SplitGroup`, and never more than there are brothers.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::YbwcPool;
    ///
    /// let pool = YbwcPool::new(16);
    /// // Before a search sets SplitGroup, every thread may join.
    /// assert_eq!(pool.split_tasks(30), 16);
    /// assert_eq!(pool.split_tasks(3), 3);
    /// ```
    pub fn split_tasks(&self, brothers: usize) -> usize {
        self.threads
            .min(self.split_group.load(Ordering::Relaxed))
            .min(brothers)
    }

    fn helper_history(&self) -> HelperHistory {
        HelperHistory::ALL[usize::from(self.helper_history.load(Ordering::Relaxed))]
    }

    fn take_state(&self) -> (usize, Worker) {
        let thread = rayon::current_thread_index().unwrap_or(0) % self.threads;
        let state = lock(&self.states[thread]).pop().unwrap_or_default();
        (thread, state)
    }

    fn return_state(&self, thread: usize, state: Worker) {
        lock(&self.states[thread]).push(state);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a search asks of the pool: the YBWC knobs its threads read while it runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PoolSettings {
    /// `HelperHistory`.
    pub(crate) helper_history: HelperHistory,
    /// `IdleSpin`.
    pub(crate) spin: bool,
    /// `SplitGroup`.
    pub(crate) split_group: usize,
    /// `SplitKillers`.
    pub(crate) split_killers: bool,
    /// `WaitForResearch`.
    pub(crate) wait_for_research: bool,
}

/// A split point's cutoff flag, linked to the flags of the split points opened below it.
#[derive(Debug, Default)]
pub(crate) struct Cutoff {
    flag: AtomicBool,
    below: Mutex<Vec<Arc<Cutoff>>>,
}

impl Cutoff {
    /// A flag for a split point opened below `parent`'s (set at once if the parent's already is).
    fn below(parent: Option<&Arc<Cutoff>>) -> Arc<Cutoff> {
        let cutoff = Arc::new(Cutoff::default());
        if let Some(parent) = parent {
            lock(&parent.below).push(Arc::clone(&cutoff));
            // Set after the push: either `set` saw the new link, or this load sees its flag.
            if parent.flag.load(Ordering::SeqCst) {
                cutoff.set();
            }
        }
        cutoff
    }

    /// The work this flag guards has ended (its split point closed, or its brother's search returned): `parent`,
    /// the flag it was opened below, stops linking to it. Without this a long-lived split point's list kept every
    /// split point ever opened below it (up to 59 over the long set at two threads, against 2 with it, and more
    /// with more threads), and each cutoff walked them all, holding the locks that new split points wait for.
    fn unlink_from(self: &Arc<Self>, parent: &Cutoff) {
        lock(&parent.below).retain(|below| !Arc::ptr_eq(below, self));
    }

    /// The flags linked below this one now (tests: ended work leaves the list).
    #[cfg(test)]
    fn linked(&self) -> usize {
        lock(&self.below).len()
    }

    /// The work below is no longer needed: this flag and every one below it.
    fn set(&self) {
        self.flag.store(true, Ordering::SeqCst);
        for below in lock(&self.below).iter() {
            below.set();
        }
    }

    /// Whether the work below this split point is no longer needed.
    #[inline]
    pub(crate) fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

/// What the younger brothers of one node share while they are searched in parallel.
struct SplitPoint {
    /// The node's alpha, raised by any brother that beats it.
    alpha: AtomicI32,
    /// The best brother so far: score, move, the line below it.
    best: Mutex<Option<(i32, Move, Vec<Move>)>>,
    cutoff: Arc<Cutoff>,
    /// The counters of the tasks, merged when each ends (nodes included).
    totals: Mutex<ThreadStats>,
    /// Brothers searched to the end.
    searched: AtomicUsize,
    /// The next brother to hand out.
    next: AtomicUsize,
    /// At the root: the nodes each brother's search took, for node-based time management.
    root_move_nodes: Mutex<Vec<(Move, u64)>>,
    /// The place in the move list of the earliest brother that failed high (`usize::MAX`: none).
    first_cut: AtomicUsize,
    /// Per brother: the nodes its search took that no split point below has counted as speculative yet.
    brother_nodes: Vec<AtomicU64>,
    /// `WindowUpdates`: the brothers being searched now, each with the flag that stops it for a restart.
    in_flight: Mutex<Vec<Arc<Cutoff>>>,
    /// `SplitKillers`: the killers of the plies below the node as the last brother searched to the end left
    /// them (the splitting thread's at the start), as the serial search hands them from brother to brother.
    killers: Mutex<Killers>,
    /// `WaitForResearch`: the brothers being searched again with the full window now (the count is shared with
    /// the workers searching them, which raise it from inside the move's search).
    researching: Arc<AtomicUsize>,
    /// `WaitForResearch`: tasks that ended because a brother was being searched again, to be offered once more
    /// when no brother is.
    parked: AtomicUsize,
}

impl SplitPoint {
    /// A split point of `brothers` brothers searched with `alpha`, below the split point whose flag is `parent`.
    fn new(alpha: i32, parent: Option<&Arc<Cutoff>>, brothers: usize, killers: &Killers) -> SplitPoint {
        SplitPoint {
            alpha: AtomicI32::new(alpha),
            best: Mutex::new(None),
            cutoff: Cutoff::below(parent),
            totals: Mutex::new(ThreadStats::default()),
            searched: AtomicUsize::new(0),
            next: AtomicUsize::new(0),
            root_move_nodes: Mutex::new(Vec::new()),
            first_cut: AtomicUsize::new(usize::MAX),
            brother_nodes: (0..brothers).map(|_| AtomicU64::new(0)).collect(),
            in_flight: Mutex::new(Vec::new()),
            killers: Mutex::new(*killers),
            researching: Arc::new(AtomicUsize::new(0)),
            parked: AtomicUsize::new(0),
        }
    }

    /// `SplitKillers`: `worker` starts a brother of the node at `ply`, or the splitting thread goes on after the
    /// split point, with the killers the last brother searched to the end left for the plies below the node.
    fn hand_killers_to(&self, worker: &mut Worker, ply: usize) {
        worker.killers[ply + 1..].copy_from_slice(&lock(&self.killers)[ply + 1..]);
    }

    /// `SplitKillers`: `worker` searched a brother of the node at `ply` to the end; its killers below the node
    /// are the ones the next brother starts with.
    fn take_killers_from(&self, worker: &Worker, ply: usize) {
        lock(&self.killers)[ply + 1..].copy_from_slice(&worker.killers[ply + 1..]);
    }

    /// `WaitForResearch`: whether a task ends here, before taking a brother, because another brother is being
    /// searched again with the full window. Counted as parked, it is offered again when that search returns
    /// ([`Self::research_ended`]); a task that does not park takes the next brother.
    fn parks(&self) -> bool {
        if self.researching.load(Ordering::SeqCst) == 0 {
            return false;
        }
        self.parked.fetch_add(1, Ordering::SeqCst);
        // Looked at again after counting itself: a search that returned in between may not have seen the count.
        if self.researching.load(Ordering::SeqCst) > 0 {
            return true;
        }
        // Take the count back, unless a returning search took it already and offers a task in its place.
        let mut parked = self.parked.load(Ordering::SeqCst);
        while parked > 0 {
            match self
                .parked
                .compare_exchange(parked, parked - 1, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => return false,
                Err(now) => parked = now,
            }
        }
        true
    }

    /// `WaitForResearch`: a brother's search with the full window returned (its worker had raised
    /// `researching`). Returns how many parked tasks to offer again: all of them once no brother is searched
    /// again, none while one still is or when the split point is cut off (nothing is left to search).
    fn research_ended(&self) -> usize {
        if self.researching.fetch_sub(1, Ordering::SeqCst) == 1 && !self.cutoff.is_set() {
            self.parked.swap(0, Ordering::SeqCst)
        } else {
            0
        }
    }

    /// A brother came back with `score`: the split point's alpha rises to it, and a raise below `beta` stops
    /// the brothers in flight under `WindowUpdates` (their flags) for a search against the new alpha. A score of
    /// `beta` or more is a cutoff, which the caller signals to every brother through the split point's own flag.
    fn raise_alpha(&self, score: i32, beta: i32) {
        let raised = self.alpha.fetch_max(score, Ordering::Relaxed) < score;
        if raised && score < beta {
            for flag in lock(&self.in_flight).iter() {
                flag.set();
            }
        }
    }
}

/// The nodes of the brothers after the one that cut a split point (`first_cut`, `usize::MAX` where none did):
/// the work the serial search would have saved.
fn nodes_past_cut(first_cut: usize, brother_nodes: &[u64]) -> u64 {
    brother_nodes.iter().skip(first_cut.saturating_add(1)).sum()
}

/// What a split point found.
pub(crate) struct SplitResult {
    /// The best brother: score, move, the line below it.
    pub(crate) best: Option<(i32, Move, Vec<Move>)>,
    /// Brothers searched to the end.
    pub(crate) searched: usize,
    /// At the root: the nodes each brother's search took (empty below the root).
    pub(crate) root_move_nodes: Vec<(Move, u64)>,
}

impl<H: SearchHooks> SearchContext<'_, '_, H> {
    /// Searches `brothers` (the younger brothers of `node`, in order, each with its place in the move loop) at a
    /// split point. Each is searched with exactly the serial loop's per-move logic; all share the split point's
    /// alpha, read before each move; a brother that fails high sets the split point's cutoff, which every worker
    /// below it sees at its next node. Returns the best brother and how many were searched to the end.
    pub(crate) fn split<const PV: bool>(
        &mut self,
        pool: &YbwcPool,
        node: &NodeFacts<'_>,
        brothers: &[MoveInLoop],
        alpha: i32,
        best_score: i32,
    ) -> SplitResult {
        let point = SplitPoint::new(
            alpha,
            self.worker.cutoff.as_ref(),
            brothers.len(),
            &self.worker.killers,
        );
        let tasks = pool.split_tasks(brothers.len());
        let job = SplitJob {
            shared: self.shared,
            hooks: self.hooks,
            pool,
            master: &*self.worker,
            node,
            point: &point,
            brothers,
            best_score,
        };
        let waiting = Instant::now();
        // This thread stops counting as working while it waits; the tasks it runs itself count again.
        pool.working.fetch_sub(1, Ordering::Relaxed);
        let unfinished = AtomicUsize::new(0);
        rayon::scope(|scope| {
            let unfinished = &unfinished;
            for _ in 0..tasks {
                job.offer::<PV>(scope, unfinished);
            }
            if pool.spin.load(Ordering::Relaxed) {
                // Run tasks here (this thread's own first, then the others' nested ones) until all are done,
                // never sleeping: rayon's wait would put this thread to sleep while the last task runs, and
                // waking it costs more than a short search's split point gains.
                poll_for_work(|| unfinished.load(Ordering::Acquire) > 0);
            }
        });
        pool.working.fetch_add(1, Ordering::Relaxed);
        if let Some(parent) = &self.worker.cutoff {
            point.cutoff.unlink_from(parent);
        }
        self.worker.stats.split_wait_ns += waiting.elapsed().as_nanos() as u64;
        if pool.split_killers.load(Ordering::Relaxed) {
            // The splitting thread searches on with what its brothers' subtrees taught, as the serial search
            // would, not with the killers it had before them.
            point.hand_killers_to(self.worker, node.ply);
        }
        self.worker
            .stats
            .add(&point.totals.into_inner().unwrap_or_else(|e| e.into_inner()));
        self.worker.stats.splits += 1;
        self.worker.stats.split_tasks += brothers.len() as u64;
        let brother_nodes: Vec<u64> = point
            .brother_nodes
            .into_iter()
            .map(AtomicU64::into_inner)
            .collect();
        self.worker.stats.speculative_nodes += nodes_past_cut(point.first_cut.into_inner(), &brother_nodes);
        if self.shared.abort.load(Ordering::Relaxed)
            || self.worker.cutoff.as_ref().is_some_and(|c| c.is_set())
        {
            self.worker.stopped = true;
        }
        SplitResult {
            best: point.best.into_inner().unwrap_or_else(|e| e.into_inner()),
            searched: point.searched.into_inner(),
            root_move_nodes: point
                .root_move_nodes
                .into_inner()
                .unwrap_or_else(|e| e.into_inner()),
        }
    }
}

impl Worker {
    /// A pool thread's state joins a split point opened by `master` at `ply`: it takes the path, not the rest.
    fn join_split(&mut self, master: &Worker, ply: usize, cutoff: &Arc<Cutoff>, history: HelperHistory) {
        self.repetitions.clone_from(&master.repetitions);
        // The master's tables are the main thread's (a nested split point's master shares them already).
        self.learn_with(master, history);
        *self.killers = *master.killers;
        self.static_evals[..=ply].copy_from_slice(&master.static_evals[..=ply]);
        self.accumulators.copy_ply(&master.accumulators, ply);
        self.double_extensions[..=ply].copy_from_slice(&master.double_extensions[..=ply]);
        self.root_excluded.clone_from(&master.root_excluded);
        self.root_allowed.clone_from(&master.root_allowed);
        self.cutoff = Some(Arc::clone(cutoff));
        self.role = ThreadRole::SplitTask;
        self.stoppable = master.stoppable;
        self.iteration_depth = master.iteration_depth;
        self.seldepth = 0;
        self.stats = ThreadStats::default();
        self.stopped = false;
        self.abandoned = false;
    }
}

/// Everything one task of a split point reads.
struct SplitJob<'j, 's, H> {
    shared: &'j SharedSearch<'s>,
    hooks: &'j H,
    pool: &'j YbwcPool,
    /// The state of the thread that opened the split point, which the tasks' states copy the path from.
    master: &'j Worker,
    node: &'j NodeFacts<'j>,
    point: &'j SplitPoint,
    brothers: &'j [MoveInLoop],
    best_score: i32,
}

impl<H> Clone for SplitJob<'_, '_, H> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<H> Copy for SplitJob<'_, '_, H> {}

impl<'j, 's, H: SearchHooks> SplitJob<'j, 's, H> {
    /// Offers one task (one thread's share of the brothers) to the pool: the thread that opened the split
    /// point runs one itself, idle threads steal the others. `unfinished` counts the tasks not yet done.
    fn offer<'scope, const PV: bool>(self, scope: &rayon::Scope<'scope>, unfinished: &'scope AtomicUsize)
    where
        'j: 'scope,
        's: 'scope,
    {
        unfinished.fetch_add(1, Ordering::Relaxed);
        scope.spawn(move |scope| {
            self.run::<PV>(scope, unfinished);
            unfinished.fetch_sub(1, Ordering::Release);
        });
    }

    /// `WaitForResearch`: `worker`'s brother is no longer searched again with the full window; when no brother
    /// is, the tasks that ended meanwhile are offered again (unless the split point is cut off).
    fn research_done<'scope, const PV: bool>(
        self,
        worker: &mut Worker,
        scope: &rayon::Scope<'scope>,
        unfinished: &'scope AtomicUsize,
    ) where
        'j: 'scope,
        's: 'scope,
    {
        if std::mem::take(&mut worker.research_announced) {
            for _ in 0..self.point.research_ended() {
                self.offer::<PV>(scope, unfinished);
            }
        }
    }

    /// One task: takes brothers from the split point's list until none is left or the point is cut off.
    fn run<'scope, const PV: bool>(self, scope: &rayon::Scope<'scope>, unfinished: &'scope AtomicUsize)
    where
        'j: 'scope,
        's: 'scope,
    {
        let SplitJob {
            shared,
            hooks,
            pool,
            master,
            node,
            point,
            brothers,
            best_score,
        } = self;
        let started = Instant::now();
        // Only a PV split point's alpha rises without a cutoff.
        let window_updates = PV && shared.window_updates;
        let split_killers = pool.split_killers.load(Ordering::Relaxed);
        // Only a PV split point's brothers are searched again with the full window.
        let wait_for_research = PV && pool.wait_for_research.load(Ordering::Relaxed);
        let mut state: Option<(usize, Worker)> = None;
        let mut totals = ThreadStats::default();
        let mut working = false;
        loop {
            // `WaitForResearch`: a brother searched again with the full window is the node's new best guess, as
            // the eldest son was: the brothers wait for it, and this thread, now idle, helps inside it.
            if wait_for_research && point.parks() {
                totals.research_waits += 1;
                break;
            }
            let index = point.next.fetch_add(1, Ordering::Relaxed);
            let Some(&this) = brothers.get(index) else {
                break;
            };
            let mut alpha_now = point.alpha.load(Ordering::Relaxed);
            if point.cutoff.is_set() || alpha_now >= node.beta {
                totals.aborted_tasks += 1;
                continue;
            }
            if !working {
                pool.working.fetch_add(1, Ordering::Relaxed);
                working = true;
            }
            let (_, worker) = state.get_or_insert_with(|| {
                let (thread, mut worker) = pool.take_state();
                worker.join_split(master, node.ply, &point.cutoff, pool.helper_history());
                if wait_for_research {
                    worker.split_research = Some((node.ply, Arc::clone(&point.researching)));
                }
                (thread, worker)
            });
            worker.stats = ThreadStats::default();
            worker.stopped = false;
            if split_killers {
                point.hand_killers_to(worker, node.ply);
            }
            let mut context = SearchContext {
                worker,
                shared,
                hooks,
            };
            // The split node's accumulators, when the master's were not up to date, are computed once here
            // rather than from the pieces at every evaluation of the task's subtree.
            context.anchor_accumulators(node.position, node.ply);
            let outcome = loop {
                let restart = window_updates.then(|| {
                    let flag = Cutoff::below(Some(&point.cutoff));
                    lock(&point.in_flight).push(Arc::clone(&flag));
                    // Read after the flag is in the list: a raise from now on sets it.
                    alpha_now = point.alpha.load(Ordering::Relaxed);
                    flag
                });
                if let Some(flag) = &restart {
                    context.worker.cutoff = Some(Arc::clone(flag));
                }
                let outcome = context.search_move::<PV>(node, this, alpha_now, best_score);
                let Some(flag) = restart else {
                    break outcome;
                };
                lock(&point.in_flight).retain(|other| !Arc::ptr_eq(other, &flag));
                flag.unlink_from(&point.cutoff);
                context.worker.cutoff = Some(Arc::clone(&point.cutoff));
                alpha_now = point.alpha.load(Ordering::Relaxed);
                // Stopped by its own flag alone: another brother raised the alpha; search it again against it.
                if !(context.worker.stopped
                    && flag.is_set()
                    && !point.cutoff.is_set()
                    && !shared.abort.load(Ordering::Relaxed)
                    && alpha_now < node.beta)
                {
                    break outcome;
                }
                // Searched again from the start: against the raised alpha it may not fail high at all.
                self.research_done::<PV>(context.worker, scope, unfinished);
                context.worker.stopped = false;
                context.worker.stats.window_restarts += 1;
            };
            let stopped = worker.stopped;
            totals.add(&worker.stats);
            point.brother_nodes[index].store(worker.stats.unclaimed_nodes(), Ordering::Relaxed);
            if node.root {
                lock(&point.root_move_nodes).push((this.mv, worker.stats.nodes));
            }
            if stopped {
                self.research_done::<PV>(worker, scope, unfinished);
                totals.aborted_tasks += 1;
                continue;
            }
            if split_killers {
                point.take_killers_from(worker, node.ply);
            }
            // Pruned and deferred moves come back before any re-search: nothing to end.
            let MoveOutcome::Searched(score) = outcome else {
                continue;
            };
            point.searched.fetch_add(1, Ordering::Relaxed);
            {
                let mut best = lock(&point.best);
                if best.as_ref().is_none_or(|(best_score, _, _)| score > *best_score) {
                    *best = Some((score, this.mv, worker.pv_line(node.ply + 1)));
                }
            }
            point.raise_alpha(score, node.beta);
            if score >= node.beta {
                point.first_cut.fetch_min(index, Ordering::Relaxed);
                point.cutoff.set();
            }
            // After the cutoff or the raise: a task offered again must see them.
            self.research_done::<PV>(worker, scope, unfinished);
        }
        if working {
            pool.working.fetch_sub(1, Ordering::Relaxed);
        }
        if let Some((thread, mut worker)) = state {
            worker.cutoff = None;
            worker.split_research = None;
            pool.return_state(thread, worker);
        }
        // This task's own work is its time minus its waits at split points it opened; the work of the tasks below
        // those is already in `task_busy_ns`.
        let own_ns = (started.elapsed().as_nanos() as u64).saturating_sub(totals.split_wait_ns);
        totals.task_busy_ns += own_ns;
        totals.split_wait_ns = 0;
        lock(&point.totals).add(&totals);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_brothers_after_the_cutting_one_are_speculative() {
        assert_eq!(nodes_past_cut(1, &[10, 20, 30, 40]), 70);
        assert_eq!(nodes_past_cut(3, &[10, 20, 30, 40]), 0);
        assert_eq!(
            nodes_past_cut(usize::MAX, &[10, 20, 30, 40]),
            0,
            "no cut: the serial search does it all"
        );
    }

    #[test]
    fn a_cutoff_reaches_every_split_point_below_and_only_those() {
        let root = Cutoff::below(None);
        let child = Cutoff::below(Some(&root));
        let grandchild = Cutoff::below(Some(&child));
        let sibling = Cutoff::below(Some(&root));
        child.set();
        assert!(child.is_set() && grandchild.is_set());
        assert!(!root.is_set() && !sibling.is_set());
        root.set();
        assert!(sibling.is_set());
        let late = Cutoff::below(Some(&root));
        assert!(late.is_set(), "a split point opened below a cut one starts cut");
    }

    #[test]
    fn ended_work_leaves_its_parents_list_and_a_later_cutoff_reaches_only_the_live_flags() {
        let root = Cutoff::below(None);
        let ended: Vec<Arc<Cutoff>> = (0..1000).map(|_| Cutoff::below(Some(&root))).collect();
        let live = Cutoff::below(Some(&root));
        let below_live = Cutoff::below(Some(&live));
        assert_eq!(root.linked(), 1001);
        for flag in &ended {
            flag.unlink_from(&root);
        }
        assert_eq!(root.linked(), 1, "only the split point still open");
        // Unlinking twice, or from a flag it was never below, changes nothing.
        ended[0].unlink_from(&root);
        below_live.unlink_from(&root);
        assert_eq!((root.linked(), live.linked()), (1, 1));
        root.set();
        assert!(live.is_set() && below_live.is_set());
        assert!(
            ended.iter().all(|flag| !flag.is_set()),
            "ended work is not reached"
        );
    }

    /// `SplitKillers`: a brother's killers below the split node reach the next brother and the splitting thread;
    /// the killers of the node's own ply and above are the path's, and stay each thread's.
    #[test]
    fn killers_below_a_split_node_pass_from_brother_to_brother_and_back() {
        let position = eldest_board::Position::startpos();
        let [e4, d4, c4] = ["e2e4", "d2d4", "c2c4"].map(|m| position.parse_uci_move(m).unwrap());
        let ply = 3;
        let mut master = Worker::default();
        master.killers[ply][0] = Some(e4);
        master.killers[ply + 1][0] = Some(e4);
        let point = SplitPoint::new(0, None, 2, &master.killers);

        let mut first = Worker::default();
        point.hand_killers_to(&mut first, ply);
        assert_eq!(
            first.killers[ply + 1][0],
            Some(e4),
            "the splitting thread's to start"
        );
        assert_eq!(first.killers[ply][0], None, "the node's own ply is not handed on");
        first.killers[ply][0] = Some(c4);
        first.killers[ply + 2][0] = Some(d4);
        point.take_killers_from(&first, ply);

        let mut second = Worker::default();
        point.hand_killers_to(&mut second, ply);
        assert_eq!(second.killers[ply + 2][0], Some(d4), "the last brother's");
        assert_eq!(second.killers[ply][0], None);

        point.hand_killers_to(&mut master, ply);
        assert_eq!(
            master.killers[ply + 2][0],
            Some(d4),
            "back to the splitting thread"
        );
        assert_eq!(master.killers[ply][0], Some(e4), "its own ply untouched");
    }

    #[test]
    fn a_raise_of_alpha_below_beta_stops_the_brothers_in_flight() {
        let point = SplitPoint::new(10, None, 3, &NO_KILLERS);
        let in_flight: Vec<Arc<Cutoff>> = (0..2).map(|_| Cutoff::below(Some(&point.cutoff))).collect();
        lock(&point.in_flight).extend(in_flight.iter().cloned());
        point.raise_alpha(5, 100);
        assert!(
            in_flight.iter().all(|flag| !flag.is_set()),
            "a brother below alpha raises nothing"
        );
        assert_eq!(point.alpha.load(Ordering::Relaxed), 10);
        point.raise_alpha(40, 100);
        assert!(in_flight.iter().all(|flag| flag.is_set()));
        assert!(!point.cutoff.is_set(), "a raise is not a cutoff");
        assert_eq!(point.alpha.load(Ordering::Relaxed), 40);

        // A cutoff is left to the split point's own flag, which reaches the brothers through the links.
        let point = SplitPoint::new(10, None, 3, &NO_KILLERS);
        let brother = Cutoff::below(Some(&point.cutoff));
        lock(&point.in_flight).push(Arc::clone(&brother));
        point.raise_alpha(100, 100);
        assert!(!brother.is_set());
    }

    #[test]
    fn cutoffs_race_with_new_split_points_without_loss() {
        for _ in 0..200 {
            let root = Cutoff::below(None);
            let children: Vec<Arc<Cutoff>> = std::thread::scope(|scope| {
                let opener = scope.spawn(|| (0..50).map(|_| Cutoff::below(Some(&root))).collect::<Vec<_>>());
                root.set();
                opener.join().unwrap()
            });
            assert!(children.iter().all(|c| c.is_set()));
        }
    }

    /// Split points open and close below one flag from several threads while another thread cuts it: every flag
    /// still open when the cut comes is set, and the closed ones leave the list.
    #[test]
    fn cutoffs_race_with_split_points_opening_and_closing_without_loss() {
        const THREADS: usize = 4;
        for _ in 0..100 {
            let root = Cutoff::below(None);
            let still_open: Vec<Arc<Cutoff>> = std::thread::scope(|scope| {
                let openers: Vec<_> = (0..THREADS)
                    .map(|_| {
                        scope.spawn(|| {
                            for _ in 0..20 {
                                let closed = Cutoff::below(Some(&root));
                                let nested = Cutoff::below(Some(&closed));
                                nested.unlink_from(&closed);
                                closed.unlink_from(&root);
                            }
                            Cutoff::below(Some(&root))
                        })
                    })
                    .collect();
                root.set();
                openers.into_iter().map(|opener| opener.join().unwrap()).collect()
            });
            assert!(still_open.iter().all(|flag| flag.is_set()));
            assert_eq!(root.linked(), THREADS, "only the flags still open");
        }
    }

    #[test]
    fn a_joining_state_shares_owns_or_copies_the_masters_history_as_set() {
        let position = eldest_board::Position::startpos();
        let e4 = position.parse_uci_move("e2e4").unwrap();
        let us = position.side_to_move();
        let mut master = Worker::default();
        master.history.update(us, e4, 300);
        let cutoff = Cutoff::below(None);
        let mut helper = Worker::default();

        helper.join_split(&master, 0, &cutoff, HelperHistory::Copy);
        assert_eq!(helper.history.score(us, e4), 300);
        helper.history.update(us, e4, 300);
        assert_eq!(master.history.score(us, e4), 300, "a copy learns alone");

        helper.join_split(&master, 0, &cutoff, HelperHistory::Shared);
        assert!(helper.history.table.is_shared_with(&master.history.table));
        assert!(helper.correction.table.is_shared_with(&master.correction.table));
        helper.history.update(us, e4, 1000);
        assert_eq!(master.history.score(us, e4), helper.history.score(us, e4));
        let learnt = master.history.score(us, e4);

        helper.join_split(&master, 0, &cutoff, HelperHistory::Own);
        assert!(!helper.history.table.is_shared_with(&master.history.table));
        assert!(!helper.correction.table.is_shared_with(&master.correction.table));
        helper.history.update(us, e4, -5000);
        assert_eq!(
            master.history.score(us, e4),
            learnt,
            "an own table keeps what it learns"
        );
    }

    #[test]
    fn the_count_of_working_threads_has_its_cache_lines_to_itself() {
        let pool = YbwcPool::new(2);
        let start = std::ptr::from_ref(&pool.working) as usize;
        let end = start + std::mem::size_of_val(&pool.working);
        let counter = std::ptr::from_ref(&*pool.working) as usize;
        assert!(std::mem::align_of_val(&pool.working) >= 64);
        assert!(end - start >= 64);
        for field in [
            std::ptr::from_ref(&pool.threads) as usize,
            std::ptr::from_ref(&pool.split_group) as usize,
            std::ptr::from_ref(&pool.spin) as usize,
        ] {
            assert!(
                field < start || field >= end,
                "a field inside the counter's lines"
            );
            assert!(field.abs_diff(counter) >= 64);
        }
    }

    const NO_KILLERS: Killers = [[None; 2]; crate::worker::MAX_PLY + 2];

    #[test]
    fn tasks_park_behind_a_re_search_and_are_offered_again_when_the_last_one_returns() {
        let point = SplitPoint::new(0, None, 8, &NO_KILLERS);
        assert!(!point.parks(), "no brother searched again: take the next one");
        // Two brothers searched again at once; three tasks park meanwhile.
        point.researching.fetch_add(2, Ordering::SeqCst);
        assert!(point.parks() && point.parks() && point.parks());
        assert_eq!(point.research_ended(), 0, "one re-search still runs");
        assert!(point.parks());
        assert_eq!(point.research_ended(), 4, "every parked task is offered again");
        assert_eq!(point.parked.load(Ordering::SeqCst), 0);
        assert!(!point.parks());
        // A cut split point offers nothing again: no brother is left to search.
        point.researching.fetch_add(1, Ordering::SeqCst);
        assert!(point.parks());
        point.cutoff.set();
        assert_eq!(point.research_ended(), 0);
    }

    #[test]
    fn parking_and_offering_again_race_without_losing_a_task() {
        // A task counts itself parked and a re-search returns at the same moment, many times over: every task
        // either goes on (it saw the re-search end) or is offered again, never both and never neither.
        for _ in 0..2000 {
            let point = SplitPoint::new(0, None, 8, &NO_KILLERS);
            point.researching.fetch_add(1, Ordering::SeqCst);
            let (parked, offered) = std::thread::scope(|scope| {
                let parker = scope.spawn(|| point.parks());
                let ender = scope.spawn(|| point.research_ended());
                (parker.join().unwrap(), ender.join().unwrap())
            });
            assert_eq!(usize::from(parked), offered, "parked {parked}, offered {offered}");
        }
    }

    fn settings(helper_history: HelperHistory, spin: bool, split_group: usize) -> PoolSettings {
        PoolSettings {
            helper_history,
            spin,
            split_group,
            split_killers: false,
            wait_for_research: false,
        }
    }

    #[test]
    fn the_pool_counts_idle_threads() {
        let pool = YbwcPool::new(2);
        pool.start_search(settings(HelperHistory::Copy, false, 256));
        assert!(pool.has_idle_thread());
        pool.working.fetch_add(1, Ordering::Relaxed);
        assert!(!pool.has_idle_thread());
    }

    #[test]
    fn a_split_point_offers_at_most_split_group_tasks() {
        let pool = YbwcPool::new(16);
        pool.start_search(settings(HelperHistory::Own, true, 5));
        assert_eq!(pool.split_tasks(30), 5);
        assert_eq!(pool.split_tasks(4), 4);
        pool.start_search(settings(HelperHistory::Own, true, 256));
        assert_eq!(pool.split_tasks(30), 16);
        let small = YbwcPool::new(2);
        small.start_search(settings(HelperHistory::Own, true, 5));
        assert_eq!(
            small.split_tasks(30),
            2,
            "a group larger than the pool changes nothing"
        );
    }
}
