//! What a search is asked to do: its limits (from `go`), its options (from `setoption`), and the shared
//! control flags through which the UCI layer stops it or turns a ponder search into a timed one.

use eldest_board::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The side to move's clock, from `go wtime/btime winc/binc movestogo`.
///
/// # Examples
///
/// ```
/// use std::time::{Duration, Instant};
/// use eldest_search::{Clock, SearchControl, SearchLimits, SearchOptions, TimeManager};
///
/// // `go wtime 60000 btime 60000 winc 1000 binc 1000`, White to move.
/// let (remaining, increment) = (Duration::from_secs(60), Duration::from_secs(1));
/// let clock = Clock { remaining, increment, moves_to_go: None };
/// let limits = SearchLimits { clock: Some(clock), ..SearchLimits::default() };
/// let time = TimeManager::new(Instant::now(), &limits, &SearchOptions::default());
/// assert!(time.is_timed());
/// assert!(!time.hard_limit_reached(&SearchControl::new()), "a minute is not spent on one move at once");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

/// The limits of one search, from the parameters of `go`. Several may be combined: the search stops at the
/// first one reached. With none at all the search runs until stopped (like `go infinite`).
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Engine, Score, SearchControl, SearchLimits, SearchOptions};
///
/// let mut engine = Engine::new(1)?;
/// let root = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
/// // `go depth 5 mate 1`: the mate is proven at once, long before depth 5.
/// let limits = SearchLimits { depth: Some(5), mate: Some(1), ..SearchLimits::default() };
/// let outcome = engine.search(&root, Default::default(), &limits, &SearchOptions::default(),
///     &SearchControl::new(), &mut |_| {});
/// assert_eq!((outcome.score, outcome.depth), (Score::Mate(1), 1));
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Maximum iteration depth in plies (`go depth`).
    pub depth: Option<u32>,
    /// Maximum number of nodes, summed over all threads (`go nodes`).
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves (`go mate`): stop once one is proven.
    pub mate: Option<u32>,
    /// Fixed time for this move (`go movetime`).
    pub move_time: Option<Duration>,
    /// The side to move's clock (`go wtime/btime/...`), for time management.
    pub clock: Option<Clock>,
    /// Search until `stop` (`go infinite`); the best move is not reported before then.
    pub infinite: bool,
    /// Only these root moves (`go searchmoves`); empty means all legal moves.
    pub search_moves: Vec<Move>,
}

/// Settings that persist between searches (UCI options).
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
///
/// let mut engine = Engine::new(1)?;
/// let options = SearchOptions { multi_pv: 2, ..SearchOptions::default() };
/// let limits = SearchLimits { depth: Some(2), ..SearchLimits::default() };
/// let mut lines = Vec::new();
/// engine.search(&Position::startpos(), Default::default(), &limits, &options, &SearchControl::new(),
///     &mut |report| lines.push((report.depth, report.multipv)));
/// assert_eq!(lines, [(1, 1), (1, 2), (2, 1), (2, 2)]);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOptions {
    /// Number of principal variations to report (`MultiPV`), at least 1.
    pub multi_pv: usize,
    /// Time reserved per move for communication and GUI lag (`Move Overhead`).
    pub move_overhead: Duration,
    /// Search threads (`Threads`), at least 1.
    pub threads: usize,
    /// The parallel algorithm and its knobs (`ParallelAlgorithm`, `DeferDepth`, `CsTableRows`, `CsWays`).
    pub parallel: crate::parallel::ParallelSettings,
    /// The search's constants (margins, reductions, history bonuses): the defaults unless a tuner sets them.
    pub params: crate::SearchParams,
    /// With several threads, count [`ThreadStats::duplicate_nodes`](crate::ThreadStats::duplicate_nodes): one
    /// more table probe per node, so for measurements (`eldest bench --count-duplicates` sets it), not for play.
    pub count_duplicates: bool,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            multi_pv: 1,
            move_overhead: Duration::from_millis(30),
            threads: 1,
            parallel: crate::parallel::ParallelSettings::default(),
            params: crate::SearchParams::DEFAULT,
            count_duplicates: false,
        }
    }
}

/// Flags shared between the thread that runs the search and the thread that reads commands.
///
/// `stop` ends the search as soon as every thread notices it (each checks it every few thousand nodes and at
/// every iteration). `pondering` is set for `go ponder`: the search then ignores its clock until `ponderhit`
/// clears the flag, and it never reports its best move while the flag is set.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use eldest_board::Position;
/// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
///
/// let (mut engine, control) = (Engine::new(1)?, SearchControl::new());
/// control.reset(true); // `go ponder depth 3`
/// let limits = SearchLimits { depth: Some(3), ..SearchLimits::default() };
/// std::thread::scope(|scope| {
///     let search = scope.spawn(|| engine.search(&Position::startpos(), Default::default(), &limits,
///         &SearchOptions::default(), &control, &mut |_| {}));
///     // Depth 3 is reached at once, but a ponder search must not answer before the opponent moves.
///     std::thread::sleep(Duration::from_millis(50));
///     assert!(!search.is_finished());
///     control.ponderhit();
///     assert!(search.join().unwrap().best_move.is_some());
/// });
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    ponderhit_at: std::sync::Mutex<Option<Instant>>,
}

impl SearchControl {
    /// Fresh flags: not stopped, not pondering.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::SearchControl;
    ///
    /// let control = SearchControl::new();
    /// assert!(!control.is_stopped() && !control.is_pondering());
    /// assert_eq!(control.ponderhit_at(), None);
    /// ```
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Asks the search to stop (`stop`, `quit`).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
    ///
    /// let mut engine = Engine::new(1)?;
    /// let control = SearchControl::new();
    /// control.stop();
    /// let limits = SearchLimits { depth: Some(10), ..SearchLimits::default() };
    /// let outcome = engine.search(&Position::startpos(), Default::default(), &limits,
    ///     &SearchOptions::default(), &control, &mut |_| {});
    /// // The threads notice the stop within a few thousand nodes, short of depth 10, with a move to play.
    /// assert!(outcome.depth < 10 && outcome.best_move.is_some());
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Whether a stop was requested.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::SearchControl;
    ///
    /// let control = SearchControl::new();
    /// control.stop();
    /// assert!(control.is_stopped());
    /// // A stop belongs to one search: the next `go` starts afresh.
    /// control.reset(false);
    /// assert!(!control.is_stopped());
    /// ```
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// Prepares the flags for a new search; `pondering` for `go ponder`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::SearchControl;
    ///
    /// let control = SearchControl::new();
    /// control.ponderhit();
    /// control.stop();
    /// control.reset(true);
    /// // Nothing of the last search is left: not stopped, and no ponderhit yet for this one.
    /// assert!(control.is_pondering() && !control.is_stopped());
    /// assert_eq!(control.ponderhit_at(), None);
    /// ```
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::Release);
        self.pondering.store(pondering, Ordering::Release);
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// The opponent played the expected move (`ponderhit`): from now on the search keeps its clock.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::SearchControl;
    ///
    /// let control = SearchControl::new();
    /// control.reset(true);
    /// control.ponderhit();
    /// // The search goes on, now on its own clock.
    /// assert!(!control.is_pondering() && !control.is_stopped());
    /// assert!(control.ponderhit_at().is_some());
    /// ```
    pub fn ponderhit(&self) {
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        self.pondering.store(false, Ordering::Release);
    }

    /// Whether the search is pondering (its clock is not running yet).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::SearchControl;
    ///
    /// let control = SearchControl::new();
    /// control.reset(true);
    /// assert!(control.is_pondering());
    /// control.reset(false);
    /// assert!(!control.is_pondering());
    /// ```
    #[inline]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// When `ponderhit` arrived, if it did: the moment the search's own clock started.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Instant;
    /// use eldest_search::SearchControl;
    ///
    /// let control = SearchControl::new();
    /// control.reset(true);
    /// let before = Instant::now();
    /// control.ponderhit();
    /// let at = control.ponderhit_at().unwrap();
    /// assert!(before <= at && at <= Instant::now());
    /// ```
    pub fn ponderhit_at(&self) -> Option<Instant> {
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner())
    }
}
