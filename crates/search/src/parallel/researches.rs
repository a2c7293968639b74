//! Both ABDADAs: the PV nodes' brothers being searched again with the full window (`HelpResearchDepth`).
//!
//! Kerrigan's note 5.2 leaves a PV node's re-search unmarked: a brother that beat alpha in its null-window search
//! "is probably going to fail high or change alpha", and the other threads "should help search the move, not
//! search it later". But a thread only helps if it comes to that brother in its own loop, and the other threads
//! at the node have usually passed it (they deferred it while its null-window search ran, or searched it against
//! a bound of their own): they go on with the younger brothers against the old alpha — wasted if the re-search
//! cuts the node, and searched at a lower alpha than the serial search would use if it raises alpha. On the
//! board, a thread re-searching a PV node's brother posts the node and the move for as long as the search runs;
//! another thread at that node reads the board before each of its moves and, finding a brother it has not
//! searched, searches it at once with the full window, so both threads share the new principal variation's
//! subtree — the serial search's next work — as the ABDADAs share any node. YBWC's `WaitForResearch` is the
//! same idea for split points.
//!
//! A slot per node key's low bits, holding the key's upper 48 bits and the move's 16: a later re-search of
//! another node in the same slot overwrites the post (a lost help, not a wrong search), and a thread takes a
//! posted move only if it is legal in its position, so a clash of keys costs a search, never soundness.

use eldest_board::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// How many nodes the board holds at once: PV nodes of the depth searched, of which a search has a few dozen.
const SLOTS: usize = 256;

/// The bits of a node's key a post keeps: the low ones choose the slot, the high ones tell the node.
const KEY_BITS: u64 = !0xffff;

/// The moves PV nodes are searching again with the full window, posted by the threads that search them.
///
/// # Examples
///
/// ```
/// use eldest_board::{Move, MoveKind, Square};
/// use eldest_search::parallel::researches::ResearchBoard;
///
/// let board = ResearchBoard::new();
/// let mv = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
/// let post = board.post(0x1234_5678_9abc_def0, mv);
/// assert_eq!(board.posted(0x1234_5678_9abc_def0), Some(mv));
/// board.withdraw(post);
/// assert_eq!(board.posted(0x1234_5678_9abc_def0), None);
/// ```
#[derive(Debug)]
pub struct ResearchBoard {
    slots: Box<[AtomicU64]>,
}

/// A post on the board, for its withdrawal.
///
/// # Examples
///
/// ```
/// use eldest_board::{Move, MoveKind, Square};
/// use eldest_search::parallel::researches::ResearchBoard;
///
/// let board = ResearchBoard::new();
/// let post = board.post(7, Move::new(Square::G1, Square::F3, MoveKind::Quiet));
/// board.withdraw(post);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use = "a post stays on the board until withdrawn"]
pub struct Post {
    slot: usize,
    word: u64,
}

impl Default for ResearchBoard {
    fn default() -> ResearchBoard {
        ResearchBoard::new()
    }
}

impl ResearchBoard {
    /// An empty board.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::parallel::researches::ResearchBoard;
    ///
    /// assert_eq!(ResearchBoard::new().posted(42), None);
    /// ```
    pub fn new() -> ResearchBoard {
        ResearchBoard {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(key: u64) -> usize {
        key as usize % SLOTS
    }

    /// Posts that this thread searches `mv` of the node `key` again with the full window, in place of any
    /// earlier post in the node's slot.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, Square};
    /// use eldest_search::parallel::researches::ResearchBoard;
    ///
    /// let board = ResearchBoard::new();
    /// let (first, second) = (
    ///     Move::new(Square::G1, Square::F3, MoveKind::Quiet),
    ///     Move::new(Square::B1, Square::C3, MoveKind::Quiet),
    /// );
    /// let _ = board.post(99, first);
    /// let _ = board.post(99, second);
    /// assert_eq!(board.posted(99), Some(second));
    /// ```
    pub fn post(&self, key: u64, mv: Move) -> Post {
        let post = Post {
            slot: Self::slot(key),
            // Never 0, the empty slot: a move's encoding is not.
            word: (key & KEY_BITS) | u64::from(mv.to_bits()),
        };
        self.slots[post.slot].store(post.word, Ordering::Release);
        post
    }

    /// Takes `post` off the board, unless a later post has replaced it.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, Square};
    /// use eldest_search::parallel::researches::ResearchBoard;
    ///
    /// let board = ResearchBoard::new();
    /// let (first, second) = (
    ///     Move::new(Square::G1, Square::F3, MoveKind::Quiet),
    ///     Move::new(Square::B1, Square::C3, MoveKind::Quiet),
    /// );
    /// let old = board.post(99, first);
    /// let _ = board.post(99, second);
    /// board.withdraw(old);
    /// assert_eq!(board.posted(99), Some(second), "another thread's re-search still runs");
    /// ```
    pub fn withdraw(&self, post: Post) {
        let _ = self.slots[post.slot].compare_exchange(post.word, 0, Ordering::AcqRel, Ordering::Relaxed);
    }

    /// The move posted for the node `key`, if any. It may belong to another node whose key shares the slot and
    /// the upper bits: check that it is legal before searching it.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, Square};
    /// use eldest_search::parallel::researches::ResearchBoard;
    ///
    /// let board = ResearchBoard::new();
    /// let _ = board.post(5, Move::new(Square::G1, Square::F3, MoveKind::Quiet));
    /// assert_eq!(board.posted(5 + (1 << 20)), None, "same slot, another node");
    /// ```
    pub fn posted(&self, key: u64) -> Option<Move> {
        let word = self.slots[Self::slot(key)].load(Ordering::Acquire);
        if word == 0 || word & KEY_BITS != key & KEY_BITS {
            return None;
        }
        Move::from_bits(word as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eldest_board::{MoveKind, Square};
    use std::sync::Arc;

    #[test]
    fn a_node_posted_is_told_from_the_nodes_sharing_its_slot() {
        let board = ResearchBoard::new();
        let mv = Move::new(Square::D2, Square::D4, MoveKind::DoublePush);
        let key = 0xdead_beef_0000_0011;
        let post = board.post(key, mv);
        assert_eq!(board.posted(key), Some(mv));
        // The same slot: the same low byte, other upper bits.
        assert_eq!(board.posted(key ^ (1 << 40)), None);
        // Another slot.
        assert_eq!(board.posted(key ^ 1), None);
        board.withdraw(post);
        assert_eq!(board.posted(key), None);
        board.withdraw(post);
        assert_eq!(board.posted(key), None, "a second withdrawal changes nothing");
    }

    #[test]
    fn racing_posts_and_withdrawals_leave_only_live_posts_and_whole_moves() {
        // Eight threads post and withdraw their own moves in a few shared slots while they look: a look only ever
        // finds a whole move some thread posted, and once every thread has withdrawn its posts the board is empty
        // (the last post in a slot is withdrawn by its own thread, after any other's withdrawal).
        let board = Arc::new(ResearchBoard::new());
        let moves: Vec<Move> = (0..8u8)
            .map(|i| {
                Move::new(
                    Square::ALL[usize::from(i)],
                    Square::ALL[usize::from(i) + 16],
                    MoveKind::Quiet,
                )
            })
            .collect();
        let keys: Vec<u64> = (0..4u64).map(|k| (k << 48) | (k * 3)).collect();
        std::thread::scope(|scope| {
            for (thread, &mv) in moves.iter().enumerate() {
                let (board, keys) = (&board, &keys);
                scope.spawn(move || {
                    for round in 0..20_000 {
                        let key = keys[(thread + round) % keys.len()];
                        let post = board.post(key, mv);
                        if let Some(seen) = board.posted(key) {
                            assert!(moves_include(seen), "a torn move {seen:?}");
                        }
                        board.withdraw(post);
                    }
                });
            }
        });
        for &key in &keys {
            assert_eq!(board.posted(key), None);
        }
        fn moves_include(mv: Move) -> bool {
            mv.to().index() == mv.from().index() + 16
        }
    }
}
