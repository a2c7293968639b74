//! [`GameHistory`]: the positions of the real game since the last irreversible move.

use crate::table::KeyCounts;

/// The Zobrist keys of the real game since its last irreversible move (capture or pawn move), oldest first,
/// with an occurrence count per key in a small linear-probing table (seed 003).
///
/// Built once per `position ... moves ...` command — one [`push`](Self::push) for the start position and one
/// after each move — and then frozen: wrap it in an [`Arc`](std::sync::Arc) and every search thread reads the
/// same table. Nothing in it changes during a search, so the sharing needs no synchronisation; the search's own
/// moves go to each thread's [`SearchRepetitions`](crate::SearchRepetitions).
///
/// The last key pushed is the current position, which becomes the root of the next search.
///
/// # Examples
///
/// ```
/// use eldest_repetition::GameHistory;
///
/// // Keys and halfmove clocks as the board reports them after each move of the game.
/// let (start, knights_out, knights_back) = (0x11, 0x22, 0x33);
/// let mut game = GameHistory::new();
/// game.push(start, 0);
/// game.push(knights_out, 1);
/// game.push(0x44, 2);
/// game.push(knights_back, 3);
/// game.push(start, 4);
/// assert_eq!(game.count(start), 2);
/// assert!(!game.is_threefold());
///
/// // A pawn move (halfmove clock 0) cuts the history: nothing before it can recur.
/// game.push(0x55, 0);
/// assert_eq!(game.count(start), 0);
/// assert_eq!(game.keys(), &[0x55]);
/// ```
#[derive(Clone, Debug)]
pub struct GameHistory {
    /// Oldest first; the last entry is the current position.
    keys: Vec<u64>,
    counts: KeyCounts,
    /// The halfmove clock of the last push.
    halfmove_clock: Option<u16>,
}

impl GameHistory {
    /// An empty history.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::GameHistory;
    ///
    /// let history = GameHistory::new();
    /// assert!(history.is_empty());
    /// assert_eq!(history.current_key(), None);
    /// assert!(!history.is_threefold());
    /// ```
    pub fn new() -> Self {
        Self {
            keys: Vec::new(),
            counts: KeyCounts::new(),
            halfmove_clock: None,
        }
    }

    /// Records the next position of the game: its Zobrist key and its halfmove clock (plies since the last
    /// capture or pawn move).
    ///
    /// A clock of 0 — the move into this position was a capture or a pawn move — cuts the history: the earlier
    /// positions can never occur again, so they are forgotten and this position starts a new history. A clock
    /// that does not advance past the previous one is treated the same way, because it can only mean that an
    /// irreversible move happened between the two pushes. (Clocks from a board advance by exactly one per
    /// reversible move; a first position from a FEN may start at any clock.)
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::GameHistory;
    ///
    /// let mut history = GameHistory::new();
    /// // A game set up from a FEN may start at any clock.
    /// history.push(0x11, 7);
    /// history.push(0x22, 8);
    /// assert_eq!(history.keys(), &[0x11, 0x22]);
    /// // A capture or pawn move (clock 0) forgets everything before it.
    /// history.push(0x33, 0);
    /// assert_eq!(history.keys(), &[0x33]);
    /// ```
    pub fn push(&mut self, key: u64, halfmove_clock: u16) {
        let cut = halfmove_clock == 0
            || self
                .halfmove_clock
                .is_some_and(|previous| halfmove_clock <= previous);
        if cut {
            self.keys.clear();
            self.counts.clear();
        }
        self.keys.push(key);
        self.counts.insert(key);
        self.halfmove_clock = Some(halfmove_clock);
    }

    /// How many times `key` occurs in the history (the current position included).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::GameHistory;
    ///
    /// let history: GameHistory = [(0xA, 0), (0xB, 1), (0xC, 2), (0xD, 3), (0xA, 4)].into_iter().collect();
    /// assert_eq!(history.count(0xA), 2);
    /// assert_eq!(history.count(0xB), 1);
    /// assert_eq!(history.count(0xF), 0);
    /// ```
    pub fn count(&self, key: u64) -> u32 {
        self.counts.count(key)
    }

    /// Whether the current position has occurred three times since the last irreversible move: the game is
    /// drawn by threefold repetition (rule 3 of the [crate docs](crate)). False for an empty history.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::GameHistory;
    ///
    /// let mut history: GameHistory = [(0xA, 0), (0xB, 1), (0xC, 2), (0xD, 3)].into_iter().collect();
    /// history.extend([(0xA, 4), (0xB, 5), (0xC, 6), (0xD, 7)]);
    /// assert!(!history.is_threefold());
    /// history.push(0xA, 8);
    /// assert!(history.is_threefold());
    /// ```
    pub fn is_threefold(&self) -> bool {
        self.current_key().is_some_and(|key| self.count(key) >= 3)
    }

    /// The key of the current position — the root of the next search — or `None` before the first push.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::GameHistory;
    ///
    /// let mut history = GameHistory::new();
    /// assert_eq!(history.current_key(), None);
    /// history.push(0xA, 0);
    /// history.push(0xB, 1);
    /// assert_eq!(history.current_key(), Some(0xB));
    /// ```
    pub fn current_key(&self) -> Option<u64> {
        self.keys.last().copied()
    }

    /// The halfmove clock of the current position, or `None` before the first push.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::GameHistory;
    ///
    /// let mut history = GameHistory::new();
    /// assert_eq!(history.halfmove_clock(), None);
    /// history.push(0xA, 42);
    /// history.push(0xB, 43);
    /// assert_eq!(history.halfmove_clock(), Some(43));
    /// ```
    pub fn halfmove_clock(&self) -> Option<u16> {
        self.halfmove_clock
    }

    /// The keys since the last irreversible move, oldest first, the current position last.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::GameHistory;
    ///
    /// let history: GameHistory = [(0xA, 3), (0xB, 4), (0xC, 5)].into_iter().collect();
    /// assert_eq!(history.keys(), &[0xA, 0xB, 0xC]);
    /// assert_eq!(history.keys().last().copied(), history.current_key());
    /// ```
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The keys the micro-Max rule pins in the transposition table as exact draws of maximal depth (seed 004):
    /// every position of the history before the current one.
    ///
    /// The current position is left out, as micro-Max does (it pins a position when the game moves away from
    /// it): it is the root of the search, which stores its best move in its own entry, and a pinned root would
    /// drop that store. A key that occurred more than once appears more than once; pinning it twice is
    /// harmless.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::GameHistory;
    ///
    /// let history: GameHistory = [(0xA, 0), (0xB, 1), (0xC, 2), (0xD, 3), (0xA, 4)].into_iter().collect();
    /// // The root (the last 0xA) stays unpinned, so the search can store its best move there.
    /// assert_eq!(history.pinned_keys(), &[0xA, 0xB, 0xC, 0xD]);
    /// ```
    pub fn pinned_keys(&self) -> &[u64] {
        let before_current = self.keys.len().saturating_sub(1);
        &self.keys[..before_current]
    }

    /// The number of positions in the history.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::GameHistory;
    ///
    /// let history: GameHistory = [(0xA, 0), (0xB, 1), (0xC, 2), (0xD, 3), (0xA, 4)].into_iter().collect();
    /// // Positions, not distinct keys: the repeated 0xA counts twice.
    /// assert_eq!(history.len(), 5);
    /// ```
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether nothing has been pushed since creation.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::GameHistory;
    ///
    /// let mut history = GameHistory::new();
    /// assert!(history.is_empty());
    /// history.push(0xA, 0);
    /// assert!(!history.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// How many times `key` occurs at most `max_distance` plies before the current position (which is at
    /// distance 0). The table answers when the whole history is in reach, which is the case whenever the
    /// search's halfmove clocks agree with the game's; otherwise the ordered list is scanned.
    pub(crate) fn count_within(&self, key: u64, max_distance: usize) -> u32 {
        if max_distance >= self.keys.len().saturating_sub(1) {
            return self.count(key);
        }
        let in_reach = &self.keys[self.keys.len() - 1 - max_distance..];
        // At most a few hundred plies: the cast cannot truncate in practice, and saturation keeps it exact
        // enough for "at least one / two" tests even then.
        u32::try_from(in_reach.iter().filter(|&&k| k == key).count()).unwrap_or(u32::MAX)
    }
}

impl Default for GameHistory {
    fn default() -> Self {
        Self::new()
    }
}

/// Collects `(key, halfmove_clock)` pairs, oldest first, as repeated [`push`](GameHistory::push)es.
impl FromIterator<(u64, u16)> for GameHistory {
    fn from_iter<I: IntoIterator<Item = (u64, u16)>>(positions: I) -> Self {
        let mut history = Self::new();
        history.extend(positions);
        history
    }
}

/// Pushes `(key, halfmove_clock)` pairs, oldest first.
impl Extend<(u64, u16)> for GameHistory {
    fn extend<I: IntoIterator<Item = (u64, u16)>>(&mut self, positions: I) {
        for (key, halfmove_clock) in positions {
            self.push(key, halfmove_clock);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions with consecutive clocks starting at `first_clock`.
    fn game(keys: &[u64], first_clock: u16) -> GameHistory {
        keys.iter()
            .zip(first_clock..)
            .map(|(&key, clock)| (key, clock))
            .collect()
    }

    #[test]
    fn empty_history_knows_nothing() {
        let history = GameHistory::new();
        assert!(history.is_empty());
        assert_eq!(history.current_key(), None);
        assert_eq!(history.halfmove_clock(), None);
        assert!(!history.is_threefold());
        assert!(history.pinned_keys().is_empty());
        assert_eq!(history.count(0), 0);
    }

    #[test]
    fn counts_occurrences_and_keeps_order() {
        let history = game(&[1, 2, 3, 4, 1, 2], 0);
        assert_eq!(history.keys(), &[1, 2, 3, 4, 1, 2]);
        assert_eq!(history.count(1), 2);
        assert_eq!(history.count(3), 1);
        assert_eq!(history.count(9), 0);
        assert_eq!(history.current_key(), Some(2));
        assert_eq!(history.halfmove_clock(), Some(5));
        assert_eq!(history.len(), 6);
    }

    #[test]
    fn threefold_of_the_current_position_only() {
        let shuffle = game(&[1, 2, 3, 4, 1, 2, 3, 4, 1], 0);
        assert!(shuffle.is_threefold());
        // Key 1 occurred three times, but the current position (5) only twice.
        let after = game(&[1, 2, 3, 4, 1, 5, 6, 7, 1, 5], 0);
        assert!(!after.is_threefold());
    }

    #[test]
    fn clock_zero_cuts_the_history() {
        let mut history = game(&[1, 2, 3, 4, 1], 10);
        history.push(7, 0);
        assert_eq!(history.keys(), &[7]);
        assert_eq!(history.count(1), 0);
        history.push(8, 1);
        assert_eq!(history.keys(), &[7, 8]);
    }

    #[test]
    fn a_clock_that_does_not_advance_cuts_the_history() {
        let mut history = game(&[1, 2, 3], 5);
        history.push(4, 3);
        assert_eq!(history.keys(), &[4]);
        history.push(5, 3);
        assert_eq!(history.keys(), &[5]);
    }

    #[test]
    fn a_fen_may_start_at_any_clock() {
        let history = game(&[1, 2], 57);
        assert_eq!(history.keys(), &[1, 2]);
        assert_eq!(history.halfmove_clock(), Some(58));
    }

    #[test]
    fn pinned_keys_are_the_positions_before_the_current_one() {
        let history = game(&[1, 2, 3, 4, 1], 0);
        assert_eq!(history.pinned_keys(), &[1, 2, 3, 4]);
        assert!(game(&[1], 0).pinned_keys().is_empty());
    }

    #[test]
    fn count_within_limits_the_distance() {
        let history = game(&[1, 2, 3, 4, 1, 2, 3, 4, 1], 0);
        assert_eq!(history.count_within(1, 0), 1);
        assert_eq!(history.count_within(1, 3), 1);
        assert_eq!(history.count_within(1, 4), 2);
        assert_eq!(history.count_within(1, 8), 3);
        assert_eq!(history.count_within(1, 100), 3);
    }

    #[test]
    fn shared_between_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<GameHistory>();
    }
}
