//! A bucket: one 64-byte cache line holding three entries and their ABDADA counters.
//!
//! ```text
//! Bucket, 64 bytes, aligned to 64 (one cache line)
//!
//! byte  0        8       16       24       32       40       48      52      56      60   64
//!      +--------+--------+--------+--------+--------+--------+-------+-------+-------+----+
//!      | lock 0 | data 0 | lock 1 | data 1 | lock 2 | data 2 | nproc | nproc | nproc | -- |
//!      +--------+--------+--------+--------+--------+--------+-------+-------+-------+----+
//!        AtomicU64 words: lock = key ^ data   AtomicU32 counter words, one per slot   padding
//!
//! nproc counter word (u32)
//!  31                            12 11             0
//! +--------------------------------+----------------+
//! |      key tag = key >> 44       |     count      |
//! +--------------------------------+----------------+
//!             20 bits                   12 bits
//! ```
//!
//! **Key verification** (Hyatt's lockless hashing): a slot stores `lock = key ^ data` beside `data`. A reader
//! loads both words and accepts the data for `key` only if `lock ^ data == key`. The two words are written by
//! separate atomic stores, so a reader racing a writer — or two writers racing each other — may see the lock of
//! one store and the data of another; such a pair fails the check (unless 64 bits happen to coincide) and reads
//! as a miss. Each word is itself a single atomic, so neither is ever half-written.
//!
//! **Counters** live in their own word, so `enter`/`leave` are single-word compare-and-swap operations that never
//! touch, and therefore never tear, the entry's two words. The tag names the position the count belongs to;
//! while the count is non-zero the slot is *reserved* for that tag and ordinary stores of other positions leave it
//! alone.

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::entry::{Entry, data_is_pinned};

/// Entries per bucket: three two-word entries plus three counters fill one cache line.
pub(crate) const SLOTS: usize = 3;

/// Bits of the counter word that hold the count; the rest hold the key tag.
const COUNT_BITS: u32 = 12;
const COUNT_MASK: u32 = (1 << COUNT_BITS) - 1;

/// The largest count a counter word holds: more threads than this in one node are not counted.
pub(crate) const MAX_COUNT: u32 = COUNT_MASK;

/// Every access in this crate is `Relaxed`. The table publishes no other memory through its words: a reader
/// validates what it loaded by value (the key check), and the counters are independent read-modify-write
/// cells whose atomicity does not depend on ordering. Thread joins give tests their happens-before edges.
pub(crate) const RELAXED: Ordering = Ordering::Relaxed;

/// The tag of `key` kept in a counter word: the top bits, which the bucket index (low bits) does not use.
pub(crate) const fn tag_of(key: u64) -> u32 {
    // A shift by 44 leaves exactly 20 bits: the cast is lossless.
    (key >> (64 - (32 - COUNT_BITS))) as u32
}

/// A counter word with `count` threads in the node tagged `tag`.
pub(crate) const fn counter_word(tag: u32, count: u32) -> u32 {
    tag << COUNT_BITS | count
}

/// The count held in a counter word.
pub(crate) const fn count_of(word: u32) -> u32 {
    word & COUNT_MASK
}

/// The tag held in a counter word.
pub(crate) const fn word_tag(word: u32) -> u32 {
    word >> COUNT_BITS
}

/// One entry's two words.
#[derive(Debug, Default)]
pub(crate) struct Slot {
    lock: AtomicU64,
    data: AtomicU64,
}

/// A snapshot of one slot taken by a single pass of loads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SlotView {
    /// The data word as loaded (0 = empty).
    pub(crate) data: u64,
    /// `lock ^ data`: the key the pair claims to belong to.
    pub(crate) claimed_key: u64,
    /// The counter word as loaded.
    pub(crate) counter: u32,
}

impl SlotView {
    /// Whether the pair verifies as an entry of `key`.
    pub(crate) const fn holds(&self, key: u64) -> bool {
        self.data != 0 && self.claimed_key == key
    }

    /// Whether no thread is counted in the slot's node.
    pub(crate) const fn is_unreserved(&self) -> bool {
        count_of(self.counter) == 0
    }

    /// Whether the slot is reserved by threads searching a node tagged `tag`.
    pub(crate) const fn is_reserved_for(&self, tag: u32) -> bool {
        count_of(self.counter) > 0 && word_tag(self.counter) == tag
    }

    /// Whether the data word is a pinned draw (whatever key its lock claims).
    pub(crate) const fn is_pinned(&self) -> bool {
        data_is_pinned(self.data)
    }

    /// Whether the slot may be evicted by an ordinary store of another key: neither reserved nor pinned.
    pub(crate) const fn is_evictable(&self) -> bool {
        self.is_unreserved() && !self.is_pinned()
    }
}

/// One cache line of the table.
#[derive(Debug, Default)]
#[repr(C, align(64))]
pub(crate) struct Bucket {
    slots: [Slot; SLOTS],
    counters: [AtomicU32; SLOTS],
}

const _: () = assert!(size_of::<Bucket>() == 64, "a bucket is one cache line");
const _: () = assert!(align_of::<Bucket>() == 64, "a bucket starts a cache line");

impl Bucket {
    /// Loads slot `index`: data, lock and counter.
    pub(crate) fn view(&self, index: usize) -> SlotView {
        let slot = &self.slots[index];
        let data = slot.data.load(RELAXED);
        let lock = slot.lock.load(RELAXED);
        SlotView {
            data,
            claimed_key: lock ^ data,
            counter: self.counters[index].load(RELAXED),
        }
    }

    /// The entry of `key`, if one of the slots verifies as it.
    pub(crate) fn find(&self, key: u64) -> Option<Entry> {
        self.slots.iter().find_map(|slot| {
            let data = slot.data.load(RELAXED);
            let lock = slot.lock.load(RELAXED);
            if lock ^ data == key {
                Entry::unpack(data)
            } else {
                None
            }
        })
    }

    /// Writes `entry` as the entry of `key` into slot `index`. The two stores are separate; readers that see
    /// one without the other fail the key check.
    pub(crate) fn write(&self, index: usize, key: u64, entry: &Entry) {
        let data = entry.pack();
        let slot = &self.slots[index];
        slot.data.store(data, RELAXED);
        slot.lock.store(key ^ data, RELAXED);
    }

    /// Empties slot `index` (its counter is left alone).
    pub(crate) fn erase(&self, index: usize) {
        let slot = &self.slots[index];
        slot.data.store(0, RELAXED);
        slot.lock.store(0, RELAXED);
    }

    /// Empties every slot and zeroes every counter.
    pub(crate) fn clear(&self) {
        for index in 0..SLOTS {
            self.erase(index);
            self.counters[index].store(0, RELAXED);
        }
    }

    /// The counter word of slot `index`.
    pub(crate) fn counter(&self, index: usize) -> &AtomicU32 {
        &self.counters[index]
    }

    /// Test hook: [`Bucket::write`] with a pause between its two stores, as when the writing thread is
    /// preempted halfway, so that racing readers see torn pairs often.
    #[cfg(test)]
    pub(crate) fn write_with_pause(&self, index: usize, key: u64, entry: &Entry) {
        let data = entry.pack();
        let slot = &self.slots[index];
        slot.data.store(data, RELAXED);
        for _ in 0..20 {
            core::hint::spin_loop();
        }
        slot.lock.store(key ^ data, RELAXED);
    }

    /// Test hook: writes a lock and a data word that need not belong together, as a torn store would leave them.
    #[cfg(test)]
    pub(crate) fn write_raw(&self, index: usize, lock: u64, data: u64) {
        self.slots[index].lock.store(lock, RELAXED);
        self.slots[index].data.store(data, RELAXED);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bound, Record};

    fn entry(seed: u16) -> Entry {
        let record = Record {
            best_move: seed,
            score: i32::from(seed),
            static_eval: Some(0),
            depth: 3,
            bound: Bound::EXACT,
        };
        Entry::from_record(&record, 0, 0)
    }

    #[test]
    fn written_entry_verifies_only_for_its_key() {
        let bucket = Bucket::default();
        bucket.write(1, 0xABCD, &entry(5));
        assert_eq!(bucket.find(0xABCD), Some(entry(5)));
        assert_eq!(bucket.find(0xABCE), None);
        assert!(bucket.view(1).holds(0xABCD));
    }

    #[test]
    fn torn_pair_is_not_a_hit() {
        let bucket = Bucket::default();
        let (key_a, key_b) = (0x1111_2222_3333_4444, 0x5555_6666_7777_8888);
        let (data_a, data_b) = (entry(1).pack(), entry(2).pack());
        // The lock of a store of A beside the data of a store of B: neither key may hit.
        bucket.write_raw(0, key_a ^ data_a, data_b);
        assert_eq!(bucket.find(key_a), None);
        assert_eq!(bucket.find(key_b), None);
    }

    #[test]
    fn empty_slot_is_no_hit_even_for_key_zero() {
        let bucket = Bucket::default();
        assert_eq!(bucket.find(0), None);
    }

    #[test]
    fn racing_writers_leave_torn_pairs_that_never_verify() {
        // Each reader stops after `rounds` reads, or earlier once it has seen `enough` of both outcomes.
        let (rounds, enough) = if cfg!(miri) { (200, 1) } else { (2_000_000, 2_000) };
        let keys: [u64; 8] = [
            0x0123_4567_89AB_CDEF,
            0x1F2E_3D4C_5B6A_7988,
            0xFEDC_BA98_7654_3210,
            0x0F0F_F0F0_3C3C_C3C3,
            0x7777_1111_2222_3333,
            0x4242_4242_4242_4242,
            0x9999_AAAA_BBBB_CCCC,
            0x3141_5926_5358_9793,
        ];
        let entry_of = |key: u64| entry(u16::try_from(key >> 52).unwrap());
        let bucket = Bucket::default();
        let readers_done = std::sync::atomic::AtomicUsize::new(0);
        let (torn, hits) = std::thread::scope(|scope| {
            for pair in keys.chunks(2) {
                let (bucket, readers_done) = (&bucket, &readers_done);
                scope.spawn(move || {
                    // Each writer alternates two keys, so every write changes both words; it writes until
                    // every reader has finished, so that writes and reads overlap in time.
                    while readers_done.load(RELAXED) < 4 {
                        bucket.write(0, pair[0], &entry_of(pair[0]));
                        bucket.write_with_pause(0, pair[1], &entry_of(pair[1]));
                    }
                });
            }
            let readers: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        let (mut torn, mut hits) = (0, 0);
                        for round in 0..rounds {
                            if torn >= enough && hits >= enough {
                                break;
                            }
                            if round % 256 == 0 {
                                // On a machine with fewer cores than threads, let the writers run.
                                std::thread::yield_now();
                            }
                            let view = bucket.view(0);
                            torn += usize::from(view.data != 0 && !keys.contains(&view.claimed_key));
                            for &key in &keys {
                                if let Some(found) = bucket.find(key) {
                                    hits += 1;
                                    assert_eq!(
                                        found,
                                        entry_of(key),
                                        "a hit for {key:#x} carries its own data"
                                    );
                                }
                            }
                        }
                        readers_done.fetch_add(1, RELAXED);
                        (torn, hits)
                    })
                })
                .collect();
            readers
                .into_iter()
                .map(|reader| reader.join().unwrap())
                .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
        });
        // How often the race was caught mid-write, and how many hits were checked: evidence that both the
        // rejection and the acceptance path were exercised.
        eprintln!("torn pairs observed and rejected: {torn}; verified hits: {hits}");
    }

    #[test]
    fn counter_word_fields_do_not_overlap() {
        let tag = tag_of(u64::MAX);
        assert_eq!(tag, (1 << 20) - 1);
        let word = counter_word(tag, MAX_COUNT);
        assert_eq!(word, u32::MAX);
        assert_eq!(word_tag(word), tag);
        assert_eq!(count_of(word), MAX_COUNT);
        assert_eq!(count_of(counter_word(tag, 0)), 0);
    }
}
