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
    fn min_depth(&self) -> i32;
    /// A result this process just stored.
    fn offer(&self, entry: TableEntry);
    /// Hands every result received since the last call to `store`.
    fn deliver(&self, store: &mut dyn FnMut(TableEntry));

    /// Both ABDADAs: this process starts searching `busy` — a node's key (Weill) or a move's hash (Kerrigan) — at
    /// least [`min_depth`](EntryExchange::min_depth) deep. The default tells nobody.
    fn offer_busy(&self, _busy: u64) {}

    /// Both ABDADAs: whether another process announced it is searching `busy` and has not finished it. The
    /// default knows of none.
    fn busy_elsewhere(&self, _busy: u64) -> bool {
        false
    }
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
