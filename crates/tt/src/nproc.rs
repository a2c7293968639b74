//! ABDADA's `nproc`: how many threads are searching a node right now (seed 001, Weill 1996).
//!
//! Each slot has its own 32-bit counter word holding a 20-bit *key tag* and a 12-bit count (`bucket.rs` draws
//! it). Keeping the counter out of the entry's two words means every operation here is a compare-and-swap on a
//! single word, which can never tear the entry, and the entry can be rewritten by a store without disturbing
//! the count.
//!
//! * [`enter`](TranspositionTable::enter) increments the counter already held for the key's tag in its bucket;
//!   if there is none it *reserves* a slot — the one holding the key's entry, or else the slot a store of
//!   `depth` would evict — by swapping its zero count for `(tag, 1)`, and in the second case writes a
//!   scoreless placeholder entry of the key there, as Weill's `retrieveAsk` creates the entry.
//! * [`leave`](TranspositionTable::leave) decrements a counter held for the tag.
//! * [`busy`](TranspositionTable::busy) asks whether any counter is held for the tag.
//!
//! While its count is non-zero a slot is reserved: ordinary stores of other positions do not evict it, and
//! the store of the node's own result lands in it (it holds the node's entry, so the same-key rule applies).
//! The one exception is a race the table accepts rather than lock: a store that chose the slot as its victim
//! just before the reservation may still write its own entry there; the count is unaffected, and the node's
//! result then goes wherever the replacement rules put it. Counts are kept per (bucket, tag): two positions that
//! share both (odds about 2⁻²⁰ per pair in one bucket) share a count, which at worst makes an exclusive
//! probe defer a move to ABDADA's second pass; enters and leaves still balance exactly, so counts return to
//! zero. A count never exceeds [`MAX_COUNT`](crate::bucket::MAX_COUNT) (4095): an `enter` beyond it, or into a
//! bucket whose slots are all protected or deeper, is not counted and says so.

use crate::bucket::{MAX_COUNT, RELAXED, SLOTS, count_of, counter_word, tag_of, word_tag};
use crate::counters::NodeCounters;
use crate::entry::Entry;
use crate::replace::{eviction_candidate, may_evict, views};
use crate::table::TranspositionTable;

/// Proof that a thread is counted in a node: dropping it leaves the node, on every exit path (early return,
/// `?`, abort, panic unwinding).
///
/// ```
/// let tt = eldest_tt::TranspositionTable::with_buckets(64)?;
/// {
///     let guard = tt.enter_guard(0xfeed, 8);
///     assert!(guard.is_counted());
///     assert!(tt.busy(0xfeed));
/// }
/// assert!(!tt.busy(0xfeed));
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug)]
#[must_use = "dropping the guard leaves the node at once"]
pub struct NodeGuard<'table> {
    home: CountHome<'table>,
    key: u64,
    counted: bool,
}

/// Where a guard's count is kept: in the transposition table's entries (Weill) or apart from them.
#[derive(Debug)]
enum CountHome<'table> {
    Entries(&'table TranspositionTable),
    Apart(&'table NodeCounters),
}

impl<'table> NodeGuard<'table> {
    /// The guard of an enter into `counters` that `counted` says succeeded.
    pub(crate) const fn apart(counters: &'table NodeCounters, key: u64, counted: bool) -> NodeGuard<'table> {
        NodeGuard {
            home: CountHome::Apart(counters),
            key,
            counted,
        }
    }

    /// Whether the enter was counted (false when the bucket had no slot to reserve, or with
    /// [`NodeCounters`] the line had no free word, or the count was full).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::TranspositionTable;
    /// let tt = TranspositionTable::with_buckets(1)?;
    /// // One bucket of three slots: three nodes with distinct key tags (top bits) reserve all of them.
    /// let inside: Vec<_> = (1..=3u64).map(|node| tt.enter_guard(node << 50, 1)).collect();
    /// assert!(inside.iter().all(|guard| guard.is_counted()));
    /// let fourth = tt.enter_guard(4 << 50, 1);
    /// assert!(!fourth.is_counted());
    /// assert!(!tt.busy(4 << 50));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub const fn is_counted(&self) -> bool {
        self.counted
    }

    /// The key of the node this guard is in.
    ///
    /// # Examples
    ///
    /// ```
    /// let tt = eldest_tt::TranspositionTable::with_buckets(64)?;
    /// let guard = tt.enter_guard(0xfeed, 8);
    /// assert_eq!(guard.key(), 0xfeed);
    /// assert!(tt.busy(guard.key()));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub const fn key(&self) -> u64 {
        self.key
    }
}

impl Drop for NodeGuard<'_> {
    fn drop(&mut self) {
        if self.counted {
            match self.home {
                CountHome::Entries(table) => table.leave(self.key),
                CountHome::Apart(counters) => counters.leave(self.key),
            };
        }
    }
}

impl TranspositionTable {
    /// Counts the calling thread into the node `key`, searched to `depth`; returns whether it was counted.
    ///
    /// Lock-free: each retry of the loop follows a compare-and-swap that failed because another thread's
    /// succeeded. Prefer [`enter_guard`](Self::enter_guard), which cannot forget the matching
    /// [`leave`](Self::leave). A `false` return must not be followed by a `leave`.
    ///
    /// # Examples
    ///
    /// ```
    /// let tt = eldest_tt::TranspositionTable::with_buckets(64)?;
    /// assert!(tt.enter(7, 5));
    /// assert!(tt.enter(7, 5));
    /// assert_eq!(tt.nproc(7), 2);
    /// // Each counted enter needs a leave of its own.
    /// assert!(tt.leave(7) && tt.leave(7));
    /// assert!(!tt.busy(7));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn enter(&self, key: u64, depth: i32) -> bool {
        let bucket = self.bucket(key);
        let tag = tag_of(key);
        loop {
            let current = self.generation();
            let views = views(bucket);
            if let Some(index) = (0..SLOTS).find(|&index| views[index].is_reserved_for(tag)) {
                let word = views[index].counter;
                if count_of(word) >= MAX_COUNT {
                    return false;
                }
                if bucket
                    .counter(index)
                    .compare_exchange_weak(word, word + 1, RELAXED, RELAXED)
                    .is_ok()
                {
                    return true;
                }
                continue;
            }
            let reservable = (0..SLOTS)
                .find(|&index| views[index].holds(key) && views[index].is_unreserved())
                .or_else(|| {
                    eviction_candidate(&views, current)
                        .filter(|&index| may_evict(&views[index], depth, current))
                });
            let Some(index) = reservable else {
                return false;
            };
            let word = views[index].counter;
            let reserved = counter_word(tag, 1);
            if bucket
                .counter(index)
                .compare_exchange_weak(word, reserved, RELAXED, RELAXED)
                .is_ok()
            {
                if !views[index].holds(key) {
                    bucket.write(index, key, &Entry::placeholder(depth, current));
                }
                return true;
            }
        }
    }

    /// Counts the calling thread out of the node `key`; returns whether a count was found to decrement.
    ///
    /// Call it exactly once after each `enter` that returned `true` — or let a [`NodeGuard`] do it. A `false`
    /// return means an unbalanced leave (or a [`clear`](Self::clear) in between) and changes nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// let tt = eldest_tt::TranspositionTable::with_buckets(64)?;
    /// assert!(tt.enter(7, 5));
    /// assert!(tt.leave(7));
    /// // An unbalanced leave finds no count and changes nothing.
    /// assert!(!tt.leave(7));
    /// assert_eq!(tt.nproc_total(), 0);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn leave(&self, key: u64) -> bool {
        let bucket = self.bucket(key);
        let tag = tag_of(key);
        loop {
            let held = (0..SLOTS).find_map(|index| {
                let word = bucket.counter(index).load(RELAXED);
                (count_of(word) > 0 && word_tag(word) == tag).then_some((index, word))
            });
            let Some((index, word)) = held else {
                return false;
            };
            // Compare-and-swap, not fetch_sub: the count may have reached zero and the slot been reserved for
            // another tag since the load, and that count must not be touched.
            if bucket
                .counter(index)
                .compare_exchange_weak(word, word - 1, RELAXED, RELAXED)
                .is_ok()
            {
                return true;
            }
        }
    }

    /// [`enter`](Self::enter) with a guard whose drop performs the matching [`leave`](Self::leave).
    ///
    /// # Examples
    ///
    /// ```
    /// let tt = eldest_tt::TranspositionTable::with_buckets(64)?;
    /// let outer = tt.enter_guard(7, 5);
    /// {
    ///     let _inner = tt.enter_guard(7, 5);
    ///     assert_eq!(tt.nproc(7), 2);
    /// }
    /// assert_eq!(tt.nproc(7), 1);
    /// drop(outer);
    /// assert!(!tt.busy(7));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn enter_guard(&self, key: u64, depth: i32) -> NodeGuard<'_> {
        NodeGuard {
            home: CountHome::Entries(self),
            key,
            counted: self.enter(key, depth),
        }
    }

    /// Whether some thread is counted in the node `key` (ABDADA's `nproc > 0`).
    ///
    /// # Examples
    ///
    /// ```
    /// let tt = eldest_tt::TranspositionTable::with_buckets(64)?;
    /// assert!(!tt.busy(7));
    /// let _guard = tt.enter_guard(7, 5);
    /// assert!(tt.busy(7));
    /// assert!(!tt.busy(8));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub fn busy(&self, key: u64) -> bool {
        self.nproc(key) > 0
    }

    /// How many threads are counted in the node `key`.
    ///
    /// # Examples
    ///
    /// ```
    /// let tt = eldest_tt::TranspositionTable::with_buckets(64)?;
    /// let guards: Vec<_> = (0..3).map(|_| tt.enter_guard(7, 5)).collect();
    /// assert_eq!(tt.nproc(7), 3);
    /// drop(guards);
    /// assert_eq!(tt.nproc(7), 0);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub fn nproc(&self, key: u64) -> u32 {
        let bucket = self.bucket(key);
        let tag = tag_of(key);
        (0..SLOTS)
            .map(|index| bucket.counter(index).load(RELAXED))
            .filter(|&word| word_tag(word) == tag)
            .map(count_of)
            .sum()
    }

    /// The sum of all `nproc` counts, computed in parallel: 0 whenever no thread is inside a node — a cheap
    /// end-of-search check that every `enter` was matched by a `leave`.
    ///
    /// # Examples
    ///
    /// ```
    /// let tt = eldest_tt::TranspositionTable::with_buckets(64)?;
    /// let guards = [tt.enter_guard(1, 4), tt.enter_guard(2, 4), tt.enter_guard(2, 4)];
    /// assert_eq!(tt.nproc_total(), 3);
    /// drop(guards);
    /// // What a search checks at its end: every enter was matched by a leave.
    /// assert_eq!(tt.nproc_total(), 0);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub fn nproc_total(&self) -> usize {
        self.sum_over_buckets(|bucket| {
            // A count has 12 bits: the cast is lossless.
            (0..SLOTS)
                .map(|index| count_of(bucket.counter(index).load(RELAXED)) as usize)
                .sum()
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::bucket::MAX_COUNT;
    use crate::{Bound, Record, StoreOutcome, TranspositionTable};

    fn record(depth: i32) -> Record {
        Record {
            best_move: 2,
            score: 10,
            static_eval: Some(0),
            depth,
            bound: Bound::EXACT,
        }
    }

    #[test]
    fn enter_counts_and_leave_uncounts() {
        let tt = TranspositionTable::with_buckets(4).unwrap();
        assert!(!tt.busy(77));
        assert!(tt.enter(77, 5));
        assert!(tt.enter(77, 5));
        assert_eq!(tt.nproc(77), 2);
        assert!(tt.leave(77));
        assert!(tt.busy(77));
        assert!(tt.leave(77));
        assert!(!tt.busy(77));
        assert!(!tt.leave(77), "an unbalanced leave finds nothing");
        assert_eq!(tt.nproc_total(), 0);
    }

    #[test]
    fn enter_reuses_the_slot_of_the_entry() {
        let tt = TranspositionTable::with_buckets(1).unwrap();
        tt.store(100, 0, record(3));
        assert!(tt.enter(100, 3));
        // The node's own result lands in its reserved slot and keeps the count.
        assert_eq!(tt.store(100, 0, record(4)), StoreOutcome::Updated);
        assert_eq!(tt.nproc(100), 1);
        assert_eq!(tt.probe(100).unwrap().depth(), 4);
    }

    #[test]
    fn reserved_slot_receives_the_result_of_its_node() {
        let tt = TranspositionTable::with_buckets(1).unwrap();
        for key in [1, 2, 3] {
            tt.store(key << 50, 0, record(1));
        }
        assert!(
            tt.enter(9 << 50, 6),
            "a deeper node may reserve the shallowest slot"
        );
        let placeholder = tt.probe(9 << 50).expect("enter creates the entry");
        assert!(placeholder.bound().is_empty());
        assert_eq!(placeholder.depth(), 6);
        assert_eq!(
            tt.store(9 << 50, 0, record(2)),
            StoreOutcome::Updated,
            "any result replaces a placeholder"
        );
        assert_eq!(tt.probe(9 << 50).unwrap().depth(), 2);
        assert!(tt.leave(9 << 50));
    }

    #[test]
    fn shallower_node_does_not_reserve_over_deeper_entries() {
        let tt = TranspositionTable::with_buckets(1).unwrap();
        for key in [1, 2, 3] {
            tt.store(key << 50, 0, record(8));
        }
        assert!(!tt.enter(9 << 50, 7));
        assert!(tt.enter(9 << 50, 8));
        assert!(tt.leave(9 << 50));
    }

    #[test]
    fn colliding_tag_shares_the_count_but_not_the_slot() {
        // Same bucket (one bucket), same top 20 bits: the same tag.
        let (node, other) = (0xABCD_E000_0000_0001, 0xABCD_E000_0000_0002);
        let tt = TranspositionTable::with_buckets(1).unwrap();
        assert!(tt.enter(node, 3));
        assert!(
            tt.busy(other),
            "a tag collision reads as busy: at worst a deferred move"
        );
        // But the other position cannot write into the reserved slot: its entry goes elsewhere.
        assert_eq!(tt.store(other, 0, record(9)), StoreOutcome::Inserted);
        assert!(tt.probe(node).is_some());
        assert!(tt.leave(node));
        assert_eq!(tt.nproc_total(), 0);
    }

    #[test]
    fn enter_into_a_fully_protected_bucket_is_not_counted() {
        let tt = TranspositionTable::with_buckets(1).unwrap();
        for key in [1u64, 2, 3] {
            assert!(tt.enter(key << 50, 1));
        }
        let guard = tt.enter_guard(4 << 50, 1);
        assert!(!guard.is_counted());
        assert!(!tt.busy(4 << 50));
        drop(guard);
        assert_eq!(tt.nproc_total(), 3, "an uncounted guard leaves nothing");
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "long single-threaded loop; enter/leave run under Miri in the threaded tests"
    )]
    fn count_saturates_instead_of_overflowing_into_the_tag() {
        let tt = TranspositionTable::with_buckets(1).unwrap();
        for _ in 0..MAX_COUNT {
            assert!(tt.enter(5, 1));
        }
        assert!(!tt.enter(5, 1));
        assert_eq!(tt.nproc(5), MAX_COUNT);
        for _ in 0..MAX_COUNT {
            assert!(tt.leave(5));
        }
        assert_eq!(tt.nproc_total(), 0);
    }

    #[test]
    fn guard_leaves_on_panic() {
        let tt = TranspositionTable::with_buckets(2).unwrap();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _guard = tt.enter_guard(31, 4);
            assert!(tt.busy(31));
            panic!("search aborted");
        }));
        assert!(result.is_err());
        assert!(!tt.busy(31));
    }
}
