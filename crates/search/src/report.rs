//! What a search tells the outside world: structured reports that the UCI layer formats as `info` and
//! `bestmove` lines. The search itself never writes text.

use eldest_board::Move;
use std::time::Duration;

/// A score from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// An evaluation in centipawns.
    Centipawns(i32),
    /// A forced mate in this many moves (not plies); negative when the side to move is mated.
    Mate(i32),
}

/// Whether a reported score is exact or only a bound (after an aspiration-window failure).
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
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / micros) as u64
    }
}

/// The result of a finished search.
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
