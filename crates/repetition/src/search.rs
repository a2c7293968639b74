//! [`SearchRepetitions`]: one search thread's stack of the positions between the root and the current node.

use std::sync::Arc;

use crate::{GameHistory, RepetitionRule};

/// The path from the root to the current node of one search thread, with the shared [`GameHistory`] behind it.
///
/// Each thread owns one: [`push`](Self::push) after making a move, [`pop`](Self::pop) after unmaking it, and
/// ask [`is_repetition_draw`](Self::is_repetition_draw) at the new node. Because the stack is the thread's own,
/// another thread's path can never make a position look repeated (the failure of a transposition-table marker,
/// seed 004; see `docs/repetition.md`).
///
/// The root itself is not on the stack: it is the last position of the game history, at ply 0.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};
///
/// let game: Arc<GameHistory> = Arc::new([(0xA, 0)].into_iter().collect());
/// let mut path = SearchRepetitions::new(Arc::clone(&game), RepetitionRule::Stockfish);
/// // Four reversible plies (a knight out and back for each side) return to the root…
/// for (key, clock) in [(0xB, 1), (0xC, 2), (0xD, 3), (0xA, 4)] {
///     path.push(key, clock);
/// }
/// // …which is only the second occurrence of a game position: not yet a draw.
/// assert!(!path.is_repetition_draw());
/// // Going round once more repeats positions of the search path: a draw at once.
/// for (key, clock) in [(0xB, 5), (0xC, 6), (0xD, 7), (0xA, 8)] {
///     path.push(key, clock);
/// }
/// assert!(path.is_repetition_draw());
/// path.pop();
/// assert_eq!(path.ply(), 7);
/// ```
#[derive(Debug)]
pub struct SearchRepetitions {
    game: Arc<GameHistory>,
    rule: RepetitionRule,
    /// `path[i]` is the position at ply `i + 1`.
    path: Vec<PathEntry>,
}

impl Clone for SearchRepetitions {
    fn clone(&self) -> SearchRepetitions {
        SearchRepetitions {
            game: Arc::clone(&self.game),
            rule: self.rule,
            path: self.path.clone(),
        }
    }

    /// Copies `source` into this path's own storage: a YBWC helper copies the splitting thread's path at every
    /// split point it joins, and a fresh allocation there (freed again at the next join, then grown by the
    /// first move) made the two threads queue on the allocator's lock.
    fn clone_from(&mut self, source: &SearchRepetitions) {
        self.game.clone_from(&source.game);
        self.rule = source.rule;
        self.path.clone_from(&source.path);
    }
}

/// One position of the search path.
#[derive(Clone, Copy, Debug)]
struct PathEntry {
    key: u64,
    /// How many plies back an earlier occurrence of this position may lie: the halfmove clock, cut further by a
    /// null move in the path (the positions before a null move cannot be reached again by legal moves with the
    /// same parity, so a "repetition" across it would be fake).
    reach: u16,
}

/// Typical maximal search depth; the stack grows beyond it if needed.
const INITIAL_CAPACITY: usize = 256;

/// The shortest distance at which a position can recur: after two plies each side has moved one piece once,
/// and neither can have undone the other's move.
const SHORTEST_CYCLE: usize = 4;

impl SearchRepetitions {
    /// An empty path whose root is the current position of `game`, judged by `rule`.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};
    ///
    /// let game: GameHistory = [(0x11, 0), (0x22, 1)].into_iter().collect();
    /// let path = SearchRepetitions::new(Arc::new(game), RepetitionRule::MicroMax);
    /// // The root is the game's last position, not an entry of the path.
    /// assert_eq!(path.ply(), 0);
    /// assert_eq!(path.game().current_key(), Some(0x22));
    /// assert_eq!(path.rule(), RepetitionRule::MicroMax);
    /// ```
    pub fn new(game: Arc<GameHistory>, rule: RepetitionRule) -> Self {
        Self {
            game,
            rule,
            path: Vec::with_capacity(INITIAL_CAPACITY),
        }
    }

    /// Starts a new search on `game` with the same rule, keeping the allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};
    ///
    /// let first: GameHistory = [(0x11, 0)].into_iter().collect();
    /// let mut path = SearchRepetitions::new(Arc::new(first), RepetitionRule::MicroMax);
    /// path.push(0x22, 1);
    /// // The next `position` command brings a new game: the thread reuses its stack for it.
    /// let next: GameHistory = [(0x33, 0), (0x44, 1)].into_iter().collect();
    /// path.reset(Arc::new(next));
    /// assert_eq!(path.ply(), 0);
    /// assert_eq!(path.game().current_key(), Some(0x44));
    /// assert_eq!(path.rule(), RepetitionRule::MicroMax);
    /// ```
    pub fn reset(&mut self, game: Arc<GameHistory>) {
        self.game = game;
        self.path.clear();
    }

    /// Pops everything back to the root.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};
    ///
    /// let game: GameHistory = [(0xA, 0)].into_iter().collect();
    /// let mut path = SearchRepetitions::new(Arc::new(game), RepetitionRule::Stockfish);
    /// path.push(0xB, 1);
    /// path.push(0xC, 2);
    /// // A stopped search unwinds without popping move by move; the game behind the root stays.
    /// path.clear();
    /// assert_eq!(path.ply(), 0);
    /// assert_eq!(path.game().current_key(), Some(0xA));
    /// ```
    pub fn clear(&mut self) {
        self.path.clear();
    }

    /// Records the position reached by a move: its Zobrist key and halfmove clock (0 after a capture or a pawn
    /// move, which cuts the lookback).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};
    ///
    /// let mut path = SearchRepetitions::new(Arc::new(GameHistory::new()), RepetitionRule::Stockfish);
    /// for (key, clock) in [(0xB, 1), (0xC, 2), (0xD, 3), (0xE, 4), (0xB, 5)] {
    ///     path.push(key, clock);
    /// }
    /// assert!(path.is_repetition_draw());
    /// // The same return with a capture on the way (clock 0): nothing before the capture can recur.
    /// path.pop();
    /// path.pop();
    /// path.push(0xF, 0);
    /// path.push(0xB, 1);
    /// assert!(!path.is_repetition_draw());
    /// ```
    pub fn push(&mut self, key: u64, halfmove_clock: u16) {
        let reach = halfmove_clock.min(self.parent_reach().saturating_add(1));
        self.path.push(PathEntry { key, reach });
    }

    /// Records the position reached by a null move (the side to move passes). Nothing before it can be
    /// repeated after it, as with an irreversible move, but the halfmove clock — which the fifty-move rule
    /// reads from the board — does not reset.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};
    ///
    /// let mut path = SearchRepetitions::new(Arc::new(GameHistory::new()), RepetitionRule::Stockfish);
    /// path.push(0xB, 1);
    /// path.push(0xC, 2);
    /// path.push_null(0xD);
    /// path.push(0xE, 4);
    /// path.push(0xB, 5);
    /// // The key matches ply 1, but a pass lies between: not a position the game could repeat.
    /// assert!(!path.is_repetition_draw());
    /// assert_eq!(path.ply(), 5);
    /// ```
    pub fn push_null(&mut self, key: u64) {
        self.path.push(PathEntry { key, reach: 0 });
    }

    /// Forgets the position of the last [`push`](Self::push) or [`push_null`](Self::push_null), as the search
    /// unmakes its move.
    ///
    /// # Panics
    ///
    /// If the path is empty: a pop without a push is a bug in the search.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};
    ///
    /// let mut path = SearchRepetitions::new(Arc::new(GameHistory::new()), RepetitionRule::Stockfish);
    /// for (key, clock) in [(0xB, 1), (0xC, 2), (0xD, 3), (0xE, 4), (0xB, 5)] {
    ///     path.push(key, clock);
    /// }
    /// assert!(path.is_repetition_draw());
    /// // Unmaking the repeating move leaves a node that is not drawn.
    /// path.pop();
    /// assert!(!path.is_repetition_draw());
    /// assert_eq!(path.ply(), 4);
    /// ```
    pub fn pop(&mut self) {
        self.path
            .pop()
            .expect("SearchRepetitions::pop at the root: unbalanced push/pop");
    }

    /// The number of positions pushed: the ply of the current node (0 at the root).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};
    ///
    /// let mut path = SearchRepetitions::new(Arc::new(GameHistory::new()), RepetitionRule::Stockfish);
    /// assert_eq!(path.ply(), 0);
    /// path.push(0xB, 1);
    /// // A null move is a ply of the search too.
    /// path.push_null(0xC);
    /// assert_eq!(path.ply(), 2);
    /// ```
    pub fn ply(&self) -> usize {
        self.path.len()
    }

    /// The rule for returns to game positions.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};
    ///
    /// let mut path = SearchRepetitions::new(Arc::new(GameHistory::new()), RepetitionRule::MicroMax);
    /// // The rule is a setting of the thread, not of the game: a reset keeps it.
    /// path.reset(Arc::new(GameHistory::new()));
    /// assert_eq!(path.rule(), RepetitionRule::MicroMax);
    /// ```
    pub fn rule(&self) -> RepetitionRule {
        self.rule
    }

    /// The shared game history behind the root.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};
    ///
    /// let game: Arc<GameHistory> = Arc::new([(0xA, 0), (0xB, 1)].into_iter().collect());
    /// let path = SearchRepetitions::new(Arc::clone(&game), RepetitionRule::Stockfish);
    /// // Every thread reads the one history: the path holds a handle, not a copy.
    /// assert!(Arc::ptr_eq(path.game(), &game));
    /// assert_eq!(path.game().current_key(), Some(0xB));
    /// ```
    pub fn game(&self) -> &Arc<GameHistory> {
        &self.game
    }

    /// Whether the current node is a draw by repetition, by the rules of the [crate docs](crate):
    ///
    /// 1. an earlier occurrence strictly after the root (inside the search path) is a draw at once;
    /// 2. under [`RepetitionRule::Stockfish`], a position that occurred twice in the game up to and including the
    ///    root is a draw (this occurrence completes a threefold); under [`RepetitionRule::MicroMax`], a position
    ///    that occurred in the game before the root is a draw.
    ///
    /// Only positions with the same side to move (every second ply) within the halfmove clock are looked at,
    /// and the game only when no irreversible or null move was made inside the search. At the root this is
    /// always false: the root's own standing is [`GameHistory::is_threefold`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};
    ///
    /// let game: Arc<GameHistory> = Arc::new([(1, 0), (2, 1), (3, 2), (4, 3), (5, 4)].into_iter().collect());
    /// let returns_to_1 = |rule| {
    ///     let mut path = SearchRepetitions::new(Arc::clone(&game), rule);
    ///     [(6, 5), (7, 6), (8, 7), (1, 8)].into_iter().for_each(|(key, clock)| path.push(key, clock));
    ///     path.is_repetition_draw()
    /// };
    /// // Position 1 occurred once in the game: a twofold, which only micro-Max's rule calls a draw.
    /// assert!(!returns_to_1(RepetitionRule::Stockfish));
    /// assert!(returns_to_1(RepetitionRule::MicroMax));
    /// ```
    pub fn is_repetition_draw(&self) -> bool {
        let Some(&PathEntry { key, reach }) = self.path.last() else {
            return false;
        };
        let ply = self.path.len();
        let reach = usize::from(reach);

        // Rule 1: plies `ply - 4`, `ply - 6`, … down to ply 1 or as far as the reach allows. The slice ends at
        // ply `ply - 4` (index `ply - 5`), so the walk needs no bounds checks.
        let deepest_back = reach.min(ply - 1);
        if deepest_back >= SHORTEST_CYCLE {
            let candidates = (deepest_back - SHORTEST_CYCLE) / 2 + 1;
            let path_repeats = self.path[..ply - SHORTEST_CYCLE]
                .iter()
                .rev()
                .step_by(2)
                .take(candidates)
                .any(|entry| entry.key == key);
            if path_repeats {
                return true;
            }
        }

        // Rules 2 and 4: the game, reachable only if no capture, pawn move or null move happened since the root.
        if reach < ply {
            return false;
        }
        let in_game = self.game.count_within(key, reach - ply);
        match self.rule {
            RepetitionRule::Stockfish => in_game >= 2,
            RepetitionRule::MicroMax => {
                let at_root = u32::from(self.game.current_key() == Some(key));
                in_game > at_root
            }
        }
    }

    /// The reach of the node being left: the top of the path, or unlimited at the root (how far the game goes
    /// back is the game history's business).
    fn parent_reach(&self) -> u16 {
        self.path.last().map_or(u16::MAX, |entry| entry.reach)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STOCKFISH: RepetitionRule = RepetitionRule::Stockfish;
    const MICRO_MAX: RepetitionRule = RepetitionRule::MicroMax;

    /// A game of `keys` with consecutive clocks from `first_clock`.
    fn game(keys: &[u64], first_clock: u16) -> Arc<GameHistory> {
        Arc::new(
            keys.iter()
                .zip(first_clock..)
                .map(|(&key, clock)| (key, clock))
                .collect(),
        )
    }

    #[test]
    fn a_copied_path_answers_like_its_source_in_its_own_storage() {
        let mut source = SearchRepetitions::new(game(&[0xA], 0), STOCKFISH);
        walk(&mut source, 0, &[0xB, 0xC, 0xD, 0xA]);
        let mut copy = SearchRepetitions::new(game(&[0x1], 0), MICRO_MAX);
        let storage = copy.path.as_ptr();
        copy.clone_from(&source);
        assert_eq!(copy.path.as_ptr(), storage, "the copy reuses its own buffer");
        assert_eq!((copy.ply(), copy.rule()), (source.ply(), source.rule()));
        assert!(!copy.is_repetition_draw());
        // Going round once more repeats positions of the copied path, as it does in the source.
        walk(&mut copy, 0, &[0xB, 0xC, 0xD, 0xA]);
        walk(&mut source, 0, &[0xB, 0xC, 0xD, 0xA]);
        assert!(copy.is_repetition_draw() && source.is_repetition_draw());
        let cloned = source.clone();
        assert_eq!((cloned.ply(), cloned.is_repetition_draw()), (source.ply(), true));
    }

    /// Pushes reversible moves continuing the clock from `root_clock`.
    fn walk(path: &mut SearchRepetitions, root_clock: u16, keys: &[u64]) {
        for &key in keys {
            let clock = root_clock + u16::try_from(path.ply()).unwrap() + 1;
            path.push(key, clock);
        }
    }

    #[test]
    fn root_is_never_a_search_draw() {
        let path = SearchRepetitions::new(game(&[1, 2, 3, 4, 1, 2, 3, 4, 1], 0), STOCKFISH);
        assert!(!path.is_repetition_draw());
        assert!(path.game().is_threefold());
    }

    #[test]
    fn twofold_inside_the_path_is_a_draw() {
        let mut path = SearchRepetitions::new(game(&[100], 0), STOCKFISH);
        walk(&mut path, 0, &[1, 2, 3, 4, 1]);
        assert!(path.is_repetition_draw());
        path.pop();
        assert!(!path.is_repetition_draw());
    }

    #[test]
    fn a_return_to_the_root_is_not_an_in_tree_twofold() {
        // The root belongs to the game: returning to it makes a twofold with a game position.
        for rule in RepetitionRule::ALL {
            let mut path = SearchRepetitions::new(game(&[100], 0), rule);
            walk(&mut path, 0, &[1, 2, 3, 100]);
            assert!(!path.is_repetition_draw(), "{rule}");
        }
    }

    #[test]
    fn stockfish_needs_a_threefold_across_the_boundary() {
        let history = game(&[1, 2, 3, 4, 5], 0);
        let mut path = SearchRepetitions::new(Arc::clone(&history), STOCKFISH);
        walk(&mut path, 4, &[6, 7, 8, 1]);
        assert!(
            !path.is_repetition_draw(),
            "game position seen once: only a twofold"
        );

        let twice = game(&[1, 2, 3, 4, 1, 2, 3, 4, 9], 0);
        let mut path = SearchRepetitions::new(twice, STOCKFISH);
        walk(&mut path, 8, &[6, 7, 8, 1]);
        assert!(path.is_repetition_draw(), "game position seen twice: threefold");
    }

    #[test]
    fn stockfish_counts_the_root_as_a_game_position() {
        let mut path = SearchRepetitions::new(game(&[1, 2, 3, 4, 1], 0), STOCKFISH);
        walk(&mut path, 4, &[2, 3, 4, 1]);
        assert!(path.is_repetition_draw());
    }

    #[test]
    fn micro_max_draws_any_return_to_a_game_position_before_the_root() {
        let history = game(&[1, 2, 3, 4, 5], 0);
        let mut path = SearchRepetitions::new(Arc::clone(&history), MICRO_MAX);
        walk(&mut path, 4, &[6, 7, 8, 1]);
        assert!(path.is_repetition_draw());
        path.pop();
        path.push(5, 8);
        assert!(!path.is_repetition_draw(), "the root alone is not pinned");
    }

    #[test]
    fn micro_max_draws_the_root_when_it_occurred_before_it() {
        let mut path = SearchRepetitions::new(game(&[1, 2, 3, 4, 1], 0), MICRO_MAX);
        walk(&mut path, 4, &[2, 3, 4, 1]);
        assert!(path.is_repetition_draw());
    }

    #[test]
    fn micro_max_verdicts_match_the_pinned_keys() {
        let history = game(&[1, 2, 3, 4, 1, 2, 5], 0);
        for candidate in 0..10 {
            let mut path = SearchRepetitions::new(Arc::clone(&history), MICRO_MAX);
            walk(&mut path, 6, &[20, 21, 22, candidate]);
            let pinned = history.pinned_keys().contains(&candidate);
            assert_eq!(path.is_repetition_draw(), pinned, "key {candidate}");
        }
    }

    #[test]
    fn an_irreversible_move_in_the_path_cuts_both_path_and_game() {
        for rule in RepetitionRule::ALL {
            let history = game(&[1, 2, 3, 4, 1, 2, 3, 4, 5], 0);
            let mut path = SearchRepetitions::new(history, rule);
            walk(&mut path, 8, &[10, 11, 12, 13]);
            path.push(14, 0); // a capture: clock 0
            path.push(11, 1);
            path.push(12, 2);
            path.push(13, 3);
            path.push(10, 4);
            assert!(!path.is_repetition_draw(), "{rule}: behind the capture");
            path.push(1, 5);
            assert!(!path.is_repetition_draw(), "{rule}: game behind the capture");
        }
    }

    #[test]
    fn a_null_move_cuts_the_lookback() {
        let mut path = SearchRepetitions::new(game(&[1, 2, 3, 4, 1, 2, 3, 4, 5], 0), STOCKFISH);
        walk(&mut path, 8, &[10, 11]);
        path.push_null(12);
        path.push(13, 12);
        path.push(14, 13);
        path.push(10, 14);
        assert!(!path.is_repetition_draw(), "path position behind the null move");
        path.push(1, 15);
        assert!(!path.is_repetition_draw(), "game position behind the null move");
        path.pop();
        path.pop();
        path.push(16, 14);
        path.push(17, 15);
        path.push(18, 16);
        path.push(14, 17);
        assert!(
            path.is_repetition_draw(),
            "repetition after the null move still counts"
        );
    }

    #[test]
    fn only_the_halfmove_clock_window_is_searched() {
        // A clock smaller than the ply (an irreversible move at ply 3) hides plies 1 and 2.
        let mut path = SearchRepetitions::new(game(&[100], 0), STOCKFISH);
        path.push(1, 1);
        path.push(2, 2);
        path.push(3, 0);
        path.push(4, 1);
        path.push(5, 2);
        path.push(6, 3);
        path.push(3, 4);
        assert!(path.is_repetition_draw(), "ply 3 is within the clock");
        path.pop();
        path.push(8, 4);
        path.push(2, 5);
        assert!(
            !path.is_repetition_draw(),
            "ply 2 lies behind the irreversible move"
        );
    }

    #[test]
    fn game_positions_beyond_the_clock_are_out_of_reach() {
        // The search's clocks say only 2 plies of the game are reachable, though the history holds more.
        let mut path = SearchRepetitions::new(game(&[1, 2, 3, 4, 1, 2, 3], 0), STOCKFISH);
        path.push(4, 3);
        path.push(5, 4);
        path.push(6, 5);
        path.push(1, 6);
        // Reach 6 at ply 4 leaves 2 plies into the game: keys 1, 2, 3 (the root). The key 1 occurs there once;
        // its first occurrence, which would make a threefold, is out of reach.
        assert!(!path.is_repetition_draw());
    }

    #[test]
    fn reset_starts_a_new_search() {
        let mut path = SearchRepetitions::new(game(&[1], 0), STOCKFISH);
        walk(&mut path, 0, &[2, 3, 4]);
        path.reset(game(&[7, 8], 0));
        assert_eq!(path.ply(), 0);
        assert_eq!(path.game().current_key(), Some(8));
        assert_eq!(path.rule(), STOCKFISH);
        walk(&mut path, 1, &[1]);
        path.clear();
        assert_eq!(path.ply(), 0);
    }

    #[test]
    #[should_panic(expected = "unbalanced")]
    fn pop_at_the_root_panics() {
        SearchRepetitions::new(game(&[1], 0), STOCKFISH).pop();
    }

    #[test]
    fn empty_game_history_is_harmless() {
        let mut path = SearchRepetitions::new(Arc::new(GameHistory::new()), STOCKFISH);
        walk(&mut path, 0, &[1, 2, 3, 4, 1]);
        assert!(path.is_repetition_draw());
    }

    #[test]
    fn threads_own_their_paths_and_share_the_game() {
        fn assert_send<T: Send>() {}
        assert_send::<SearchRepetitions>();
        let history = game(&[1, 2, 3, 4, 5], 0);
        std::thread::scope(|scope| {
            for offset in 0..4u64 {
                let history = Arc::clone(&history);
                scope.spawn(move || {
                    let mut path = SearchRepetitions::new(history, STOCKFISH);
                    walk(
                        &mut path,
                        4,
                        &[10 + offset, 20 + offset, 30 + offset, 40 + offset],
                    );
                    // The other threads' paths hold keys 10..44 too, but never this thread's 10 + offset
                    // twice: no cross-thread false repetition.
                    path.push(50 + offset, 9);
                    assert!(!path.is_repetition_draw());
                    path.push(60 + offset, 10);
                    path.push(70 + offset, 11);
                    path.push(40 + offset, 12);
                    assert!(path.is_repetition_draw());
                });
            }
        });
    }
}
