//! Storing results: depth-preferred replacement with aging, and protected entries.
//!
//! The rules, in the order [`TranspositionTable::store`] applies them within the key's bucket:
//!
//! 1. **Same key.** If a slot already holds this position: a pinned draw is never overwritten (the store is
//!    dropped). Otherwise the new result replaces the old when the old has no score (the placeholder `enter`
//!    creates), or is *stale* (written by an earlier search), or is no deeper than the new, or is only a bound
//!    while the new is exact; otherwise the deeper old result is kept. A replacing result without a move or
//!    static evaluation keeps the old one. A slot reserved by `enter` holds its node's entry, so the node's
//!    own result lands there by this rule.
//! 2. **Another key.** Among the slots that are not *protected* — neither reserved by threads searching
//!    another node (`nproc > 0`) nor a pinned draw — the least valuable is the candidate: an empty slot first,
//!    then the lowest `depth − AGE_WEIGHT × age`, where `age` counts searches since the entry was written. It
//!    is evicted if it is empty or stale, or if the new result is at least as deep; otherwise the store is
//!    dropped (a shallower result of the current search never evicts a deeper one). If every slot is
//!    protected the store is dropped.

use core::array;

use crate::Bound;
use crate::bucket::{Bucket, SLOTS, SlotView};
use crate::entry::{Entry, GENERATIONS, Record};
use crate::error::PinError;
use crate::table::TranspositionTable;

/// Depth units an entry loses per generation of age when slots compete for eviction (Stockfish's weight).
///
/// # Examples
///
/// ```
/// use eldest_tt::{Bound, Record, StoreOutcome, TranspositionTable, AGE_WEIGHT};
/// let at = |depth| Record { best_move: 1, score: 0, static_eval: None, depth, bound: Bound::EXACT };
/// // A search later the old entry is worth its depth minus AGE_WEIGHT, against two fresh entries of depth 3.
/// let cases = [(2 + AGE_WEIGHT, StoreOutcome::Inserted), (4 + AGE_WEIGHT, StoreOutcome::TooShallow)];
/// for (old_depth, outcome) in cases {
///     let tt = TranspositionTable::with_buckets(1)?; // one bucket: every key competes for its three slots
///     tt.store(1, 0, at(old_depth));
///     tt.new_search();
///     tt.store(2, 0, at(3));
///     tt.store(3, 0, at(3));
///     assert_eq!(tt.store(4, 0, at(1)), outcome);
/// }
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
pub const AGE_WEIGHT: i32 = 8;

/// What a [`TranspositionTable::store`] did.
///
/// # Examples
///
/// ```
/// use eldest_tt::{Bound, Record, StoreOutcome, TranspositionTable};
/// let tt = TranspositionTable::with_buckets(1)?; // one bucket of three slots
/// let record = Record { best_move: 5, score: 10, static_eval: Some(0), depth: 6, bound: Bound::EXACT };
/// assert_eq!(tt.store(1 << 50, 0, record), StoreOutcome::Inserted);
/// assert_eq!(tt.store(1 << 50, 0, Record { depth: 7, ..record }), StoreOutcome::Updated);
/// assert_eq!(tt.store(1 << 50, 0, Record { depth: 2, ..record }), StoreOutcome::KeptExisting);
/// tt.pin_draw(2 << 50).unwrap();
/// assert_eq!(tt.store(2 << 50, 0, record), StoreOutcome::Protected);
/// assert_eq!(tt.store(3 << 50, 0, record), StoreOutcome::Inserted);
/// // The bucket is full, and both evictable slots hold deeper results of this search.
/// assert_eq!(tt.store(4 << 50, 0, Record { depth: 2, ..record }), StoreOutcome::TooShallow);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoreOutcome {
    /// The result went into an empty slot or evicted another position.
    Inserted,
    /// The result replaced an older result for the same position.
    Updated,
    /// The same position already holds a deeper result of the current search; nothing was written.
    KeptExisting,
    /// The position is a pinned draw, or every slot of the bucket is protected; nothing was written.
    Protected,
    /// Every evictable slot holds a deeper result of the current search; nothing was written.
    TooShallow,
}

impl StoreOutcome {
    /// Whether the result was written.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::StoreOutcome;
    /// assert!(StoreOutcome::Inserted.is_written() && StoreOutcome::Updated.is_written());
    /// for dropped in [StoreOutcome::KeptExisting, StoreOutcome::Protected, StoreOutcome::TooShallow] {
    ///     assert!(!dropped.is_written());
    /// }
    /// ```
    #[must_use]
    pub const fn is_written(self) -> bool {
        matches!(self, Self::Inserted | Self::Updated)
    }
}

/// The age of an entry of `generation` when the table is at `current`, in generations.
fn age(generation: u8, current: u8) -> i32 {
    i32::from((current + GENERATIONS - generation) % GENERATIONS)
}

/// How much a slot is worth keeping; the lowest-valued evictable slot is the eviction candidate.
fn worth(view: &SlotView, current: u8) -> i32 {
    Entry::unpack(view.data).map_or(i32::MIN, |entry| {
        entry.depth() - AGE_WEIGHT * age(entry.generation(), current)
    })
}

/// The evictable slot (neither reserved nor pinned) that is least worth keeping, if any.
pub(crate) fn eviction_candidate(views: &[SlotView; SLOTS], current: u8) -> Option<usize> {
    (0..SLOTS)
        .filter(|&index| views[index].is_evictable())
        .min_by_key(|&index| worth(&views[index], current))
}

/// Whether a result of `depth` may take the candidate slot: it is empty, stale, or no deeper.
pub(crate) fn may_evict(view: &SlotView, depth: i32, current: u8) -> bool {
    Entry::unpack(view.data).is_none_or(|entry| entry.generation() != current || depth >= entry.depth())
}

/// All slots of a bucket, loaded once.
pub(crate) fn views(bucket: &Bucket) -> [SlotView; SLOTS] {
    array::from_fn(|index| bucket.view(index))
}

/// Rule 1: whether `new` should replace `old`, both results for the same position.
fn replaces_same_key(old: &Entry, new: &Entry, current: u8) -> bool {
    old.bound().is_empty()
        || old.generation() != current
        || new.depth() >= old.depth()
        || (new.bound() == Bound::EXACT && old.bound() != Bound::EXACT)
}

impl TranspositionTable {
    /// Stores the result of a search of the position `key`, reached at `ply` plies from the root, by the rules
    /// of depth-preferred replacement with protected entries (module docs, docs/tt.md).
    ///
    /// The score is converted to node-relative with [`score_to_tt`](crate::score_to_tt); out-of-range fields
    /// are clamped into their bit fields.
    ///
    /// # Panics
    /// In debug builds, if `record.depth` lies outside `MIN_DEPTH..=MAX_DEPTH`, `|record.score|` exceeds
    /// `MATE`, or `|record.static_eval|` exceeds `MAX_EVAL`.
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, StoreOutcome, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// let deep = Record { best_move: 12, score: 40, static_eval: Some(3), depth: 9, bound: Bound::LOWER };
    /// assert_eq!(tt.store(7, 0, deep), StoreOutcome::Inserted);
    /// // A shallower bound for the same position does not replace the deeper one.
    /// let shallow = Record { depth: 2, ..deep };
    /// assert_eq!(tt.store(7, 0, shallow), StoreOutcome::KeptExisting);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn store(&self, key: u64, ply: usize, record: Record) -> StoreOutcome {
        let current = self.generation();
        let bucket = self.bucket(key);
        let new = Entry::from_record(&record, ply, current);
        let views = views(bucket);

        if let Some(index) = (0..SLOTS).find(|&index| views[index].holds(key)) {
            let Some(old) = Entry::unpack(views[index].data) else {
                unreachable!("a held slot is not empty")
            };
            if old.is_pinned() {
                return StoreOutcome::Protected;
            }
            if !replaces_same_key(&old, &new, current) {
                return StoreOutcome::KeptExisting;
            }
            bucket.write(index, key, &new.filled_from(&old));
            return StoreOutcome::Updated;
        }

        match eviction_candidate(&views, current) {
            None => StoreOutcome::Protected,
            Some(index) if may_evict(&views[index], new.depth(), current) => {
                bucket.write(index, key, &new);
                StoreOutcome::Inserted
            }
            Some(_) => StoreOutcome::TooShallow,
        }
    }

    /// Pins `key` as a game-history draw, as micro-Max does when a move is played away from a position (seed
    /// 004): an exact score of 0 at [`PINNED_DEPTH`](crate::PINNED_DEPTH), which satisfies every later probe
    /// of that position at any depth and window, and which ordinary stores never evict.
    ///
    /// Meant for the game layer between searches (for each position of the game since the last irreversible
    /// move, in the micro-Max mode of repetition handling). A store racing the pin may overwrite it.
    ///
    /// # Errors
    /// [`PinError`] when every slot of the bucket is already protected; like micro-Max, the draw is then
    /// simply not recorded in the table.
    ///
    /// ```
    /// use eldest_tt::{probe_cutoff, ProbeOutcome, TranspositionTable, MATE};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// tt.pin_draw(42).unwrap();
    /// let outcome = probe_cutoff(tt.probe(42), 30, -MATE, MATE, 5);
    /// assert_eq!(outcome, ProbeOutcome::Cutoff(0));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn pin_draw(&self, key: u64) -> Result<(), PinError> {
        let current = self.generation();
        let bucket = self.bucket(key);
        let views = views(bucket);
        let index = (0..SLOTS)
            .find(|&index| views[index].holds(key))
            .or_else(|| eviction_candidate(&views, current))
            .ok_or(PinError { key })?;
        bucket.write(index, key, &Entry::pinned_draw(current));
        Ok(())
    }

    /// Removes the pinned draw of `key`; returns whether there was one.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// tt.pin_draw(42).unwrap();
    /// assert!(tt.unpin(42));
    /// assert!(tt.probe(42).is_none());
    /// assert!(!tt.unpin(42));
    /// // An ordinary result is not a pin: it stays.
    /// tt.store(7, 0, Record { best_move: 1, score: 0, static_eval: None, depth: 3, bound: Bound::EXACT });
    /// assert!(!tt.unpin(7) && tt.probe(7).is_some());
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn unpin(&self, key: u64) -> bool {
        let bucket = self.bucket(key);
        let views = views(bucket);
        match (0..SLOTS).find(|&index| views[index].holds(key) && views[index].is_pinned()) {
            Some(index) => {
                bucket.erase(index);
                true
            }
            None => false,
        }
    }

    /// Removes every pinned draw, in parallel; returns how many there were. For the game layer when a new game
    /// history replaces the old one (a `position` that does not extend the previous game).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::TranspositionTable;
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// for key in [1, 2, 3] {
    ///     tt.pin_draw(key).unwrap();
    /// }
    /// assert_eq!(tt.unpin_all(), 3);
    /// assert!(tt.probe(2).is_none());
    /// assert_eq!(tt.unpin_all(), 0);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn unpin_all(&self) -> usize {
        self.sum_over_buckets(|bucket| {
            (0..SLOTS)
                .filter(|&index| {
                    let pinned = bucket.view(index).is_pinned();
                    if pinned {
                        bucket.erase(index);
                    }
                    pinned
                })
                .count()
        })
    }
}
