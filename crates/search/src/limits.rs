//! What a search is asked to do: its limits (from `go`), its options (from `setoption`), and the shared
//! control flags through which the UCI layer stops it or turns a ponder search into a timed one.

use eldest_board::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The side to move's clock, from `go wtime/btime winc/binc movestogo`.
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
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            multi_pv: 1,
            move_overhead: Duration::from_millis(30),
            threads: 1,
            parallel: crate::parallel::ParallelSettings::default(),
            params: crate::SearchParams::DEFAULT,
        }
    }
}

/// Flags shared between the thread that runs the search and the thread that reads commands.
///
/// `stop` ends the search as soon as every thread notices it (each checks it every few thousand nodes and at
/// every iteration). `pondering` is set for `go ponder`: the search then ignores its clock until `ponderhit`
/// clears the flag, and it never reports its best move while the flag is set.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    ponderhit_at: std::sync::Mutex<Option<Instant>>,
}

impl SearchControl {
    /// Fresh flags: not stopped, not pondering.
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Asks the search to stop (`stop`, `quit`).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Whether a stop was requested.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// Prepares the flags for a new search; `pondering` for `go ponder`.
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::Release);
        self.pondering.store(pondering, Ordering::Release);
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// The opponent played the expected move (`ponderhit`): from now on the search keeps its clock.
    pub fn ponderhit(&self) {
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        self.pondering.store(false, Ordering::Release);
    }

    /// Whether the search is pondering (its clock is not running yet).
    #[inline]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// When `ponderhit` arrived, if it did: the moment the search's own clock started.
    pub fn ponderhit_at(&self) -> Option<Instant> {
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner())
    }
}
