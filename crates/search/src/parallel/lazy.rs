//! Lazy SMP, the modern baseline: every thread runs its own iterative deepening over the whole root and shares
//! only the transposition table. Helpers spread over depths (odd helpers one ply deeper), and the move to play
//! is chosen by a vote of the threads weighted by depth and score, as Stockfish chooses it: a move several deep
//! threads agree on beats a lone thread's.
//!
//! # Examples
//!
//! ```
//! use eldest_board::Position;
//! use eldest_search::{Engine, ParallelAlgorithm, SearchControl, SearchLimits, SearchOptions};
//!
//! let mut engine = Engine::new(1)?;
//! let options = SearchOptions { threads: 2, ..SearchOptions::default() };
//! assert_eq!(options.parallel.algorithm, ParallelAlgorithm::Lazy);
//! let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
//! let outcome = engine.search(&Position::startpos(), Default::default(), &limits, &options,
//!     &SearchControl::new(), &mut |_| {});
//! // Both threads searched the whole root themselves; one move was chosen for them.
//! assert!(engine.thread_stats().iter().all(|stats| stats.nodes > 0));
//! assert!(Position::startpos().legal_moves().contains(&outcome.best_move.unwrap()));
//! # Ok::<(), eldest_tt::TableSizeError>(())
//! ```

use crate::limits::SearchLimits;
use eldest_board::Move;
use eldest_tt::MATE_IN_MAX_PLY;

/// The iteration depth a lazy SMP thread searches when the main thread would search `depth`: odd helpers one
/// ply deeper, so the threads spread over two depths and fill the table for each other.
///
/// ```
/// use eldest_search::lazy_helper_depth;
/// assert_eq!(lazy_helper_depth(0, 7, 64), 7); // the main thread
/// assert_eq!(lazy_helper_depth(1, 7, 64), 8);
/// assert_eq!(lazy_helper_depth(2, 7, 64), 7);
/// assert_eq!(lazy_helper_depth(1, 64, 64), 64);
/// ```
pub fn lazy_helper_depth(thread: usize, depth: u32, max_depth: u32) -> u32 {
    (depth + (thread as u32 & 1)).min(max_depth)
}

/// One thread's last completed iteration, as the vote sees it.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Ballot, lazy_vote};
/// use eldest_tt::MATE;
///
/// let p = Position::startpos();
/// let (e4, d4) = (p.parse_uci_move("e2e4").unwrap(), p.parse_uci_move("d2d4").unwrap());
/// // A proven mate is not put to a vote, however deep the others searched.
/// let ballots = [Ballot { depth: 20, score: 50, mv: e4 }, Ballot { depth: 20, score: 45, mv: e4 },
///                Ballot { depth: 9, score: MATE - 7, mv: d4 }];
/// assert_eq!(lazy_vote(&ballots), Some(2));
/// assert_eq!(lazy_vote(&[]), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ballot {
    /// The iteration's depth.
    pub depth: u32,
    /// Its score, from the root's side.
    pub score: i32,
    /// Its move.
    pub mv: Move,
}

/// Which thread's result to report: each thread votes for its move with weight `(score − worst + 14) × depth`;
/// the thread whose move has most votes, and among those the deepest-searched with the best score, wins. A proven
/// mate is taken from the thread that proves the shortest one. Ties go to the lowest index (the main thread).
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Ballot, lazy_vote};
/// let p = Position::startpos();
/// let (e4, d4) = (p.parse_uci_move("e2e4").unwrap(), p.parse_uci_move("d2d4").unwrap());
/// // The main thread alone prefers d4 at depth 12; two threads at 12 and 13 agree on e4.
/// let ballots = [Ballot { depth: 12, score: 30, mv: d4 }, Ballot { depth: 12, score: 25, mv: e4 },
///                Ballot { depth: 13, score: 28, mv: e4 }];
/// assert_eq!(lazy_vote(&ballots), Some(2));
/// ```
pub fn lazy_vote(ballots: &[Ballot]) -> Option<usize> {
    let worst = ballots.iter().map(|b| b.score).min()?;
    if let Some((index, _)) = ballots
        .iter()
        .enumerate()
        .filter(|(_, b)| b.score >= MATE_IN_MAX_PLY)
        .max_by_key(|(i, b)| (b.score, std::cmp::Reverse(*i)))
    {
        return Some(index);
    }
    let weight = |b: &Ballot| (i64::from(b.score) - i64::from(worst) + 14) * i64::from(b.depth);
    let votes = |mv: Move| -> i64 { ballots.iter().filter(|b| b.mv == mv).map(weight).sum() };
    ballots
        .iter()
        .enumerate()
        .max_by_key(|(i, b)| (votes(b.mv), b.depth, b.score, std::cmp::Reverse(*i)))
        .map(|(i, _)| i)
}

/// Whether a search's result is put to the vote at all (Stockfish's rule): not under a depth limit, where a
/// helper or rank stopped by another's completion may hold an iteration one ply short of the depth asked for,
/// nor with several lines, whose shown lines are the main thread's.
///
/// # Examples
///
/// ```
/// use eldest_search::{SearchLimits, vote_applies};
///
/// assert!(vote_applies(&SearchLimits::default(), 1));
/// assert!(!vote_applies(&SearchLimits { depth: Some(8), ..SearchLimits::default() }, 1));
/// assert!(!vote_applies(&SearchLimits::default(), 3));
/// ```
pub fn vote_applies(limits: &SearchLimits, multi_pv: usize) -> bool {
    limits.depth.is_none() && multi_pv <= 1
}

/// Which result to report, between threads or between a cluster's ranks: the vote's choice ([`lazy_vote`]), or
/// without `vote` (a depth limit, several lines) the deepest ballot, the lowest index on a tie.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Ballot, choose_ballot};
///
/// let p = Position::startpos();
/// let (e4, d4) = (p.parse_uci_move("e2e4").unwrap(), p.parse_uci_move("d2d4").unwrap());
/// // Two helpers one ply short agree on e4 with a better score: they win a vote, not a depth limit.
/// let ballots = [Ballot { depth: 12, score: 30, mv: d4 }, Ballot { depth: 11, score: 90, mv: e4 },
///                Ballot { depth: 11, score: 90, mv: e4 }];
/// assert_eq!(choose_ballot(&ballots, true), Some(1));
/// assert_eq!(choose_ballot(&ballots, false), Some(0));
/// assert_eq!(choose_ballot(&[], false), None);
/// ```
pub fn choose_ballot(ballots: &[Ballot], vote: bool) -> Option<usize> {
    if vote {
        return lazy_vote(ballots);
    }
    ballots
        .iter()
        .enumerate()
        .max_by_key(|(i, b)| (b.depth, std::cmp::Reverse(*i)))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use eldest_board::Position;

    fn moves() -> (Move, Move) {
        let p = Position::startpos();
        (
            p.parse_uci_move("e2e4").unwrap(),
            p.parse_uci_move("d2d4").unwrap(),
        )
    }

    #[test]
    fn one_thread_is_its_own_choice_and_none_means_none() {
        let (e4, _) = moves();
        assert_eq!(
            lazy_vote(&[Ballot {
                depth: 5,
                score: 0,
                mv: e4
            }]),
            Some(0)
        );
        assert_eq!(lazy_vote(&[]), None);
    }

    #[test]
    fn ties_go_to_the_main_thread() {
        let (e4, d4) = moves();
        let ballots = [
            Ballot {
                depth: 10,
                score: 20,
                mv: e4,
            },
            Ballot {
                depth: 10,
                score: 20,
                mv: d4,
            },
        ];
        assert_eq!(lazy_vote(&ballots), Some(0));
    }

    #[test]
    fn the_shortest_proven_mate_wins_any_vote() {
        let (e4, d4) = moves();
        let mate = eldest_tt::MATE - 5;
        let ballots = [
            Ballot {
                depth: 20,
                score: 50,
                mv: e4,
            },
            Ballot {
                depth: 20,
                score: 50,
                mv: e4,
            },
            Ballot {
                depth: 9,
                score: mate,
                mv: d4,
            },
        ];
        assert_eq!(lazy_vote(&ballots), Some(2));
    }

    #[test]
    fn a_deeper_thread_outweighs_a_shallower_one_on_equal_scores() {
        let (e4, d4) = moves();
        let ballots = [
            Ballot {
                depth: 11,
                score: 10,
                mv: e4,
            },
            Ballot {
                depth: 12,
                score: 10,
                mv: d4,
            },
        ];
        assert_eq!(lazy_vote(&ballots), Some(1));
    }
}
