//! ABDADA's `nproc` kept apart from the entries: a small table of counters of its own.
//!
//! Weill keeps a node's `nproc` in its transposition-table entry, and
//! [`enter`](crate::TranspositionTable::enter) does the same: every enter and leave is a compare-and-swap on the
//! bucket's cache line, the line another thread reads next when it probes the node or one of the bucket's other
//! positions, and every younger brother's exclusive probe
//! ([`probe_exclusive`](crate::TranspositionTable::probe_exclusive)) loads the child's bucket from memory before
//! the move is made, a miss nothing overlaps. [`NodeCounters`] keeps the same counts in a table sized by the
//! thread count (the nodes being searched at one time are at most a path per thread), small enough to stay in
//! the cores' caches: a node's count is on a line away from the table's entries, and asking whether a node is
//! busy costs no table probe. Nothing is reserved or protected in the transposition table, and no placeholder
//! entry is written.
//!
//! A line holds eight 64-bit words, each a key tag (the key's top 48 bits) and a 16-bit count; a word whose count
//! is zero is free. Enters and leaves are compare-and-swaps on one word (acquire and release, see `LOAD`). Two
//! threads entering a node at the same moment may each claim a free word for it; the node is then counted in both,
//! `busy` sees either, and every leave finds a word to decrement, so counts still return to zero. A line whose
//! eight words all count other nodes cannot count a ninth: its enter says so and the node is searched uncounted,
//! like an enter into a transposition-table bucket with no slot to reserve.

use core::sync::atomic::{AtomicU64, Ordering};

use crate::nproc::NodeGuard;

/// Bits of a counter word that hold the count; the rest hold the key tag.
const COUNT_BITS: u32 = 16;
const COUNT_MASK: u64 = (1 << COUNT_BITS) - 1;

/// Counter words on one cache line.
const WORDS_PER_LINE: usize = 8;

/// The fewest lines a table has, and the lines per thread beyond that: a thread holds at most one count per
/// node of its path, so a table of 64 lines (512 words) per thread is never more than a few percent full.
const MIN_LINES: usize = 1024;
const LINES_PER_THREAD: usize = 64;

/// Loads acquire and compare-and-swaps acquire and release (on x86 the same instructions as relaxed ones). Counts
/// are fungible: a leave decrements the first word counting its node, which may be the word another thread
/// claimed for that node in a race. That thread must then still see its node busy through the word the leaving
/// thread claimed, and it does because seeing the leave's release shows it everything the leaving thread did
/// before, that claim included; with relaxed accesses it might see the decrement and not the claim (Miri finds
/// it in `many_threads_balance_their_counts`).
const LOAD: Ordering = Ordering::Acquire;
const SWAP: Ordering = Ordering::AcqRel;

const fn tag_of(key: u64) -> u64 {
    key & !COUNT_MASK
}

const fn count_of(word: u64) -> u64 {
    word & COUNT_MASK
}

/// One cache line of counter words.
#[derive(Debug, Default)]
#[repr(C, align(64))]
struct CounterLine {
    words: [AtomicU64; WORDS_PER_LINE],
}

const _: () = assert!(
    size_of::<CounterLine>() == 64,
    "a line of counters is one cache line"
);

impl CounterLine {
    /// The word counting `tag` and its value, if a thread is counted in that node.
    fn held(&self, tag: u64) -> Option<(&AtomicU64, u64)> {
        self.words.iter().find_map(|word| {
            let value = word.load(LOAD);
            (count_of(value) > 0 && tag_of(value) == tag).then_some((word, value))
        })
    }
}

/// ABDADA's `nproc` counters in a table of their own (see the module's text), the `NprocTable` knob of the
/// search.
///
/// # Examples
///
/// ```
/// use eldest_tt::NodeCounters;
///
/// let counters = NodeCounters::for_threads(2);
/// let inside = counters.enter_guard(0xfeed << 40);
/// assert!(inside.is_counted());
/// assert!(counters.busy(0xfeed << 40));
/// assert!(!counters.busy(0xbeef << 40));
/// drop(inside);
/// assert!(!counters.busy(0xfeed << 40));
/// assert_eq!(counters.total(), 0);
/// ```
#[derive(Debug)]
pub struct NodeCounters {
    lines: Box<[CounterLine]>,
}

impl NodeCounters {
    /// A table of `lines` cache lines (rounded up to a power of two, at least one), all counts zero.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::NodeCounters;
    ///
    /// assert_eq!(NodeCounters::with_lines(1000).lines(), 1024);
    /// assert_eq!(NodeCounters::with_lines(0).lines(), 1);
    /// ```
    #[must_use]
    pub fn with_lines(lines: usize) -> NodeCounters {
        let lines = lines.max(1).next_power_of_two();
        NodeCounters {
            lines: (0..lines).map(|_| CounterLine::default()).collect(),
        }
    }

    /// A table sized for `threads` search threads: 1024 lines (64 KiB), or 64 lines per thread where that is
    /// more.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::NodeCounters;
    ///
    /// assert_eq!(NodeCounters::for_threads(2).lines(), 1024);
    /// assert_eq!(NodeCounters::for_threads(256).lines(), 16_384);
    /// ```
    #[must_use]
    pub fn for_threads(threads: usize) -> NodeCounters {
        NodeCounters::with_lines(NodeCounters::lines_for(threads))
    }

    /// The lines of [`for_threads`](Self::for_threads)`(threads)`, without building the table.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::NodeCounters;
    ///
    /// assert_eq!(NodeCounters::lines_for(16), NodeCounters::for_threads(16).lines());
    /// assert_eq!(NodeCounters::lines_for(100), 8192);
    /// ```
    #[must_use]
    pub const fn lines_for(threads: usize) -> usize {
        // More threads than any machine has are sized as 65,536 (4 M lines, 256 MiB), which cannot overflow.
        let threads = if threads > 1 << 16 { 1 << 16 } else { threads };
        let lines = threads * LINES_PER_THREAD;
        let lines = if lines > MIN_LINES { lines } else { MIN_LINES };
        lines.next_power_of_two()
    }

    /// The number of cache lines.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::NodeCounters;
    ///
    /// let counters = NodeCounters::for_threads(64);
    /// assert_eq!(counters.lines(), 4096);
    /// ```
    #[must_use]
    pub fn lines(&self) -> usize {
        self.lines.len()
    }

    fn line(&self, key: u64) -> &CounterLine {
        // A power of two: the mask keeps the key's low bits, which the tag leaves out.
        &self.lines[key as usize & (self.lines.len() - 1)]
    }

    /// Counts the calling thread into the node `key`; returns whether it was counted (false when the node's
    /// line counts eight other nodes, or the node's count is full). A `true` return needs a matching
    /// [`leave`](Self::leave); prefer [`enter_guard`](Self::enter_guard).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::NodeCounters;
    ///
    /// let counters = NodeCounters::with_lines(1);
    /// assert!(counters.enter(7) && counters.enter(7));
    /// assert_eq!(counters.nproc(7), 2);
    /// // One line of eight words: seven more nodes fill it, and a ninth is not counted.
    /// assert!((1..8u64).all(|node| counters.enter(node << 32)));
    /// assert!(!counters.enter(8 << 32));
    /// assert!(!counters.busy(8 << 32));
    /// ```
    pub fn enter(&self, key: u64) -> bool {
        let line = self.line(key);
        let tag = tag_of(key);
        loop {
            if let Some((word, value)) = line.held(tag) {
                if count_of(value) == COUNT_MASK {
                    return false;
                }
                if word.compare_exchange_weak(value, value + 1, SWAP, LOAD).is_ok() {
                    return true;
                }
                continue;
            }
            let free = line.words.iter().find_map(|word| {
                let value = word.load(LOAD);
                (count_of(value) == 0).then_some((word, value))
            });
            let Some((word, value)) = free else {
                return false;
            };
            if word.compare_exchange_weak(value, tag | 1, SWAP, LOAD).is_ok() {
                return true;
            }
        }
    }

    /// Counts the calling thread out of the node `key`; returns whether a count was found to decrement (false
    /// for a leave without its enter, which changes nothing).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::NodeCounters;
    ///
    /// let counters = NodeCounters::for_threads(2);
    /// assert!(counters.enter(7));
    /// assert!(counters.leave(7));
    /// assert!(!counters.leave(7));
    /// assert_eq!(counters.total(), 0);
    /// ```
    pub fn leave(&self, key: u64) -> bool {
        let line = self.line(key);
        let tag = tag_of(key);
        loop {
            let Some((word, value)) = line.held(tag) else {
                return false;
            };
            // Compare-and-swap, not fetch_sub: the count may have reached zero and the word been claimed for
            // another node since the load, and that count must not be touched.
            if word.compare_exchange_weak(value, value - 1, SWAP, LOAD).is_ok() {
                return true;
            }
        }
    }

    /// [`enter`](Self::enter) with a guard whose drop performs the matching [`leave`](Self::leave), on every
    /// way out of the node.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::NodeCounters;
    ///
    /// let counters = NodeCounters::for_threads(2);
    /// let outer = counters.enter_guard(7);
    /// {
    ///     let _inner = counters.enter_guard(7);
    ///     assert_eq!(counters.nproc(7), 2);
    /// }
    /// assert_eq!(counters.nproc(7), 1);
    /// drop(outer);
    /// assert!(!counters.busy(7));
    /// ```
    pub fn enter_guard(&self, key: u64) -> NodeGuard<'_> {
        NodeGuard::apart(self, key, self.enter(key))
    }

    /// How many threads are counted in the node `key`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::NodeCounters;
    ///
    /// let counters = NodeCounters::for_threads(2);
    /// let guards: Vec<_> = (0..3).map(|_| counters.enter_guard(9)).collect();
    /// assert_eq!(counters.nproc(9), 3);
    /// drop(guards);
    /// assert_eq!(counters.nproc(9), 0);
    /// ```
    #[must_use]
    pub fn nproc(&self, key: u64) -> u32 {
        let tag = tag_of(key);
        let count: u64 = self
            .line(key)
            .words
            .iter()
            .map(|word| word.load(LOAD))
            .filter(|&value| count_of(value) > 0 && tag_of(value) == tag)
            .map(count_of)
            .sum();
        // At most eight counts of 16 bits each: the sum fits.
        count as u32
    }

    /// Whether some thread is counted in the node `key` (ABDADA's `nproc > 0`).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::NodeCounters;
    ///
    /// let counters = NodeCounters::for_threads(2);
    /// let _inside = counters.enter_guard(7);
    /// assert!(counters.busy(7));
    /// assert!(!counters.busy(8));
    /// ```
    #[must_use]
    pub fn busy(&self, key: u64) -> bool {
        self.line(key).held(tag_of(key)).is_some()
    }

    /// The sum of all counts: zero whenever no search is running, as every enter is matched by a leave.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::NodeCounters;
    ///
    /// let counters = NodeCounters::for_threads(2);
    /// let guards: Vec<_> = [1u64 << 40, 2 << 40, 2 << 40].iter().map(|&key| counters.enter_guard(key)).collect();
    /// assert_eq!(counters.total(), 3);
    /// drop(guards);
    /// assert_eq!(counters.total(), 0);
    /// ```
    #[must_use]
    pub fn total(&self) -> usize {
        self.lines
            .iter()
            .flat_map(|line| &line.words)
            // A count has 16 bits: the cast is lossless.
            .map(|word| count_of(word.load(LOAD)) as usize)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Barrier;

    #[test]
    fn keys_of_one_line_keep_separate_counts() {
        let counters = NodeCounters::with_lines(4);
        // Same line (low bits), different tags.
        let (a, b) = (1 << 40 | 3, 2 << 40 | 3);
        let _a = counters.enter_guard(a);
        let b_twice = [counters.enter_guard(b), counters.enter_guard(b)];
        assert_eq!((counters.nproc(a), counters.nproc(b)), (1, 2));
        drop(b_twice);
        assert!(counters.busy(a) && !counters.busy(b));
    }

    #[test]
    fn an_uncounted_enter_leaves_nothing_behind() {
        let counters = NodeCounters::with_lines(1);
        let full: Vec<_> = (1..=8u64).map(|node| counters.enter_guard(node << 40)).collect();
        assert!(full.iter().all(NodeGuard::is_counted));
        let ninth = counters.enter_guard(9 << 40);
        assert!(!ninth.is_counted());
        drop(ninth);
        assert_eq!(counters.total(), 8);
        drop(full);
        // A freed word takes another node.
        assert!(counters.enter_guard(9 << 40).is_counted());
        assert_eq!(counters.total(), 0);
    }

    #[test]
    fn a_full_count_refuses_more() {
        let counters = NodeCounters::with_lines(1);
        let word = &counters.line(5).words[0];
        word.store(tag_of(5) | COUNT_MASK, Ordering::Release);
        assert!(!counters.enter(5));
        assert_eq!(counters.nproc(5), COUNT_MASK as u32);
    }

    /// Many threads entering and leaving a few nodes that share lines: every count returns to zero, and a node
    /// entered by a thread is busy for every other thread until it leaves.
    #[test]
    fn many_threads_balance_their_counts() {
        const THREADS: usize = 16;
        // Miri interprets every round about a thousand times slower: fewer rounds, the same threads.
        let rounds: u64 = if cfg!(miri) { 40 } else { 20_000 };
        let counters = NodeCounters::with_lines(2);
        let start = Barrier::new(THREADS);
        std::thread::scope(|scope| {
            for thread in 0..THREADS {
                let (counters, start) = (&counters, &start);
                scope.spawn(move || {
                    start.wait();
                    for round in 0..rounds {
                        let key = ((round + thread as u64) % 5) << 40 | (round % 2);
                        let guard = counters.enter_guard(key);
                        if guard.is_counted() {
                            assert!(counters.busy(key));
                        }
                        drop(guard);
                    }
                });
            }
        });
        assert_eq!(counters.total(), 0);
    }
}
