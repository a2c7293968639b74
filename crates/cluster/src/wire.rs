//! What the ranks say to each other, as bytes: control messages (the first rank's input lines and stops, the
//! other ranks' results) and the fixed-size batches of table entries of an exchange round. Every decoder
//! checks what it reads and returns `None` for bytes that are not a message: a corrupt message is dropped,
//! never acted on.
//!
//! # Examples
//! ```
//! use eldest_cluster::wire::{BATCH_BYTES, Control, decode_batch};
//! // Bytes damaged in transit are refused, never misread as some other message.
//! assert_eq!(Control::decode(&[9, 1, 2]), None);
//! assert_eq!(Control::decode(&Control::Stop(4).encode()[..5]), None);
//! assert_eq!(decode_batch(&vec![0; BATCH_BYTES - 1]), None);
//! ```

use eldest_search::{TABLE_ENTRY_BYTES, TableEntry};

/// Entries in one rank's share of an exchange round.
///
/// # Examples
/// ```
/// use eldest_cluster::wire::{BATCH_BYTES, BATCH_ENTRIES, decode_batch, encode_batch};
/// use eldest_search::TableEntry;
/// use eldest_tt::{Bound, Record};
///
/// let record = Record { best_move: 0, score: 0, static_eval: None, depth: 8, bound: Bound::EXACT };
/// let entries: Vec<TableEntry> = (0..300).map(|key| TableEntry::new(key, 0, &record)).collect();
/// let mut buffer = vec![0; BATCH_BYTES];
/// encode_batch(&mut buffer, false, &entries, &[]);
/// // What does not fit waits for the next round (the exchange's outbox keeps it).
/// assert_eq!(decode_batch(&buffer).unwrap().entries, entries[..BATCH_ENTRIES]);
/// ```
pub const BATCH_ENTRIES: usize = 256;

/// Busy hints (both ABDADAs' "being searched" across ranks) in one rank's share of a round.
///
/// # Examples
/// ```
/// use eldest_cluster::wire::{BATCH_BUSY_HINTS, BATCH_BYTES, decode_batch, encode_batch};
///
/// let hints: Vec<u64> = (1..=200).collect();
/// let mut buffer = vec![0; BATCH_BYTES];
/// encode_batch(&mut buffer, false, &[], &hints);
/// assert_eq!(decode_batch(&buffer).unwrap().busy, hints[..BATCH_BUSY_HINTS]);
/// ```
pub const BATCH_BUSY_HINTS: usize = 128;

/// Bytes before the entries of a batch: flags, then the entry count.
const BATCH_HEADER_BYTES: usize = 4;

/// Where the busy hints start: their count, two bytes of padding, then 8 bytes a hint.
const BUSY_OFFSET: usize = BATCH_HEADER_BYTES + BATCH_ENTRIES * TABLE_ENTRY_BYTES;

/// Bytes of one rank's share of an exchange round: the header, 4 KiB of entries, the busy hints (1 KiB).
///
/// # Examples
/// ```
/// use eldest_cluster::wire::{BATCH_BYTES, decode_batch};
///
/// // Every rank's share has this one size, so a gather round can place them by rank.
/// let empty = decode_batch(&vec![0; BATCH_BYTES]).unwrap();
/// assert!(empty.entries.is_empty() && empty.busy.is_empty() && !empty.quit);
/// assert_eq!(decode_batch(&vec![0; BATCH_BYTES + 1]), None);
/// ```
pub const BATCH_BYTES: usize = BUSY_OFFSET + 4 + BATCH_BUSY_HINTS * 8;

/// Header flag: the rank is shutting down; every rank leaves the exchange after this round.
const FLAG_QUIT: u8 = 1;

/// A rank's share of one round, decoded.
///
/// # Examples
/// ```
/// use eldest_cluster::wire::{BATCH_BYTES, Batch, decode_batch, encode_batch};
///
/// let mut buffer = vec![0; BATCH_BYTES];
/// encode_batch(&mut buffer, true, &[], &[7, 8]);
/// let batch = decode_batch(&buffer).unwrap();
/// assert_eq!(batch, Batch { quit: true, entries: vec![], corrupt: 0, busy: vec![7, 8] });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    /// The rank is shutting down.
    pub quit: bool,
    /// The entries it sent; corrupt ones are left out.
    pub entries: Vec<TableEntry>,
    /// How many entries were corrupt.
    pub corrupt: usize,
    /// The nodes (Weill) or moves (Kerrigan) the rank started searching: both ABDADAs' busy hints.
    pub busy: Vec<u64>,
}

/// Writes a batch into `buffer` (exactly [`BATCH_BYTES`] long); at most [`BATCH_ENTRIES`] entries and
/// [`BATCH_BUSY_HINTS`] busy hints are written.
///
/// # Examples
/// ```
/// use eldest_cluster::wire::{BATCH_BYTES, decode_batch, encode_batch};
/// use eldest_search::TableEntry;
/// use eldest_tt::{Bound, Record};
///
/// let record = Record { best_move: 3, score: 20, static_eval: Some(5), depth: 9, bound: Bound::LOWER };
/// let entries = [TableEntry::new(1, 0, &record), TableEntry::new(2, 0, &record)];
/// let mut buffer = vec![0; BATCH_BYTES];
/// encode_batch(&mut buffer, false, &entries, &[42]);
/// let batch = decode_batch(&buffer).unwrap();
/// assert_eq!((batch.entries, batch.busy, batch.quit), (entries.to_vec(), vec![42], false));
/// ```
pub fn encode_batch(buffer: &mut [u8], quit: bool, entries: &[TableEntry], busy: &[u64]) {
    let count = entries.len().min(BATCH_ENTRIES);
    buffer.fill(0);
    buffer[0] = if quit { FLAG_QUIT } else { 0 };
    buffer[2..4].copy_from_slice(&(count as u16).to_le_bytes());
    for (slot, entry) in buffer[BATCH_HEADER_BYTES..]
        .chunks_exact_mut(TABLE_ENTRY_BYTES)
        .zip(&entries[..count])
    {
        slot.copy_from_slice(&entry.to_bytes());
    }
    let hints = busy.len().min(BATCH_BUSY_HINTS);
    buffer[BUSY_OFFSET..BUSY_OFFSET + 2].copy_from_slice(&(hints as u16).to_le_bytes());
    for (slot, hint) in buffer[BUSY_OFFSET + 4..].chunks_exact_mut(8).zip(&busy[..hints]) {
        slot.copy_from_slice(&hint.to_le_bytes());
    }
}

/// Reads one rank's share of a round, or `None` when its header is impossible.
///
/// # Examples
/// ```
/// use eldest_cluster::wire::{BATCH_BYTES, decode_batch};
///
/// let mut buffer = vec![0; BATCH_BYTES];
/// assert_eq!(decode_batch(&buffer).unwrap().entries.len(), 0);
/// // An unknown header flag: the whole share is dropped.
/// buffer[0] = 0x80;
/// assert_eq!(decode_batch(&buffer), None);
/// ```
pub fn decode_batch(bytes: &[u8]) -> Option<Batch> {
    if bytes.len() != BATCH_BYTES || bytes[0] & !FLAG_QUIT != 0 {
        return None;
    }
    let count = usize::from(u16::from_le_bytes([bytes[2], bytes[3]]));
    let hints = usize::from(u16::from_le_bytes([bytes[BUSY_OFFSET], bytes[BUSY_OFFSET + 1]]));
    if count > BATCH_ENTRIES || hints > BATCH_BUSY_HINTS {
        return None;
    }
    let busy = bytes[BUSY_OFFSET + 4..]
        .chunks_exact(8)
        .take(hints)
        .map(|chunk| u64::from_le_bytes(chunk.try_into().unwrap_or_default()))
        .collect();
    let mut entries = Vec::with_capacity(count);
    for chunk in bytes[BATCH_HEADER_BYTES..]
        .chunks_exact(TABLE_ENTRY_BYTES)
        .take(count)
    {
        entries.extend(TableEntry::from_bytes(chunk));
    }
    Some(Batch {
        quit: bytes[0] & FLAG_QUIT != 0,
        corrupt: count - entries.len(),
        entries,
        busy,
    })
}

/// What one rank's search found, sent to the first rank when the search ends.
///
/// # Examples
/// ```
/// use eldest_cluster::wire::{Control, CounterSnapshot, RankResult};
///
/// let result = RankResult {
///     rank: 2, search: 5, best_move: Some("e2e4".into()), ponder_move: None,
///     score: -31, depth: 14, nodes: 1 << 40, counters: CounterSnapshot::default(),
/// };
/// let message = Control::Result(result);
/// assert_eq!(Control::decode(&message.encode()), Some(message));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankResult {
    /// The sending rank.
    pub rank: u32,
    /// Which search of the session (the first is 1).
    pub search: u64,
    /// The move, in UCI notation; `None` when the root has no legal move.
    pub best_move: Option<String>,
    /// The expected reply.
    pub ponder_move: Option<String>,
    /// The score as the search returns it internally (mates as `MATE − plies`).
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes the rank searched.
    pub nodes: u64,
    /// The rank's exchange counters over the search.
    pub counters: CounterSnapshot,
}

/// A rank's exchange counters at one moment.
///
/// # Examples
/// ```
/// use eldest_cluster::{ClusterExchange, INITIAL_FLOOR, wire::CounterSnapshot};
///
/// let start = CounterSnapshot { floor: INITIAL_FLOOR, ..CounterSnapshot::default() };
/// assert_eq!(ClusterExchange::new().snapshot(), start);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CounterSnapshot {
    /// Entries the search offered (stored at least the floor deep).
    pub offered: u64,
    /// Offered entries dropped because the outbox was full.
    pub dropped: u64,
    /// Entries sent in rounds.
    pub sent: u64,
    /// Entries received from other ranks.
    pub received: u64,
    /// Received entries handed to the search to store.
    pub stored: u64,
    /// Exchange rounds completed.
    pub rounds: u64,
    /// Busy hints sent.
    pub busy_sent: u64,
    /// Busy hints received.
    pub busy_received: u64,
    /// Moves this rank deferred because another rank announced it was searching them.
    pub busy_hits: u64,
    /// The depth floor at the moment of the snapshot.
    pub floor: i32,
}

/// A control message.
///
/// # Examples
/// ```
/// use eldest_cluster::wire::Control;
///
/// // What another rank's communication thread does with the first rank's messages.
/// let received = Control::decode(&Control::Stop(3).encode());
/// let line = match received {
///     Some(Control::Line(line)) => line,
///     Some(Control::Stop(_)) => "stop".to_string(),
///     other => panic!("not for this rank: {other:?}"),
/// };
/// assert_eq!(line, "stop");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Control {
    /// An input line of the first rank, to be run by every other rank's session.
    Line(String),
    /// The first rank's search `n` is over: stop yours and send the result.
    Stop(u64),
    /// A rank's result.
    Result(RankResult),
}

const KIND_LINE: u8 = 1;
const KIND_STOP: u8 = 2;
const KIND_RESULT: u8 = 3;

impl Control {
    /// The message as bytes.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::wire::Control;
    ///
    /// let message = Control::Line("position startpos moves e2e4".into());
    /// let bytes = message.encode();
    /// assert!(bytes.ends_with(b"position startpos moves e2e4"));
    /// assert_eq!(Control::decode(&bytes), Some(message));
    /// ```
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        match self {
            Control::Line(line) => {
                bytes.push(KIND_LINE);
                bytes.extend_from_slice(line.as_bytes());
            }
            Control::Stop(search) => {
                bytes.push(KIND_STOP);
                bytes.extend_from_slice(&search.to_le_bytes());
            }
            Control::Result(result) => {
                bytes.push(KIND_RESULT);
                bytes.extend_from_slice(&result.rank.to_le_bytes());
                bytes.extend_from_slice(&result.search.to_le_bytes());
                bytes.extend_from_slice(&result.score.to_le_bytes());
                bytes.extend_from_slice(&result.depth.to_le_bytes());
                bytes.extend_from_slice(&result.nodes.to_le_bytes());
                let c = &result.counters;
                for value in [
                    c.offered,
                    c.dropped,
                    c.sent,
                    c.received,
                    c.stored,
                    c.rounds,
                    c.busy_sent,
                    c.busy_received,
                    c.busy_hits,
                ] {
                    bytes.extend_from_slice(&value.to_le_bytes());
                }
                bytes.extend_from_slice(&c.floor.to_le_bytes());
                for text in [&result.best_move, &result.ponder_move] {
                    let text = text.as_deref().unwrap_or("");
                    bytes.push(text.len().min(u8::MAX.into()) as u8);
                    bytes.extend_from_slice(&text.as_bytes()[..text.len().min(u8::MAX.into())]);
                }
            }
        }
        bytes
    }

    /// A message from its bytes, or `None` when they are not one.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::wire::Control;
    ///
    /// let bytes = Control::Stop(9).encode();
    /// assert_eq!(Control::decode(&bytes), Some(Control::Stop(9)));
    /// // A cut message is refused rather than read as a different search number.
    /// assert_eq!(Control::decode(&bytes[..bytes.len() - 1]), None);
    /// assert_eq!(Control::decode(&[]), None);
    /// ```
    pub fn decode(bytes: &[u8]) -> Option<Control> {
        let (&kind, rest) = bytes.split_first()?;
        match kind {
            KIND_LINE => String::from_utf8(rest.to_vec()).ok().map(Control::Line),
            KIND_STOP => Some(Control::Stop(u64::from_le_bytes(rest.try_into().ok()?))),
            KIND_RESULT => decode_result(rest).map(Control::Result),
            _ => None,
        }
    }
}

/// Reads little-endian fields off the front of a byte slice.
struct Fields<'a>(&'a [u8]);

impl Fields<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_at_checked(N)?;
        self.0 = rest;
        head.try_into().ok()
    }

    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }

    fn text(&mut self) -> Option<Option<String>> {
        let [length] = self.take::<1>()?;
        let (head, rest) = self.0.split_at_checked(usize::from(length))?;
        self.0 = rest;
        let text = std::str::from_utf8(head).ok()?;
        Some((!text.is_empty()).then(|| text.to_string()))
    }
}

fn decode_result(bytes: &[u8]) -> Option<RankResult> {
    let mut fields = Fields(bytes);
    let rank = u32::from_le_bytes(fields.take()?);
    let search = fields.u64()?;
    let score = i32::from_le_bytes(fields.take()?);
    let depth = u32::from_le_bytes(fields.take()?);
    let nodes = fields.u64()?;
    let counters = CounterSnapshot {
        offered: fields.u64()?,
        dropped: fields.u64()?,
        sent: fields.u64()?,
        received: fields.u64()?,
        stored: fields.u64()?,
        rounds: fields.u64()?,
        busy_sent: fields.u64()?,
        busy_received: fields.u64()?,
        busy_hits: fields.u64()?,
        floor: i32::from_le_bytes(fields.take()?),
    };
    let best_move = fields.text()?;
    let ponder_move = fields.text()?;
    fields.0.is_empty().then_some(RankResult {
        rank,
        search,
        best_move,
        ponder_move,
        score,
        depth,
        nodes,
        counters,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use eldest_tt::{Bound, Record};

    fn entry(key: u64) -> TableEntry {
        let record = Record {
            best_move: 3,
            score: 20,
            static_eval: Some(5),
            depth: 9,
            bound: Bound::LOWER,
        };
        TableEntry::new(key, 0, &record)
    }

    #[test]
    fn a_batch_survives_its_bytes_and_is_cut_at_its_capacity() {
        let entries: Vec<TableEntry> = (0..300).map(entry).collect();
        let mut buffer = vec![0; BATCH_BYTES];
        let busy: Vec<u64> = (1..200).collect();
        encode_batch(&mut buffer, true, &entries, &busy);
        let batch = decode_batch(&buffer).unwrap();
        assert!(batch.quit);
        assert_eq!(batch.entries, entries[..BATCH_ENTRIES]);
        assert_eq!(batch.busy, busy[..BATCH_BUSY_HINTS]);
        encode_batch(&mut buffer, false, &entries[..3], &[u64::MAX]);
        let batch = decode_batch(&buffer).unwrap();
        assert_eq!((batch.quit, batch.entries.len(), batch.corrupt), (false, 3, 0));
        assert_eq!(batch.busy, [u64::MAX]);
    }

    #[test]
    fn corrupt_batches_and_entries_are_refused() {
        let mut buffer = vec![0; BATCH_BYTES];
        encode_batch(&mut buffer, false, &[entry(1), entry(2)], &[]);
        let mut bad_flags = buffer.clone();
        let mut bad_hints = buffer.clone();
        bad_hints[BUSY_OFFSET..BUSY_OFFSET + 2].copy_from_slice(&1000u16.to_le_bytes());
        assert_eq!(decode_batch(&bad_hints), None);
        bad_flags[0] = 0x80;
        let mut bad_count = buffer.clone();
        bad_count[2..4].copy_from_slice(&1000u16.to_le_bytes());
        assert_eq!(decode_batch(&bad_flags), None);
        assert_eq!(decode_batch(&bad_count), None);
        assert_eq!(decode_batch(&buffer[1..]), None);
        let mut bad_entry = buffer.clone();
        bad_entry[BATCH_HEADER_BYTES + 15] = 0; // the first entry's bound: empty
        let batch = decode_batch(&bad_entry).unwrap();
        assert_eq!((batch.entries, batch.corrupt), (vec![entry(2)], 1));
    }

    #[test]
    fn control_messages_survive_their_bytes() {
        let result = RankResult {
            rank: 3,
            search: 17,
            best_move: Some("e2e4".into()),
            ponder_move: None,
            score: -31,
            depth: 14,
            nodes: 1 << 40,
            counters: CounterSnapshot {
                offered: 1,
                dropped: 2,
                sent: 3,
                received: 4,
                stored: 5,
                rounds: 6,
                busy_sent: 8,
                busy_received: 9,
                busy_hits: 10,
                floor: 7,
            },
        };
        for message in [
            Control::Line("position startpos moves e2e4".into()),
            Control::Stop(9),
            Control::Result(result),
        ] {
            let bytes = message.encode();
            assert_eq!(Control::decode(&bytes), Some(message.clone()));
            // Every proper prefix of a result or stop is refused, never misread.
            if !matches!(message, Control::Line(_)) {
                for cut in 0..bytes.len() {
                    assert_eq!(Control::decode(&bytes[..cut]), None, "{message:?} cut at {cut}");
                }
            }
        }
        assert_eq!(Control::decode(&[]), None);
        assert_eq!(Control::decode(&[9, 1, 2]), None);
        assert_eq!(Control::decode(&[KIND_LINE, 0xff, 0xfe]), None);
    }
}
