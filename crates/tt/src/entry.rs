//! One stored search result, and how it is packed into the 64-bit data word of a slot.
//!
//! ```text
//! data word (u64), most significant bit on the left
//!
//!  63     59  58  57  56 55        48 47             32 31             16 15              0
//! +---------+---+-------+------------+-----------------+-----------------+-----------------+
//! |   gen   | P | bound | depth + 16 |   static eval   |  score (node)   |    best move    |
//! +---------+---+-------+------------+-----------------+-----------------+-----------------+
//!   5 bits   1    2 bits    8 bits   i16, MIN = none        i16          u16, 0 = no move
//!
//! gen    the search generation that wrote the entry (0..32, wraps)
//! P      pinned: a game-history draw that ordinary stores never evict
//! bound  bit 56 = LOWER, bit 57 = UPPER, both = EXACT, neither = no usable score
//! depth  stored with DEPTH_OFFSET = 16 added so quiescence depths down to -15 fit an unsigned byte;
//!        the byte 0 never occurs in a stored entry, so an all-zero data word means "empty slot"
//! score  node-relative (see score_to_tt): a mate is counted from this node, not from the root
//! ```
//!
//! The slot beside it holds `key ^ data` (see `bucket.rs`), so any 64-bit pattern here is a valid [`Entry`]:
//! decoding never fails, and a torn pair of words is caught by the key check, not by the decoder.

use crate::bound::Bound;
use crate::score::{MATE, score_from_tt, score_to_tt};

/// Added to a depth before it is stored in the entry's depth byte, so that quiescence depths (≤ 0) fit.
///
/// # Examples
///
/// ```
/// use eldest_tt::{DEPTH_OFFSET, MIN_DEPTH, PINNED_DEPTH};
/// // Every storable depth lands on a byte 1..=255: the byte 0 stays free to mean "empty slot".
/// assert_eq!(MIN_DEPTH + DEPTH_OFFSET, 1);
/// assert_eq!(PINNED_DEPTH + DEPTH_OFFSET, i32::from(u8::MAX));
/// ```
pub const DEPTH_OFFSET: i32 = 16;

/// The shallowest depth an entry can hold: quiescence plies go down to here. The depth byte `0` is
/// reserved for empty slots.
///
/// # Examples
///
/// ```
/// use eldest_tt::{Bound, Record, TranspositionTable, MIN_DEPTH};
/// let tt = TranspositionTable::with_buckets(64)?;
/// let qsearch = Record { best_move: 0, score: -20, static_eval: Some(-20), depth: MIN_DEPTH, bound: Bound::UPPER };
/// tt.store(5, 0, qsearch);
/// assert_eq!(tt.probe(5).unwrap().depth(), MIN_DEPTH);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
pub const MIN_DEPTH: i32 = 1 - DEPTH_OFFSET;

/// The depth of a pinned game-history draw: deeper than any search, so it satisfies every probe (seed 004,
/// micro-Max's `d = 127`, here the largest byte).
///
/// # Examples
///
/// ```
/// use eldest_tt::{TranspositionTable, MAX_DEPTH, PINNED_DEPTH};
/// let tt = TranspositionTable::with_buckets(64)?;
/// tt.pin_draw(42).unwrap();
/// let pin = tt.probe(42).unwrap();
/// assert!(pin.is_pinned());
/// // Deeper than any search could ask for, so every probe of the position is answered.
/// assert_eq!(pin.depth(), PINNED_DEPTH);
/// assert!(PINNED_DEPTH > MAX_DEPTH);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
pub const PINNED_DEPTH: i32 = u8::MAX as i32 - DEPTH_OFFSET;

/// The deepest depth an ordinary store can hold; one less than [`PINNED_DEPTH`].
///
/// # Examples
///
/// ```
/// use eldest_tt::{Bound, Record, TranspositionTable, MAX_DEPTH, PINNED_DEPTH};
/// assert_eq!(MAX_DEPTH, PINNED_DEPTH - 1);
/// let tt = TranspositionTable::with_buckets(64)?;
/// tt.store(8, 0, Record { best_move: 3, score: 0, static_eval: None, depth: MAX_DEPTH, bound: Bound::EXACT });
/// // Even the deepest ordinary result cannot be mistaken for a pinned draw.
/// let entry = tt.probe(8).unwrap();
/// assert_eq!((entry.depth(), entry.is_pinned()), (MAX_DEPTH, false));
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
pub const MAX_DEPTH: i32 = PINNED_DEPTH - 1;

/// The number of distinct generations; the generation counter wraps around after this many searches.
///
/// # Examples
///
/// ```
/// use eldest_tt::{TranspositionTable, GENERATIONS};
/// let tt = TranspositionTable::with_buckets(64)?;
/// for _ in 0..GENERATIONS {
///     tt.new_search();
/// }
/// // Wrapped: an entry this many searches old would look current again.
/// assert_eq!(tt.generation(), 0);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
pub const GENERATIONS: u8 = 32;

/// The static evaluations an entry can hold: `i16::MIN` is kept to mean "no evaluation".
pub const MAX_EVAL: i32 = i16::MAX as i32;

/// The stored static-evaluation field that means "none".
const EVAL_NONE: i16 = i16::MIN;

const MOVE_SHIFT: u32 = 0;
const SCORE_SHIFT: u32 = 16;
const EVAL_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 56;
const PINNED_SHIFT: u32 = 58;
const GENERATION_SHIFT: u32 = 59;
const GENERATION_MASK: u64 = (GENERATIONS as u64) - 1;

/// A decoded table entry: what a probe returns.
///
/// Scores are kept node-relative as stored; [`Entry::score`] converts them for the probing ply.
///
/// # Examples
///
/// ```
/// use eldest_tt::{Bound, Record, TranspositionTable};
/// let tt = TranspositionTable::with_buckets(64)?;
/// tt.new_search();
/// tt.store(11, 0, Record { best_move: 9, score: 35, static_eval: Some(20), depth: 6, bound: Bound::LOWER });
/// let entry = tt.probe(11).unwrap();
/// assert_eq!((entry.best_move(), entry.score(0), entry.static_eval()), (Some(9), 35, Some(20)));
/// assert_eq!((entry.depth(), entry.bound(), entry.generation()), (6, Bound::LOWER, 1));
/// assert!(!entry.is_pinned());
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    best_move: u16,
    stored_score: i16,
    static_eval: i16,
    depth_byte: u8,
    bound: Bound,
    pinned: bool,
    generation: u8,
}

/// A search result to store: what the search knows when it leaves a node.
///
/// # Examples
///
/// ```
/// use eldest_tt::{Bound, Record, TranspositionTable};
/// let tt = TranspositionTable::with_buckets(64)?;
/// let first = Record { best_move: 0x0e1d, score: 15, static_eval: Some(8), depth: 4, bound: Bound::EXACT };
/// tt.store(3, 0, first);
/// // A deeper result that found no move and skipped the evaluation keeps the ones already stored.
/// tt.store(3, 0, Record { best_move: 0, static_eval: None, depth: 6, ..first });
/// let entry = tt.probe(3).unwrap();
/// assert_eq!((entry.best_move(), entry.static_eval(), entry.depth()), (Some(0x0e1d), Some(8), 6));
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// The best move found, or `0` when there is none (a fail-low node, or no legal move). A same-key update
    /// without a move keeps the move already stored.
    pub best_move: u16,
    /// The search score, root-relative as the search returns it; stored node-relative via
    /// [`score_to_tt`](crate::score_to_tt). Must lie within `±MATE`.
    pub score: i32,
    /// The static evaluation of the position, without ply adjustment, within `±MAX_EVAL`; `None` when the
    /// search did not compute one (in check, say). A same-key update without one keeps the one stored.
    pub static_eval: Option<i32>,
    /// The remaining depth the score was searched to, in `MIN_DEPTH..=MAX_DEPTH`.
    pub depth: i32,
    /// What the score proves about the true value.
    pub bound: Bound,
}

impl Entry {
    /// The stored best move, or `None` when the result carried no move.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// let fail_low = Record { best_move: 0, score: -50, static_eval: Some(10), depth: 3, bound: Bound::UPPER };
    /// tt.store(1, 0, fail_low);
    /// tt.store(2, 0, Record { best_move: 0x0e1d, ..fail_low });
    /// // The move 0 of a fail-low node comes back as "no move", never as a move to try.
    /// assert_eq!(tt.probe(1).unwrap().best_move(), None);
    /// assert_eq!(tt.probe(2).unwrap().best_move(), Some(0x0e1d));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub const fn best_move(&self) -> Option<u16> {
        if self.best_move == 0 {
            None
        } else {
            Some(self.best_move)
        }
    }

    /// The stored score converted to a root-relative score for a node at `ply`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable, MATE};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// // Found at ply 3: mate in 7 plies from the root.
    /// tt.store(4, 3, Record { best_move: 1, score: MATE - 7, static_eval: None, depth: 5, bound: Bound::EXACT });
    /// let entry = tt.probe(4).unwrap();
    /// assert_eq!(entry.score(3), MATE - 7);
    /// // Reached two plies deeper by another path, the mate is two plies further from the root.
    /// assert_eq!(entry.score(5), MATE - 9);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub const fn score(&self, ply: usize) -> i32 {
        score_from_tt(self.stored_score as i32, ply)
    }

    /// The stored, node-relative score (mates counted from this position).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable, MATE};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// let mate = Record { best_move: 1, score: MATE - 7, static_eval: None, depth: 5, bound: Bound::EXACT };
    /// tt.store(4, 3, mate);
    /// tt.store(5, 3, Record { score: 120, ..mate });
    /// // The mate found at ply 3 is 4 plies from its node; a heuristic score is stored as it came.
    /// assert_eq!(tt.probe(4).unwrap().stored_score(), MATE - 4);
    /// assert_eq!(tt.probe(5).unwrap().stored_score(), 120);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub const fn stored_score(&self) -> i32 {
        self.stored_score as i32
    }

    /// The static evaluation stored with the result, if one was.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// let in_check = Record { best_move: 1, score: 0, static_eval: None, depth: 2, bound: Bound::EXACT };
    /// tt.store(1, 0, in_check);
    /// tt.store(2, 0, Record { static_eval: Some(-35), ..in_check });
    /// assert_eq!(tt.probe(1).unwrap().static_eval(), None);
    /// assert_eq!(tt.probe(2).unwrap().static_eval(), Some(-35));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub const fn static_eval(&self) -> Option<i32> {
        if self.static_eval == EVAL_NONE {
            None
        } else {
            Some(self.static_eval as i32)
        }
    }

    /// The remaining depth of the stored search; negative for quiescence, [`PINNED_DEPTH`] for a pinned draw.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable, PINNED_DEPTH};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// tt.store(1, 0, Record { best_move: 1, score: 0, static_eval: Some(0), depth: -2, bound: Bound::UPPER });
    /// assert_eq!(tt.probe(1).unwrap().depth(), -2);
    /// tt.pin_draw(2).unwrap();
    /// assert_eq!(tt.probe(2).unwrap().depth(), PINNED_DEPTH);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub const fn depth(&self) -> i32 {
        self.depth_byte as i32 - DEPTH_OFFSET
    }

    /// What the stored score proves.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// tt.store(1, 0, Record { best_move: 1, score: 90, static_eval: None, depth: 4, bound: Bound::LOWER });
    /// // A fail-high proves only that the true score is at least 90.
    /// let bound = tt.probe(1).unwrap().bound();
    /// assert!(bound.contains(Bound::LOWER) && !bound.contains(Bound::UPPER));
    /// // The entry `enter` creates for a node being searched has no score yet.
    /// let _guard = tt.enter_guard(2, 6);
    /// assert!(tt.probe(2).unwrap().bound().is_empty());
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub const fn bound(&self) -> Bound {
        self.bound
    }

    /// Whether this is a pinned game-history draw, protected from ordinary stores.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// tt.pin_draw(1).unwrap();
    /// tt.store(2, 0, Record { best_move: 0, score: 0, static_eval: None, depth: 9, bound: Bound::EXACT });
    /// // Both are exact zeros, but only the game-history draw is protected.
    /// assert!(tt.probe(1).unwrap().is_pinned());
    /// assert!(!tt.probe(2).unwrap().is_pinned());
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub const fn is_pinned(&self) -> bool {
        self.pinned
    }

    /// The generation (search number modulo [`GENERATIONS`]) that wrote the entry.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable, GENERATIONS};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// for _ in 0..GENERATIONS + 2 {
    ///     tt.new_search();
    /// }
    /// tt.store(1, 0, Record { best_move: 1, score: 0, static_eval: None, depth: 1, bound: Bound::EXACT });
    /// // Search number 34, modulo the 32 generations.
    /// assert_eq!(tt.probe(1).unwrap().generation(), 2);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub const fn generation(&self) -> u8 {
        self.generation
    }

    /// Builds the entry a store of `record` at `ply` writes during `generation`, clamping every field into
    /// its bit field (out-of-range input is a caller bug, caught by debug assertions).
    pub(crate) fn from_record(record: &Record, ply: usize, generation: u8) -> Self {
        debug_assert!(
            (MIN_DEPTH..=MAX_DEPTH).contains(&record.depth),
            "depth {} out of range",
            record.depth
        );
        debug_assert!(record.score.abs() <= MATE, "score {} beyond MATE", record.score);
        debug_assert!(
            record.static_eval.is_none_or(|eval| eval.abs() <= MAX_EVAL),
            "eval {:?} beyond MAX_EVAL",
            record.static_eval
        );
        let stored_score = score_to_tt(record.score.clamp(-MATE, MATE), ply);
        Self {
            best_move: record.best_move,
            stored_score: clamp_to_i16(stored_score),
            static_eval: record
                .static_eval
                .map_or(EVAL_NONE, |eval| clamp_to_i16(eval.clamp(-MAX_EVAL, MAX_EVAL))),
            depth_byte: depth_to_byte(record.depth.clamp(MIN_DEPTH, MAX_DEPTH)),
            bound: record.bound,
            pinned: false,
            generation: generation % GENERATIONS,
        }
    }

    /// The entry `enter` creates for a node that has none yet (Weill's `retrieveAsk`): the depth being
    /// searched and nothing else — no score, no move, no evaluation — so that any result replaces it.
    pub(crate) fn placeholder(depth: i32, generation: u8) -> Self {
        Self {
            best_move: 0,
            stored_score: 0,
            static_eval: EVAL_NONE,
            depth_byte: depth_to_byte(depth.clamp(MIN_DEPTH, MAX_DEPTH)),
            bound: Bound::empty(),
            pinned: false,
            generation: generation % GENERATIONS,
        }
    }

    /// The pinned draw of seed 004: exact score 0 at maximal depth, which cuts any probe at once.
    pub(crate) const fn pinned_draw(generation: u8) -> Self {
        Self {
            best_move: 0,
            stored_score: 0,
            static_eval: EVAL_NONE,
            depth_byte: u8::MAX,
            bound: Bound::EXACT,
            pinned: true,
            generation: generation % GENERATIONS,
        }
    }

    /// The entry with what it lacks (a move, an evaluation) taken from `older`, an earlier result of the same
    /// position.
    pub(crate) const fn filled_from(self, older: &Self) -> Self {
        Self {
            best_move: if self.best_move == 0 {
                older.best_move
            } else {
                self.best_move
            },
            static_eval: if self.static_eval == EVAL_NONE {
                older.static_eval
            } else {
                self.static_eval
            },
            ..self
        }
    }

    /// Packs the entry into its data word; never zero, because the depth byte is at least 1.
    pub(crate) const fn pack(&self) -> u64 {
        (self.best_move as u64) << MOVE_SHIFT
            | (self.stored_score as u16 as u64) << SCORE_SHIFT
            | (self.static_eval as u16 as u64) << EVAL_SHIFT
            | (self.depth_byte as u64) << DEPTH_SHIFT
            | (self.bound.bits() as u64) << BOUND_SHIFT
            | (self.pinned as u64) << PINNED_SHIFT
            | (self.generation as u64 & GENERATION_MASK) << GENERATION_SHIFT
    }

    /// Decodes a data word; `None` for the empty word 0. Every other bit pattern is some entry.
    pub(crate) const fn unpack(data: u64) -> Option<Self> {
        if data == 0 {
            return None;
        }
        // Each `as` below takes exactly the bits of one field: truncation is the point.
        Some(Self {
            best_move: (data >> MOVE_SHIFT) as u16,
            stored_score: (data >> SCORE_SHIFT) as u16 as i16,
            static_eval: (data >> EVAL_SHIFT) as u16 as i16,
            depth_byte: (data >> DEPTH_SHIFT) as u8,
            bound: Bound::from_bits_truncate((data >> BOUND_SHIFT) as u8 & 0b11),
            pinned: (data >> PINNED_SHIFT) & 1 == 1,
            generation: ((data >> GENERATION_SHIFT) & GENERATION_MASK) as u8,
        })
    }
}

/// Whether a raw data word is a pinned draw, without decoding the rest.
pub(crate) const fn data_is_pinned(data: u64) -> bool {
    (data >> PINNED_SHIFT) & 1 == 1
}

fn clamp_to_i16(value: i32) -> i16 {
    i16::try_from(value.clamp(i16::MIN.into(), i16::MAX.into())).unwrap_or_default()
}

fn depth_to_byte(depth: i32) -> u8 {
    // MIN_DEPTH + DEPTH_OFFSET = 1 and PINNED_DEPTH + DEPTH_OFFSET = 255: always a byte.
    u8::try_from(depth + DEPTH_OFFSET).unwrap_or(u8::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(best_move: u16, score: i32, static_eval: Option<i32>, depth: i32, bound: Bound) -> Record {
        Record {
            best_move,
            score,
            static_eval,
            depth,
            bound,
        }
    }

    #[test]
    fn pack_round_trips_every_field_at_its_extremes() {
        for (mv, score, eval, depth, bound) in [
            (0, -MATE, Some(-MAX_EVAL), MIN_DEPTH, Bound::empty()),
            (u16::MAX, MATE, Some(MAX_EVAL), MAX_DEPTH, Bound::EXACT),
            (0x0e1d, -1, Some(1), 0, Bound::LOWER),
            (1, 1, None, 1, Bound::UPPER),
        ] {
            for generation in [0, 1, GENERATIONS - 1] {
                let entry = Entry::from_record(&record(mv, score, eval, depth, bound), 0, generation);
                let decoded = Entry::unpack(entry.pack()).expect("a stored entry is never the empty word");
                assert_eq!(decoded, entry);
                assert_eq!(decoded.best_move(), if mv == 0 { None } else { Some(mv) });
                assert_eq!(decoded.score(0), score);
                assert_eq!(decoded.static_eval(), eval);
                assert_eq!(decoded.depth(), depth);
                assert_eq!(decoded.bound(), bound);
                assert_eq!(decoded.generation(), generation);
                assert!(!decoded.is_pinned());
            }
        }
    }

    #[test]
    fn empty_word_is_no_entry() {
        assert_eq!(Entry::unpack(0), None);
    }

    #[test]
    fn pinned_draw_is_exact_zero_at_maximal_depth() {
        let pin = Entry::unpack(Entry::pinned_draw(3).pack()).unwrap();
        assert!(pin.is_pinned());
        assert!(data_is_pinned(pin.pack()));
        assert_eq!(pin.depth(), PINNED_DEPTH);
        assert_eq!(pin.bound(), Bound::EXACT);
        assert_eq!(pin.score(77), 0);
        assert_eq!(pin.best_move(), None);
        assert_eq!(pin.static_eval(), None);
    }

    #[test]
    fn placeholder_has_only_a_depth() {
        let placeholder = Entry::unpack(Entry::placeholder(7, 2).pack()).unwrap();
        assert_eq!(placeholder.depth(), 7);
        assert!(placeholder.bound().is_empty());
        assert_eq!((placeholder.best_move(), placeholder.static_eval()), (None, None));
    }

    #[test]
    fn missing_move_and_eval_are_filled_from_the_older_result() {
        let older = Entry::from_record(&record(9, 5, Some(40), 3, Bound::LOWER), 0, 0);
        let newer = Entry::from_record(&record(0, 8, None, 5, Bound::UPPER), 0, 0).filled_from(&older);
        assert_eq!(
            (newer.best_move(), newer.static_eval(), newer.score(0)),
            (Some(9), Some(40), 8)
        );
        let complete = Entry::from_record(&record(4, 8, Some(-3), 5, Bound::UPPER), 0, 0).filled_from(&older);
        assert_eq!(
            (complete.best_move(), complete.static_eval()),
            (Some(4), Some(-3))
        );
    }

    #[test]
    fn every_data_word_decodes() {
        let mut word = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            word = word.rotate_left(7).wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
            let entry = Entry::unpack(word).unwrap();
            assert!(entry.generation() < GENERATIONS);
            assert!(entry.depth() >= -DEPTH_OFFSET && entry.depth() <= PINNED_DEPTH);
        }
    }

    #[test]
    fn mate_score_is_stored_node_relative() {
        let entry = Entry::from_record(&record(7, MATE - 9, Some(0), 4, Bound::EXACT), 6, 0);
        assert_eq!(entry.stored_score(), MATE - 3);
        assert_eq!(entry.score(6), MATE - 9);
        assert_eq!(entry.score(2), MATE - 5);
    }
}
