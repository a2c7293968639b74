//! Transposition-table entries shared with other processes: the hook through which a cluster build (MPI ranks,
//! each with its own table) offers the deep results its threads store and stores the results other processes
//! found. The search knows nothing of the transport; it calls an [`EntryExchange`] when one is set with
//! [`Engine::set_entry_exchange`](crate::Engine::set_entry_exchange), and nothing at all otherwise.
//!
//! An entry travels as 16 bytes ([`TableEntry::to_bytes`]): the full key, the move, the score in the table's
//! node-relative form (so a mate distance means the same at any ply), the static evaluation, the depth and the
//! bound. Bytes from outside are checked by [`TableEntry::from_bytes`]: a corrupt entry is refused, never
//! stored.

use eldest_tt::{Bound, MATE, MAX_DEPTH, MIN_DEPTH, Record, score_to_tt};
use std::fmt;

/// The bytes of one [`TableEntry`] on the wire.
///
/// # Examples
///
/// ```
/// use eldest_search::{TABLE_ENTRY_BYTES, TableEntry};
/// use eldest_tt::{Bound, Record};
///
/// let record = Record { best_move: 1, score: 0, static_eval: None, depth: 1, bound: Bound::EXACT };
/// assert_eq!(TableEntry::new(7, 0, &record).to_bytes().len(), TABLE_ENTRY_BYTES);
/// // A message of any other length is not an entry.
/// assert_eq!(TableEntry::from_bytes(&[0; TABLE_ENTRY_BYTES + 1]), None);
/// ```
pub const TABLE_ENTRY_BYTES: usize = 16;

/// `static_eval` of an entry without one.
const NO_EVAL: i16 = i16::MIN;

/// One stored search result, independent of the ply it was found at.
///
/// ```
/// use eldest_search::TableEntry;
/// use eldest_tt::{Bound, MATE, Record};
///
/// // A mate in 3 plies found 5 plies below the root: stored as mate in 3 from the node itself.
/// let record = Record { best_move: 0x1234, score: MATE - 8, static_eval: Some(12), depth: 9, bound: Bound::LOWER };
/// let entry = TableEntry::new(0xfeed_beef, 5, &record);
/// assert_eq!(entry.record().score, MATE - 3);
/// assert_eq!(TableEntry::from_bytes(&entry.to_bytes()), Some(entry));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TableEntry {
    /// The position's full Zobrist key.
    pub key: u64,
    /// The best move's bits, 0 for none.
    pub best_move: u16,
    /// The score, node-relative (the table's form).
    pub score: i16,
    /// The static evaluation, or `None`.
    pub static_eval: Option<i16>,
    /// The remaining depth of the search that found the score.
    pub depth: i8,
    /// What the score proves.
    pub bound: Bound,
}

impl TableEntry {
    /// The entry of `record`, stored by a node `ply` plies below the root (the score is made node-relative).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::TableEntry;
    /// use eldest_tt::{Bound, MATE, Record};
    ///
    /// // Mated 10 plies from the root, found 4 plies down: 6 plies from the node, wherever it is met again.
    /// let mated = Record { best_move: 0, score: 10 - MATE, static_eval: None, depth: 7, bound: Bound::UPPER };
    /// assert_eq!(TableEntry::new(5, 4, &mated).record().score, 6 - MATE);
    /// // Ordinary scores do not depend on the ply.
    /// let level = Record { score: 25, ..mated };
    /// assert_eq!(TableEntry::new(5, 4, &level).record().score, 25);
    /// ```
    pub fn new(key: u64, ply: usize, record: &Record) -> TableEntry {
        let clamp_i16 = |value: i32| value.clamp(i32::from(i16::MIN) + 1, i32::from(i16::MAX)) as i16;
        TableEntry {
            key,
            best_move: record.best_move,
            score: clamp_i16(score_to_tt(record.score, ply).clamp(-MATE, MATE)),
            static_eval: record.static_eval.map(clamp_i16),
            depth: record.depth.clamp(MIN_DEPTH, MAX_DEPTH).clamp(-128, 127) as i8,
            bound: record.bound,
        }
    }

    /// The record to store: with ply 0, since the score is already node-relative.
    ///
    /// ```
    /// use eldest_search::TableEntry;
    /// use eldest_tt::{Bound, Record};
    /// let record = Record { best_move: 7, score: 31, static_eval: None, depth: 12, bound: Bound::EXACT };
    /// assert_eq!(TableEntry::new(1, 3, &record).record(), record);
    /// ```
    pub fn record(&self) -> Record {
        Record {
            best_move: self.best_move,
            score: i32::from(self.score),
            static_eval: self.static_eval.map(i32::from),
            depth: i32::from(self.depth),
            bound: self.bound,
        }
    }

    /// The 16 bytes of the entry, little-endian.
    ///
    /// ```
    /// use eldest_search::{TABLE_ENTRY_BYTES, TableEntry};
    /// use eldest_tt::{Bound, Record};
    /// let record = Record { best_move: 7, score: -31, static_eval: Some(-5), depth: 4, bound: Bound::UPPER };
    /// let bytes: [u8; TABLE_ENTRY_BYTES] = TableEntry::new(99, 0, &record).to_bytes();
    /// assert_eq!(&bytes[..8], &99u64.to_le_bytes());
    /// ```
    pub fn to_bytes(&self) -> [u8; TABLE_ENTRY_BYTES] {
        let mut bytes = [0; TABLE_ENTRY_BYTES];
        bytes[..8].copy_from_slice(&self.key.to_le_bytes());
        bytes[8..10].copy_from_slice(&self.best_move.to_le_bytes());
        bytes[10..12].copy_from_slice(&self.score.to_le_bytes());
        bytes[12..14].copy_from_slice(&self.static_eval.unwrap_or(NO_EVAL).to_le_bytes());
        bytes[14] = self.depth as u8;
        bytes[15] = self.bound.bits();
        bytes
    }

    /// An entry from its bytes, or `None` when they cannot be one: a score beyond a mate, a depth the table
    /// cannot hold, an empty or unknown bound.
    ///
    /// ```
    /// use eldest_search::TableEntry;
    /// assert_eq!(TableEntry::from_bytes(&[0xff; 16]), None);
    /// assert_eq!(TableEntry::from_bytes(&[0; 3]), None);
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Option<TableEntry> {
        let bytes: &[u8; TABLE_ENTRY_BYTES] = bytes.try_into().ok()?;
        let score = i16::from_le_bytes([bytes[10], bytes[11]]);
        let static_eval = i16::from_le_bytes([bytes[12], bytes[13]]);
        let depth = bytes[14] as i8;
        let bound = Bound::from_bits(bytes[15]).filter(|bound| !bound.is_empty())?;
        if i32::from(score).abs() > MATE || !(MIN_DEPTH..=MAX_DEPTH).contains(&i32::from(depth)) {
            return None;
        }
        let mut key = [0; 8];
        key.copy_from_slice(&bytes[..8]);
        Some(TableEntry {
            key: u64::from_le_bytes(key),
            best_move: u16::from_le_bytes([bytes[8], bytes[9]]),
            score,
            static_eval: (static_eval != NO_EVAL).then_some(static_eval),
            depth,
            bound,
        })
    }
}

/// Where the search sends the results it stores and finds the results other processes stored.
///
/// Every search thread calls [`offer`](EntryExchange::offer) after it writes a result at least
/// [`min_depth`](EntryExchange::min_depth) deep into its table; the main thread calls
/// [`deliver`](EntryExchange::deliver) every few thousand nodes and stores what it is given. Both are called
/// from the search's hot path: they must not block.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use eldest_search::{EntryExchange, TableEntry};
///
/// /// Keeps what is offered and hands it back: a loop through one process.
/// #[derive(Debug, Default)]
/// struct Loopback(Mutex<Vec<TableEntry>>);
/// impl EntryExchange for Loopback {
///     fn min_depth(&self) -> i32 { 6 }
///     fn offer(&self, entry: TableEntry) { self.0.lock().unwrap().push(entry) }
///     fn deliver(&self, store: &mut dyn FnMut(TableEntry)) {
///         self.0.lock().unwrap().drain(..).for_each(store)
///     }
/// }
/// let exchange: Arc<dyn EntryExchange> = Arc::new(Loopback::default());
/// let mut engine = eldest_search::Engine::new(1)?;
/// engine.set_entry_exchange(Some(exchange));
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
pub trait EntryExchange: Send + Sync + fmt::Debug {
    /// The shallowest result worth sending now (the transport may raise it when it cannot keep up).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::atomic::{AtomicI32, Ordering};
    /// use eldest_search::{EntryExchange, TableEntry};
    ///
    /// /// Asks for deeper results while its send queue is long.
    /// #[derive(Debug)]
    /// struct Throttled(AtomicI32);
    /// impl EntryExchange for Throttled {
    ///     fn min_depth(&self) -> i32 { 6 + self.0.load(Ordering::Relaxed) / 1000 }
    ///     fn offer(&self, _: TableEntry) { self.0.fetch_add(1, Ordering::Relaxed); }
    ///     fn deliver(&self, _: &mut dyn FnMut(TableEntry)) {}
    /// }
    /// assert_eq!(Throttled(AtomicI32::new(0)).min_depth(), 6);
    /// assert_eq!(Throttled(AtomicI32::new(2500)).min_depth(), 8);
    /// ```
    fn min_depth(&self) -> i32;
    /// A result this process just stored.
    ///
    /// # Examples
    ///
    /// With the `Loopback` of [`EntryExchange`]'s example, which hands back what it was offered:
    ///
    /// ```
    /// # use std::sync::Mutex;
    /// # use eldest_search::{EntryExchange, TableEntry};
    /// # use eldest_tt::{Bound, Record};
    /// # #[derive(Debug, Default)]
    /// # struct Loopback(Mutex<Vec<TableEntry>>);
    /// # impl EntryExchange for Loopback {
    /// #     fn min_depth(&self) -> i32 { 6 }
    /// #     fn offer(&self, entry: TableEntry) { self.0.lock().unwrap().push(entry) }
    /// #     fn deliver(&self, store: &mut dyn FnMut(TableEntry)) {
    /// #         self.0.lock().unwrap().drain(..).for_each(store)
    /// #     }
    /// # }
    /// let loopback = Loopback::default();
    /// let record = Record { best_move: 9, score: 40, static_eval: Some(35), depth: 8, bound: Bound::LOWER };
    /// loopback.offer(TableEntry::new(0xabc, 2, &record));
    /// // Offering must not block the search: the entry is only queued.
    /// assert_eq!(loopback.0.lock().unwrap().len(), 1);
    /// ```
    fn offer(&self, entry: TableEntry);
    /// Hands every result received since the last call to `store`.
    ///
    /// # Examples
    ///
    /// With the `Loopback` of [`EntryExchange`]'s example, which hands back what it was offered:
    ///
    /// ```
    /// # use std::sync::Mutex;
    /// # use eldest_search::{EntryExchange, TableEntry};
    /// # use eldest_tt::{Bound, Record};
    /// # #[derive(Debug, Default)]
    /// # struct Loopback(Mutex<Vec<TableEntry>>);
    /// # impl EntryExchange for Loopback {
    /// #     fn min_depth(&self) -> i32 { 6 }
    /// #     fn offer(&self, entry: TableEntry) { self.0.lock().unwrap().push(entry) }
    /// #     fn deliver(&self, store: &mut dyn FnMut(TableEntry)) {
    /// #         self.0.lock().unwrap().drain(..).for_each(store)
    /// #     }
    /// # }
    /// let loopback = Loopback::default();
    /// let record = Record { best_move: 9, score: 40, static_eval: None, depth: 8, bound: Bound::EXACT };
    /// loopback.offer(TableEntry::new(0xabc, 0, &record));
    /// let mut stored = Vec::new();
    /// loopback.deliver(&mut |entry| stored.push(entry.record()));
    /// assert_eq!(stored, [record]);
    /// // Each result is handed over once.
    /// loopback.deliver(&mut |_| unreachable!());
    /// ```
    fn deliver(&self, store: &mut dyn FnMut(TableEntry));

    /// Both ABDADAs: a thread of this process starts searching `busy` — a node's key (Weill; `depth` its remaining
    /// depth) or a move's hash (Kerrigan; `depth` the depth of the node it is played in). The exchange decides
    /// from `depth` whether to tell the other processes (a hint at least [`min_depth`](EntryExchange::min_depth)
    /// deep) or to count it at the owner (`ClusterBusyOwners`). The default tells nobody.
    ///
    /// # Examples
    ///
    /// With the `Loopback` of [`EntryExchange`]'s example, which keeps the defaults:
    ///
    /// ```
    /// # use std::sync::Mutex;
    /// # use eldest_search::{EntryExchange, TableEntry};
    /// # use eldest_tt::{Bound, Record};
    /// # #[derive(Debug, Default)]
    /// # struct Loopback(Mutex<Vec<TableEntry>>);
    /// # impl EntryExchange for Loopback {
    /// #     fn min_depth(&self) -> i32 { 6 }
    /// #     fn offer(&self, entry: TableEntry) { self.0.lock().unwrap().push(entry) }
    /// #     fn deliver(&self, store: &mut dyn FnMut(TableEntry)) {
    /// #         self.0.lock().unwrap().drain(..).for_each(store)
    /// #     }
    /// # }
    /// let loopback = Loopback::default();
    /// loopback.offer_busy(0xfeed, 8);
    /// // The default announces nothing, so nothing comes back as busy either.
    /// assert!(!loopback.busy_elsewhere(0xfeed, 8));
    /// ```
    fn offer_busy(&self, _busy: u64, _depth: i32) {}

    /// Both ABDADAs: the thread that offered `busy` at `depth` has finished it (every [`offer_busy`] is followed
    /// by one `finish_busy` with the same arguments, on every way out of the node or move). An exchange that
    /// counts searchers (`ClusterBusyOwners`) counts it out; hints simply expire. The default does nothing.
    ///
    /// [`offer_busy`]: EntryExchange::offer_busy
    ///
    /// # Examples
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use std::sync::Mutex;
    /// use eldest_search::{EntryExchange, TableEntry};
    ///
    /// /// Counts the searchers of each node, as an owner rank does.
    /// #[derive(Debug, Default)]
    /// struct Counts(Mutex<HashMap<u64, i32>>);
    /// impl EntryExchange for Counts {
    ///     fn min_depth(&self) -> i32 { 6 }
    ///     fn offer(&self, _: TableEntry) {}
    ///     fn deliver(&self, _: &mut dyn FnMut(TableEntry)) {}
    ///     fn offer_busy(&self, busy: u64, _: i32) { *self.0.lock().unwrap().entry(busy).or_default() += 1 }
    ///     fn finish_busy(&self, busy: u64, _: i32) { *self.0.lock().unwrap().entry(busy).or_default() -= 1 }
    ///     fn busy_elsewhere(&self, busy: u64, _: i32) -> bool {
    ///         self.0.lock().unwrap().get(&busy).is_some_and(|&count| count > 0)
    ///     }
    /// }
    /// let counts = Counts::default();
    /// counts.offer_busy(0xbeef, 9);
    /// assert!(counts.busy_elsewhere(0xbeef, 9));
    /// counts.finish_busy(0xbeef, 9);
    /// assert!(!counts.busy_elsewhere(0xbeef, 9));
    /// ```
    fn finish_busy(&self, _busy: u64, _depth: i32) {}

    /// Both ABDADAs: whether another process is searching `busy` (a node's key at remaining `depth`, or a move's
    /// hash in a node of `depth`, as [`offer_busy`](EntryExchange::offer_busy) says it). The default knows of
    /// none.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use std::sync::Mutex;
    /// use eldest_search::{EntryExchange, TableEntry};
    ///
    /// /// Remembers the other processes' announcements (here, made by hand).
    /// #[derive(Debug, Default)]
    /// struct Hints(Mutex<HashSet<u64>>);
    /// impl EntryExchange for Hints {
    ///     fn min_depth(&self) -> i32 { 6 }
    ///     fn offer(&self, _: TableEntry) {}
    ///     fn deliver(&self, _: &mut dyn FnMut(TableEntry)) {}
    ///     fn busy_elsewhere(&self, busy: u64, _: i32) -> bool { self.0.lock().unwrap().contains(&busy) }
    /// }
    /// let hints = Hints::default();
    /// hints.0.lock().unwrap().insert(0xbeef);
    /// assert!(hints.busy_elsewhere(0xbeef, 7) && !hints.busy_elsewhere(0xcafe, 7));
    /// ```
    fn busy_elsewhere(&self, _busy: u64, _depth: i32) -> bool {
        false
    }

    /// Called by the search before it starts, from one thread: `Some(depth)` when this search's busy information
    /// of at least `depth` goes to owner processes that count the searchers (`ClusterBusyOwners` and
    /// `ClusterOwnerDepth`, Weill's distributed table), `None` when it travels as hints. The default has no
    /// owners and ignores it.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::atomic::{AtomicI32, Ordering};
    /// use eldest_search::{EntryExchange, TableEntry};
    ///
    /// #[derive(Debug, Default)]
    /// struct Switch(AtomicI32);
    /// impl EntryExchange for Switch {
    ///     fn min_depth(&self) -> i32 { 6 }
    ///     fn offer(&self, _: TableEntry) {}
    ///     fn deliver(&self, _: &mut dyn FnMut(TableEntry)) {}
    ///     fn use_busy_owners(&self, from_depth: Option<i32>) { self.0.store(from_depth.unwrap_or(0), Ordering::Relaxed) }
    /// }
    /// let switch = Switch::default();
    /// switch.use_busy_owners(Some(6));
    /// assert_eq!(switch.0.load(Ordering::Relaxed), 6);
    /// ```
    fn use_busy_owners(&self, _from_depth: Option<i32>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_valid_entry_survives_its_bytes() {
        for (score, eval, depth, bound) in [
            (0, None, 1, Bound::EXACT),
            (MATE - 1, Some(-300), MAX_DEPTH.min(127), Bound::LOWER),
            (-MATE, Some(i32::from(i16::MAX)), MIN_DEPTH, Bound::UPPER),
        ] {
            let record = Record {
                best_move: 0xffff,
                score,
                static_eval: eval,
                depth,
                bound,
            };
            let entry = TableEntry::new(u64::MAX, 0, &record);
            assert_eq!(entry.record(), record);
            assert_eq!(TableEntry::from_bytes(&entry.to_bytes()), Some(entry));
        }
    }

    #[test]
    fn corrupt_bytes_are_refused() {
        let good = TableEntry::new(
            5,
            0,
            &Record {
                best_move: 1,
                score: 10,
                static_eval: None,
                depth: 8,
                bound: Bound::EXACT,
            },
        )
        .to_bytes();
        let mut empty_bound = good;
        empty_bound[15] = 0;
        let mut unknown_bound = good;
        unknown_bound[15] = 4;
        let mut beyond_mate = good;
        beyond_mate[10..12].copy_from_slice(&i16::MAX.to_le_bytes());
        let mut too_shallow = good;
        too_shallow[14] = (MIN_DEPTH - 1) as i8 as u8;
        for bytes in [empty_bound, unknown_bound, beyond_mate, too_shallow] {
            assert_eq!(TableEntry::from_bytes(&bytes), None);
        }
        assert_eq!(TableEntry::from_bytes(&good[..15]), None);
        assert!(TableEntry::from_bytes(&good).is_some());
    }
}
