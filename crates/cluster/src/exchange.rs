//! [`ClusterExchange`]: a rank's side of the table-entry exchange, between its search threads and its
//! communication thread. The search offers what it stores at least the floor deep into a bounded outbox (a full
//! outbox drops the entry: the search never waits); each round takes up to one batch out of it; what other
//! ranks sent waits in a bounded inbox until the main search thread stores it.
//!
//! The floor adapts to what the transport carries: every [`ADAPT_ROUNDS`] rounds it rises by one ply when the
//! batches were nearly full or entries were dropped, and falls by one when they were mostly empty, so the
//! rounds carry the deepest results the link can take.

use crate::owners::BusyOwners;
use crate::wire::{BATCH_BUSY_HINTS, BATCH_ENTRIES, CounterSnapshot};
use crossbeam_queue::ArrayQueue;
use eldest_search::{EntryExchange, TableEntry};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// The floor a rank starts with.
///
/// # Examples
/// ```
/// use eldest_cluster::{ClusterExchange, INITIAL_FLOOR};
/// use eldest_search::EntryExchange;
///
/// assert_eq!(ClusterExchange::new().min_depth(), INITIAL_FLOOR);
/// ```
pub const INITIAL_FLOOR: i32 = 6;
/// The shallowest floor: shallower results are cheaper to search than to receive.
///
/// # Examples
/// ```
/// use eldest_cluster::{ADAPT_ROUNDS, ClusterExchange, MIN_FLOOR};
/// use eldest_search::EntryExchange;
///
/// let exchange = ClusterExchange::new();
/// // However long the rounds stay empty, the floor stops falling here.
/// for _ in 0..100 * ADAPT_ROUNDS {
///     exchange.finish_round(0);
/// }
/// assert_eq!(exchange.min_depth(), MIN_FLOOR);
/// ```
pub const MIN_FLOOR: i32 = 3;
/// The deepest floor.
///
/// # Examples
/// ```
/// use eldest_cluster::{ADAPT_ROUNDS, ClusterExchange, MAX_FLOOR, wire::BATCH_ENTRIES};
/// use eldest_search::EntryExchange;
///
/// let exchange = ClusterExchange::new();
/// for _ in 0..100 * ADAPT_ROUNDS {
///     exchange.finish_round(BATCH_ENTRIES);
/// }
/// assert_eq!(exchange.min_depth(), MAX_FLOOR);
/// ```
pub const MAX_FLOOR: i32 = 40;
/// Rounds between two adjustments of the floor.
///
/// # Examples
/// ```
/// use eldest_cluster::{ADAPT_ROUNDS, ClusterExchange, INITIAL_FLOOR, wire::BATCH_ENTRIES};
/// use eldest_search::EntryExchange;
///
/// let exchange = ClusterExchange::new();
/// for _ in 1..ADAPT_ROUNDS {
///     exchange.finish_round(BATCH_ENTRIES);
/// }
/// assert_eq!(exchange.min_depth(), INITIAL_FLOOR);
/// // The last full round of the window raises the floor by one ply.
/// exchange.finish_round(BATCH_ENTRIES);
/// assert_eq!(exchange.min_depth(), INITIAL_FLOOR + 1);
/// ```
pub const ADAPT_ROUNDS: u64 = 16;
/// Entries the outbox holds: four batches.
const OUTBOX_ENTRIES: usize = 4 * BATCH_ENTRIES;
/// Entries the inbox holds before newer ones are dropped.
const INBOX_ENTRIES: usize = 64 * BATCH_ENTRIES;
/// Busy hints waiting to be sent.
const BUSY_OUTBOX: usize = 4 * BATCH_BUSY_HINTS;
/// Slots of the table of other ranks' busy hints (direct-mapped by the hint's low bits).
const BUSY_SLOTS: usize = 1 << 14;
/// Rounds a busy hint stays valid: the other rank's node is presumed finished after this (a Weill node's hint
/// also ends when its result arrives).
///
/// # Examples
/// ```
/// use eldest_cluster::{BUSY_ROUNDS, ClusterExchange, INITIAL_FLOOR};
/// use eldest_search::EntryExchange;
///
/// let exchange = ClusterExchange::new();
/// exchange.receive_busy([99]);
/// for _ in 0..BUSY_ROUNDS {
///     exchange.finish_round(0);
/// }
/// assert!(exchange.busy_elsewhere(99, INITIAL_FLOOR));
/// // A rank that died or lost the node must not keep the others off it for ever.
/// exchange.finish_round(0);
/// assert!(!exchange.busy_elsewhere(99, INITIAL_FLOOR));
/// ```
pub const BUSY_ROUNDS: u64 = 32;

/// One rank's exchange state, shared by its search threads and its communication thread.
///
/// # Examples
/// ```
/// use eldest_cluster::ClusterExchange;
/// use eldest_search::{EntryExchange, TableEntry};
/// use eldest_tt::{Bound, Record};
///
/// let exchange = ClusterExchange::new();
/// let record = Record { best_move: 0, score: 12, static_eval: None, depth: 9, bound: Bound::EXACT };
/// exchange.offer(TableEntry::new(42, 0, &record));
/// assert_eq!(exchange.take_batch().len(), 1);
/// exchange.receive([TableEntry::new(43, 0, &record)]);
/// let mut stored = Vec::new();
/// exchange.deliver(&mut |entry| stored.push(entry.key));
/// assert_eq!(stored, [43]);
/// ```
#[derive(Debug)]
pub struct ClusterExchange {
    outbox: ArrayQueue<TableEntry>,
    inbox: Mutex<Vec<TableEntry>>,
    floor: AtomicI32,
    offered: AtomicU64,
    dropped: AtomicU64,
    sent: AtomicU64,
    received: AtomicU64,
    stored: AtomicU64,
    rounds: AtomicU64,
    /// Entries sent and drops seen since the floor was last adjusted.
    window: Mutex<(u64, u64)>,
    busy_outbox: ArrayQueue<u64>,
    /// Other ranks' busy hints: the hint, and the round it arrived in.
    busy_hints: Vec<AtomicU64>,
    busy_since: Vec<AtomicU64>,
    busy_sent: AtomicU64,
    busy_received: AtomicU64,
    busy_hits: AtomicU64,
    /// The owner ranks' counters, where the transport has them (`ClusterBusyOwners`).
    owners: OnceLock<BusyOwners>,
    /// The shallowest depth the current search counts at the owners instead of sending hints (0: hints).
    owner_depth: AtomicI32,
    /// Whether a search has already been told the owners are missing.
    owners_missing_told: AtomicBool,
}

impl Default for ClusterExchange {
    fn default() -> Self {
        ClusterExchange::new()
    }
}

impl ClusterExchange {
    /// An empty exchange at the initial floor.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{ClusterExchange, INITIAL_FLOOR};
    ///
    /// let exchange = ClusterExchange::new();
    /// assert!(exchange.take_batch().is_empty() && exchange.take_busy().is_empty());
    /// assert_eq!(exchange.snapshot().floor, INITIAL_FLOOR);
    /// ```
    pub fn new() -> ClusterExchange {
        ClusterExchange {
            outbox: ArrayQueue::new(OUTBOX_ENTRIES),
            inbox: Mutex::new(Vec::new()),
            floor: AtomicI32::new(INITIAL_FLOOR),
            offered: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            sent: AtomicU64::new(0),
            received: AtomicU64::new(0),
            stored: AtomicU64::new(0),
            rounds: AtomicU64::new(0),
            window: Mutex::new((0, 0)),
            busy_outbox: ArrayQueue::new(BUSY_OUTBOX),
            busy_hints: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            busy_since: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            busy_sent: AtomicU64::new(0),
            busy_received: AtomicU64::new(0),
            busy_hits: AtomicU64::new(0),
            owners: OnceLock::new(),
            owner_depth: AtomicI32::new(0),
            owners_missing_told: AtomicBool::new(false),
        }
    }

    /// Gives the exchange the owner ranks' counters, for searches with `ClusterBusyOwners`; a second call is
    /// ignored (the transport has one set).
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{BusyOwners, ClusterExchange, LocalCounters};
    /// use eldest_search::EntryExchange;
    ///
    /// let exchange = ClusterExchange::new();
    /// exchange.set_owners(BusyOwners::new(LocalCounters::group(1).remove(0)));
    /// exchange.use_busy_owners(Some(6));
    /// exchange.offer_busy(0x77, 8);
    /// // Counted at the owner, not sent as a hint.
    /// assert!(exchange.take_busy().is_empty() && exchange.busy_elsewhere(0x77, 8));
    /// exchange.finish_busy(0x77, 8);
    /// assert!(!exchange.busy_elsewhere(0x77, 8));
    /// // Shallower than the owners' depth: neither counted nor asked about.
    /// exchange.offer_busy(0x78, 5);
    /// assert!(!exchange.busy_elsewhere(0x78, 5));
    /// assert_eq!(exchange.owner_requests().map(|(requests, _)| requests), Some(4));
    /// ```
    pub fn set_owners(&self, owners: BusyOwners) {
        let _ = self.owners.set(owners);
    }

    /// Requests sent to owner ranks so far and the nanoseconds spent waiting for them; `None` without owners.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::ClusterExchange;
    /// assert_eq!(ClusterExchange::new().owner_requests(), None);
    /// ```
    pub fn owner_requests(&self) -> Option<(u64, u64)> {
        self.owners
            .get()
            .map(|owners| (owners.operations(), owners.nanoseconds()))
    }

    /// The owners and the shallowest depth counted at them, when the current search counts at owners.
    fn counting_owners(&self) -> Option<(&BusyOwners, i32)> {
        match self.owner_depth.load(Ordering::Relaxed) {
            0 => None,
            depth => Some((self.owners.get()?, depth)),
        }
    }

    /// Up to one batch of the busy hints this rank offered, oldest first.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{ClusterExchange, INITIAL_FLOOR, wire::BATCH_BUSY_HINTS};
    /// use eldest_search::EntryExchange;
    ///
    /// let exchange = ClusterExchange::new();
    /// (1..=200).for_each(|hint| exchange.offer_busy(hint, INITIAL_FLOOR));
    /// let first = exchange.take_busy();
    /// assert_eq!((first.len(), first[0]), (BATCH_BUSY_HINTS, 1));
    /// assert_eq!(exchange.take_busy().len(), 200 - BATCH_BUSY_HINTS);
    /// assert_eq!(exchange.snapshot().busy_sent, 200);
    /// ```
    pub fn take_busy(&self) -> Vec<u64> {
        let hints: Vec<u64> = std::iter::from_fn(|| self.busy_outbox.pop())
            .take(BATCH_BUSY_HINTS)
            .collect();
        self.busy_sent.fetch_add(hints.len() as u64, Ordering::Relaxed);
        hints
    }

    /// Busy hints other ranks sent: each holds for [`BUSY_ROUNDS`] rounds.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{ClusterExchange, INITIAL_FLOOR};
    /// use eldest_search::EntryExchange;
    ///
    /// let exchange = ClusterExchange::new();
    /// exchange.receive_busy([8, 9]);
    /// assert!(exchange.busy_elsewhere(8, INITIAL_FLOOR) && exchange.busy_elsewhere(9, INITIAL_FLOOR));
    /// assert!(!exchange.busy_elsewhere(10, INITIAL_FLOOR));
    /// assert_eq!(exchange.snapshot().busy_received, 2);
    /// ```
    pub fn receive_busy(&self, hints: impl IntoIterator<Item = u64>) {
        let round = self.rounds.load(Ordering::Relaxed);
        for hint in hints {
            self.busy_received.fetch_add(1, Ordering::Relaxed);
            let slot = busy_slot(hint);
            self.busy_hints[slot].store(hint, Ordering::Relaxed);
            self.busy_since[slot].store(round, Ordering::Relaxed);
        }
    }

    /// Up to one batch of the oldest offered entries, for the next round.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{ClusterExchange, wire::BATCH_ENTRIES};
    /// use eldest_search::{EntryExchange, TableEntry};
    /// use eldest_tt::{Bound, Record};
    ///
    /// let exchange = ClusterExchange::new();
    /// let record = Record { best_move: 0, score: 0, static_eval: None, depth: 8, bound: Bound::EXACT };
    /// (0..300).for_each(|key| exchange.offer(TableEntry::new(key, 0, &record)));
    /// let first = exchange.take_batch();
    /// assert_eq!((first.len(), first[0].key), (BATCH_ENTRIES, 0));
    /// assert_eq!(exchange.take_batch()[0].key, BATCH_ENTRIES as u64);
    /// ```
    pub fn take_batch(&self) -> Vec<TableEntry> {
        let batch: Vec<TableEntry> = std::iter::from_fn(|| self.outbox.pop())
            .take(BATCH_ENTRIES)
            .collect();
        self.sent.fetch_add(batch.len() as u64, Ordering::Relaxed);
        batch
    }

    /// Entries other ranks sent, to be stored by the search; beyond the inbox's capacity they are dropped.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::ClusterExchange;
    /// use eldest_search::{EntryExchange, TableEntry};
    /// use eldest_tt::{Bound, Record};
    ///
    /// let exchange = ClusterExchange::new();
    /// let record = Record { best_move: 0, score: 40, static_eval: None, depth: 12, bound: Bound::LOWER };
    /// exchange.receive([TableEntry::new(5, 0, &record), TableEntry::new(6, 0, &record)]);
    /// let mut stored = Vec::new();
    /// exchange.deliver(&mut |entry| stored.push(entry.key));
    /// assert_eq!(stored, [5, 6]);
    /// assert_eq!((exchange.snapshot().received, exchange.snapshot().stored), (2, 2));
    /// ```
    pub fn receive(&self, entries: impl IntoIterator<Item = TableEntry>) {
        let mut inbox = self.inbox.lock().unwrap_or_else(|e| e.into_inner());
        for entry in entries {
            self.received.fetch_add(1, Ordering::Relaxed);
            // The result of a node another rank announced: it is no longer being searched there.
            let _ = self.busy_hints[busy_slot(entry.key)].compare_exchange(
                entry.key,
                0,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
            if inbox.len() < INBOX_ENTRIES {
                inbox.push(entry);
            }
        }
    }

    /// Counts a completed round that sent `sent` entries of ours, and adjusts the floor every
    /// [`ADAPT_ROUNDS`] rounds.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{ADAPT_ROUNDS, ClusterExchange, INITIAL_FLOOR};
    ///
    /// let exchange = ClusterExchange::new();
    /// for _ in 0..ADAPT_ROUNDS {
    ///     exchange.finish_round(10);
    /// }
    /// // Mostly empty rounds: deep entries are rare, so shallower ones are sent too.
    /// assert_eq!(exchange.snapshot().rounds, ADAPT_ROUNDS);
    /// assert_eq!(exchange.snapshot().floor, INITIAL_FLOOR - 1);
    /// ```
    pub fn finish_round(&self, sent: usize) {
        let rounds = self.rounds.fetch_add(1, Ordering::Relaxed) + 1;
        let mut window = self.window.lock().unwrap_or_else(|e| e.into_inner());
        window.0 += sent as u64;
        if rounds.is_multiple_of(ADAPT_ROUNDS) {
            let dropped = self.dropped.load(Ordering::Relaxed);
            let fill = window.0 as f64 / (ADAPT_ROUNDS as f64 * BATCH_ENTRIES as f64);
            let floor = self.floor.load(Ordering::Relaxed);
            let next = if dropped > window.1 || fill > 0.9 {
                floor + 1
            } else if fill < 0.25 {
                floor - 1
            } else {
                floor
            };
            self.floor
                .store(next.clamp(MIN_FLOOR, MAX_FLOOR), Ordering::Relaxed);
            *window = (0, dropped);
        }
    }

    /// The counters now.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{ClusterExchange, wire::BATCH_ENTRIES};
    /// use eldest_search::{EntryExchange, TableEntry};
    /// use eldest_tt::{Bound, Record};
    ///
    /// let exchange = ClusterExchange::new();
    /// let record = Record { best_move: 0, score: 0, static_eval: None, depth: 8, bound: Bound::EXACT };
    /// // The outbox holds four batches; the search never waits, it drops the rest.
    /// (0..1100).for_each(|key| exchange.offer(TableEntry::new(key, 0, &record)));
    /// let counters = exchange.snapshot();
    /// assert_eq!((counters.offered, counters.dropped), (1100, 1100 - 4 * BATCH_ENTRIES as u64));
    /// ```
    pub fn snapshot(&self) -> CounterSnapshot {
        CounterSnapshot {
            offered: self.offered.load(Ordering::Relaxed),
            dropped: self.dropped.load(Ordering::Relaxed),
            sent: self.sent.load(Ordering::Relaxed),
            received: self.received.load(Ordering::Relaxed),
            stored: self.stored.load(Ordering::Relaxed),
            rounds: self.rounds.load(Ordering::Relaxed),
            busy_sent: self.busy_sent.load(Ordering::Relaxed),
            busy_received: self.busy_received.load(Ordering::Relaxed),
            busy_hits: self.busy_hits.load(Ordering::Relaxed),
            floor: self.floor.load(Ordering::Relaxed),
        }
    }
}

impl EntryExchange for ClusterExchange {
    fn min_depth(&self) -> i32 {
        self.floor.load(Ordering::Relaxed)
    }

    fn offer(&self, entry: TableEntry) {
        self.offered.fetch_add(1, Ordering::Relaxed);
        if self.outbox.push(entry).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn deliver(&self, store: &mut dyn FnMut(TableEntry)) {
        let entries = std::mem::take(&mut *self.inbox.lock().unwrap_or_else(|e| e.into_inner()));
        self.stored.fetch_add(entries.len() as u64, Ordering::Relaxed);
        entries.into_iter().for_each(store);
    }

    fn offer_busy(&self, busy: u64, depth: i32) {
        if let Some((owners, from_depth)) = self.counting_owners() {
            if depth >= from_depth {
                owners.enter(busy);
            }
        } else if depth >= self.min_depth() {
            // A hint that does not fit is simply not sent: the other ranks then search the node too.
            let _ = self.busy_outbox.push(busy);
        }
    }

    fn finish_busy(&self, busy: u64, depth: i32) {
        if let Some((owners, from_depth)) = self.counting_owners()
            && depth >= from_depth
        {
            owners.leave(busy);
        }
    }

    fn busy_elsewhere(&self, busy: u64, depth: i32) -> bool {
        let found = if let Some((owners, from_depth)) = self.counting_owners() {
            depth >= from_depth && owners.busy(busy)
        } else {
            let slot = busy_slot(busy);
            busy != 0
                && self.busy_hints[slot].load(Ordering::Relaxed) == busy
                && self
                    .rounds
                    .load(Ordering::Relaxed)
                    .saturating_sub(self.busy_since[slot].load(Ordering::Relaxed))
                    <= BUSY_ROUNDS
        };
        if found {
            self.busy_hits.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    fn use_busy_owners(&self, from_depth: Option<i32>) {
        let available = self.owners.get().is_some();
        if from_depth.is_some() && !available && !self.owners_missing_told.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                "ClusterBusyOwners: this transport has no owner counters (MPI without MPI_THREAD_MULTIPLE, or \
                 no one-sided window); the busy information travels as hints"
            );
        }
        let depth = from_depth.filter(|_| available).map_or(0, |depth| depth.max(1));
        self.owner_depth.store(depth, Ordering::Relaxed);
    }
}

fn busy_slot(hint: u64) -> usize {
    (hint as usize) & (BUSY_SLOTS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use eldest_tt::{Bound, Record};

    fn entry(key: u64) -> TableEntry {
        let record = Record {
            best_move: 0,
            score: 0,
            static_eval: None,
            depth: 8,
            bound: Bound::EXACT,
        };
        TableEntry::new(key, 0, &record)
    }

    #[test]
    fn a_full_outbox_drops_instead_of_waiting() {
        let exchange = ClusterExchange::new();
        for key in 0..(OUTBOX_ENTRIES as u64 + 10) {
            exchange.offer(entry(key));
        }
        let counters = exchange.snapshot();
        assert_eq!(
            (counters.offered, counters.dropped),
            (OUTBOX_ENTRIES as u64 + 10, 10)
        );
        assert_eq!(exchange.take_batch().len(), BATCH_ENTRIES);
        assert_eq!(exchange.take_batch()[0].key, BATCH_ENTRIES as u64);
    }

    #[test]
    fn the_floor_rises_when_batches_are_full_and_falls_when_they_are_empty() {
        let exchange = ClusterExchange::new();
        for _ in 0..ADAPT_ROUNDS {
            exchange.finish_round(BATCH_ENTRIES);
        }
        assert_eq!(exchange.min_depth(), INITIAL_FLOOR + 1);
        for _ in 0..ADAPT_ROUNDS * 20 {
            exchange.finish_round(0);
        }
        assert_eq!(exchange.min_depth(), MIN_FLOOR);
        for _ in 0..ADAPT_ROUNDS * 100 {
            exchange.finish_round(BATCH_ENTRIES);
        }
        assert_eq!(exchange.min_depth(), MAX_FLOOR);
    }

    #[test]
    fn busy_hints_hold_until_their_result_arrives_or_they_expire() {
        let exchange = ClusterExchange::new();
        exchange.offer_busy(77, INITIAL_FLOOR);
        assert_eq!(exchange.take_busy(), [77]);
        exchange.receive_busy([8, 9]);
        assert!(exchange.busy_elsewhere(8, INITIAL_FLOOR) && exchange.busy_elsewhere(9, INITIAL_FLOOR));
        assert!(!exchange.busy_elsewhere(10, INITIAL_FLOOR));
        // Node 8's result arrives: it is no longer searched there.
        exchange.receive([entry(8)]);
        assert!(!exchange.busy_elsewhere(8, INITIAL_FLOOR));
        for _ in 0..=BUSY_ROUNDS {
            exchange.finish_round(0);
        }
        assert!(!exchange.busy_elsewhere(9, INITIAL_FLOOR), "expired");
        let counters = exchange.snapshot();
        assert_eq!(
            (counters.busy_sent, counters.busy_received, counters.busy_hits),
            (1, 2, 2)
        );
    }

    #[test]
    fn the_inbox_is_bounded_and_emptied_by_delivery() {
        let exchange = ClusterExchange::new();
        exchange.receive((0..INBOX_ENTRIES as u64 + 5).map(entry));
        let mut stored = 0;
        exchange.deliver(&mut |_| stored += 1);
        assert_eq!(stored, INBOX_ENTRIES);
        exchange.deliver(&mut |_| stored += 1);
        assert_eq!(stored, INBOX_ENTRIES);
        assert_eq!(exchange.snapshot().received, INBOX_ENTRIES as u64 + 5);
    }
}
