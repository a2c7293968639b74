//! Weill's distributed table as an experiment (`ClusterBusyOwners`): the number of searchers of each deep node
//! (Weill's ABDADA) or move (Kerrigan's) is kept by one owner rank, chosen by the key, in a slice of counters
//! the other ranks reach without the owner's help (MPI one-sided atomics under the `mpi` feature, shared
//! atomics for ranks that are threads of one process). Entering adds one at the owner, leaving takes it back,
//! and a thread about to search a younger brother asks the owner whether anyone is inside: Weill's `retrieveAsk`
//! for the `nproc` field, one round trip each, where the busy hints broadcast what each rank searches a round
//! late.
//!
//! The counts carry no key: two keys that meet in one slot share a count, so one may be deferred while only the
//! other is searched (a deferral searches the move later, never skips it). With [`OWNER_SLOTS`] slots a rank and
//! a few dozen deep nodes open per thread such meetings are rare. Every enter is paired with one leave of the
//! same key and depth (the search's guards), so the counts return to zero when a search ends.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Instant;

/// Counters each rank keeps for the others (a power of two).
///
/// # Examples
/// ```
/// assert!(eldest_cluster::OWNER_SLOTS.is_power_of_two());
/// ```
pub const OWNER_SLOTS: usize = 1 << 16;

/// Counters spread over the ranks, one slice of [`OWNER_SLOTS`] per rank, that any thread of any rank may add
/// to atomically.
///
/// # Examples
/// ```
/// use eldest_cluster::{LocalCounters, RemoteCounters};
///
/// let mut ranks = LocalCounters::group(2);
/// let (first, second) = (ranks.remove(0), ranks.remove(0));
/// assert_eq!(first.fetch_add(1, 5, 1), 0);
/// // The second rank sees what the first added to its slice.
/// assert_eq!(second.fetch_add(1, 5, 0), 1);
/// ```
pub trait RemoteCounters: Send + Sync + fmt::Debug {
    /// The number of ranks.
    fn ranks(&self) -> usize;
    /// Adds `delta` to counter `slot` of rank `owner` and returns its value before, atomically with every other
    /// rank's additions.
    fn fetch_add(&self, owner: usize, slot: usize, delta: i64) -> i64;
}

/// The counters of a group of ranks that are threads of one process (with [`LocalTransport`]'s groups).
///
/// [`LocalTransport`]: crate::LocalTransport
///
/// # Examples
/// ```
/// use eldest_cluster::{LocalCounters, RemoteCounters};
///
/// let ranks = LocalCounters::group(3);
/// assert!(ranks.iter().all(|rank| rank.ranks() == 3));
/// ```
#[derive(Clone)]
pub struct LocalCounters {
    ranks: usize,
    counts: Arc<[AtomicI64]>,
    additions: Arc<AtomicU64>,
}

impl fmt::Debug for LocalCounters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalCounters")
            .field("ranks", &self.ranks)
            .finish_non_exhaustive()
    }
}

impl LocalCounters {
    /// One handle per rank of a group of `ranks`, all on the same counters.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::LocalCounters;
    /// assert_eq!(LocalCounters::group(4).len(), 4);
    /// ```
    pub fn group(ranks: usize) -> Vec<LocalCounters> {
        let counts: Arc<[AtomicI64]> = (0..ranks * OWNER_SLOTS).map(|_| AtomicI64::new(0)).collect();
        let additions = Arc::new(AtomicU64::new(0));
        (0..ranks)
            .map(|_| LocalCounters {
                ranks,
                counts: Arc::clone(&counts),
                additions: Arc::clone(&additions),
            })
            .collect()
    }

    /// The additions every rank of the group made so far (asking counts as adding zero).
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{LocalCounters, RemoteCounters};
    /// let ranks = LocalCounters::group(2);
    /// ranks[1].fetch_add(0, 3, 1);
    /// assert_eq!(ranks[0].additions(), 1);
    /// ```
    pub fn additions(&self) -> u64 {
        self.additions.load(Ordering::Relaxed)
    }

    /// The sum of every rank's counters: 0 when every searcher that entered has left.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{LocalCounters, RemoteCounters};
    /// let ranks = LocalCounters::group(2);
    /// ranks[0].fetch_add(1, 3, 1);
    /// assert_eq!(ranks[1].open_searchers(), 1);
    /// ranks[1].fetch_add(1, 3, -1);
    /// assert_eq!(ranks[0].open_searchers(), 0);
    /// ```
    pub fn open_searchers(&self) -> i64 {
        self.counts
            .iter()
            .map(|count| count.load(Ordering::Relaxed))
            .sum()
    }
}

impl RemoteCounters for LocalCounters {
    fn ranks(&self) -> usize {
        self.ranks
    }

    fn fetch_add(&self, owner: usize, slot: usize, delta: i64) -> i64 {
        self.additions.fetch_add(1, Ordering::Relaxed);
        self.counts[owner * OWNER_SLOTS + slot].fetch_add(delta, Ordering::Relaxed)
    }
}

/// The searchers of nodes or moves, counted at their owner ranks, with what asking cost.
///
/// # Examples
/// ```
/// use eldest_cluster::{BusyOwners, LocalCounters};
///
/// let mut ranks = LocalCounters::group(2);
/// let (first, second) = (BusyOwners::new(ranks.remove(0)), BusyOwners::new(ranks.remove(0)));
/// first.enter(0xabcdef);
/// assert!(second.busy(0xabcdef));
/// first.leave(0xabcdef);
/// assert!(!second.busy(0xabcdef));
/// assert_eq!(first.operations() + second.operations(), 4);
/// ```
#[derive(Debug)]
pub struct BusyOwners {
    counters: Box<dyn RemoteCounters>,
    operations: AtomicU64,
    nanoseconds: AtomicU64,
}

impl BusyOwners {
    /// Counts over `counters`.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{BusyOwners, LocalCounters};
    /// let owners = BusyOwners::new(LocalCounters::group(1).remove(0));
    /// assert_eq!(owners.operations(), 0);
    /// ```
    pub fn new(counters: impl RemoteCounters + 'static) -> BusyOwners {
        BusyOwners {
            counters: Box::new(counters),
            operations: AtomicU64::new(0),
            nanoseconds: AtomicU64::new(0),
        }
    }

    /// One more searcher of `key`.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{BusyOwners, LocalCounters};
    /// let owners = BusyOwners::new(LocalCounters::group(1).remove(0));
    /// owners.enter(7);
    /// owners.enter(7);
    /// owners.leave(7);
    /// assert!(owners.busy(7), "one searcher left");
    /// ```
    pub fn enter(&self, key: u64) {
        self.add(key, 1);
    }

    /// One searcher of `key` fewer.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{BusyOwners, LocalCounters};
    /// let owners = BusyOwners::new(LocalCounters::group(1).remove(0));
    /// owners.enter(7);
    /// owners.leave(7);
    /// assert!(!owners.busy(7));
    /// ```
    pub fn leave(&self, key: u64) {
        self.add(key, -1);
    }

    /// Whether anyone, on any rank, is searching `key` (or a key sharing its slot).
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{BusyOwners, LocalCounters};
    /// let owners = BusyOwners::new(LocalCounters::group(3).remove(2));
    /// assert!(!owners.busy(0x1234_5678_9abc_def0));
    /// ```
    pub fn busy(&self, key: u64) -> bool {
        self.add(key, 0) > 0
    }

    /// Requests sent to owners so far.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{BusyOwners, LocalCounters};
    /// let owners = BusyOwners::new(LocalCounters::group(1).remove(0));
    /// owners.busy(3);
    /// assert_eq!(owners.operations(), 1);
    /// ```
    pub fn operations(&self) -> u64 {
        self.operations.load(Ordering::Relaxed)
    }

    /// Time spent waiting for owners so far, in nanoseconds (every request is a round trip).
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{BusyOwners, LocalCounters};
    /// let owners = BusyOwners::new(LocalCounters::group(1).remove(0));
    /// owners.enter(3);
    /// owners.leave(3);
    /// assert!(owners.nanoseconds() < 1_000_000_000);
    /// ```
    pub fn nanoseconds(&self) -> u64 {
        self.nanoseconds.load(Ordering::Relaxed)
    }

    /// The owner rank and slot of `key`: the owner from the key's high bits, the slot from its low bits, so that
    /// the keys one owner receives still spread over all of its slots.
    fn place(&self, key: u64) -> (usize, usize) {
        let owner = (((key >> 32) * self.counters.ranks() as u64) >> 32) as usize;
        (owner, key as usize & (OWNER_SLOTS - 1))
    }

    fn add(&self, key: u64, delta: i64) -> i64 {
        let (owner, slot) = self.place(key);
        let started = Instant::now();
        let before = self.counters.fetch_add(owner, slot, delta);
        self.operations.fetch_add(1, Ordering::Relaxed);
        self.nanoseconds
            .fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
        before + delta
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_spread_over_every_owner_and_stay_in_range() {
        let owners = BusyOwners::new(LocalCounters::group(3).remove(0));
        let mut seen = [0usize; 3];
        let mut key = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..3000 {
            key = key
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (owner, slot) = owners.place(key);
            assert!(slot < OWNER_SLOTS);
            seen[owner] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }

    #[test]
    fn many_threads_entering_and_leaving_leave_every_count_at_zero() {
        let ranks: Vec<Arc<BusyOwners>> = LocalCounters::group(2)
            .into_iter()
            .map(|counters| Arc::new(BusyOwners::new(counters)))
            .collect();
        std::thread::scope(|scope| {
            for thread in 0..8u64 {
                let owners = Arc::clone(&ranks[thread as usize % 2]);
                scope.spawn(move || {
                    for i in 0..2000u64 {
                        let key = (i % 37).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ thread;
                        owners.enter(key);
                        assert!(owners.busy(key), "its own count is seen");
                        owners.leave(key);
                    }
                });
            }
        });
        for i in 0..37u64 {
            for thread in 0..8u64 {
                assert!(!ranks[0].busy((i).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ thread));
            }
        }
    }
}
