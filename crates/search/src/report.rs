//! What a search tells the outside world: structured reports that the UCI layer formats as `info` and
//! `bestmove` lines. The search itself never writes text.

use eldest_board::Move;
use std::time::Duration;

/// A score from the side to move's point of view.
///
/// # Examples
///
/// ```
/// use eldest_search::{Score, uci_score};
/// use eldest_tt::MATE;
///
/// // The search counts plies to mate; a report counts the mating side's moves.
/// assert_eq!(uci_score(MATE - 3), Score::Mate(2));
/// assert_eq!(uci_score(-(MATE - 2)), Score::Mate(-1));
/// assert_eq!(uci_score(57), Score::Centipawns(57));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// An evaluation in centipawns.
    Centipawns(i32),
    /// A forced mate in this many moves (not plies); negative when the side to move is mated.
    Mate(i32),
}

/// Whether a reported score is exact or only a bound (after an aspiration-window failure).
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Engine, ScoreBound, SearchControl, SearchLimits, SearchOptions};
///
/// let mut engine = Engine::new(1)?;
/// let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
/// let mut bounds = Vec::new();
/// engine.search(&Position::startpos(), Default::default(), &limits, &SearchOptions::default(),
///     &SearchControl::new(), &mut |report| bounds.push(report.bound));
/// // Failed aspiration windows are reported only after a second: a short search reports exact lines.
/// assert!(!bounds.is_empty() && bounds.iter().all(|&bound| bound == ScoreBound::Exact));
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreBound {
    /// The true score.
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One principal variation at the end of an iteration (or of an aspiration re-search), for an `info` line.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Engine, IterationReport, SearchControl, SearchLimits, SearchOptions};
///
/// let mut engine = Engine::new(1)?;
/// let limits = SearchLimits { depth: Some(3), ..SearchLimits::default() };
/// let mut reports: Vec<IterationReport> = Vec::new();
/// engine.search(&Position::startpos(), Default::default(), &limits, &SearchOptions::default(),
///     &SearchControl::new(), &mut |report| reports.push(report.clone()));
/// assert_eq!(reports.iter().map(|r| r.depth).collect::<Vec<_>>(), [1, 2, 3]);
/// assert!(reports.iter().all(|r| r.multipv == 1 && !r.pv.is_empty() && r.seldepth >= r.depth));
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IterationReport {
    /// Completed iteration depth.
    pub depth: u32,
    /// Deepest ply reached (selective depth).
    pub seldepth: u32,
    /// Index of this line among the MultiPV lines, from 1.
    pub multipv: usize,
    /// The line's score.
    pub score: Score,
    /// Whether the score is exact or a bound.
    pub bound: ScoreBound,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition-table fill in permille.
    pub hashfull: u32,
    /// The principal variation, starting with the root move.
    pub pv: Vec<Move>,
}

impl IterationReport {
    /// Nodes per second so far.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use eldest_search::{IterationReport, Score, ScoreBound};
    ///
    /// let report = IterationReport {
    ///     depth: 9, seldepth: 14, multipv: 1, score: Score::Centipawns(20), bound: ScoreBound::Exact,
    ///     nodes: 300_000, time: Duration::from_millis(250), hashfull: 3, pv: Vec::new(),
    /// };
    /// assert_eq!(report.nps(), 1_200_000);
    /// // A report in the first microsecond does not divide by zero.
    /// assert_eq!(IterationReport { time: Duration::ZERO, ..report }.nps(), 300_000_000_000);
    /// ```
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / micros) as u64
    }
}

/// The result of a finished search.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Engine, Score, SearchControl, SearchLimits, SearchOptions};
///
/// let mut engine = Engine::new(1)?;
/// // Black is checkmated: there is no move to play, and the score says so.
/// let mated = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
/// let limits = SearchLimits { depth: Some(2), ..SearchLimits::default() };
/// let outcome = engine.search(&mated, Default::default(), &limits, &SearchOptions::default(),
///     &SearchControl::new(), &mut |_| {});
/// assert_eq!((outcome.best_move, outcome.score, outcome.nodes), (None, Score::Mate(0), 0));
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to play; `None` when the root has no legal move (checkmate or stalemate).
    pub best_move: Option<Move>,
    /// The expected reply, for `bestmove ... ponder ...`.
    pub ponder_move: Option<Move>,
    /// The score of the best move.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Time the search took.
    pub time: Duration,
}
