//! The table itself: allocation, sizing, clearing, generations, `hashfull`, probing and prefetching.

use core::fmt;
use core::sync::atomic::AtomicU8;

use crate::bucket::{Bucket, RELAXED, SLOTS};
use crate::entry::{Entry, GENERATIONS};
use crate::error::TableSizeError;
use crate::prefetch::prefetch_bucket;

/// The size of one bucket in bytes: one cache line.
///
/// # Examples
///
/// ```
/// use eldest_tt::{TranspositionTable, BUCKET_BYTES};
/// let tt = TranspositionTable::new(1)?;
/// assert_eq!(tt.size_bytes(), tt.bucket_count() * BUCKET_BYTES);
/// // A bucket is one cache line, so a probe reads one line of memory.
/// assert_eq!(tt.bucket_count(), (1 << 20) / BUCKET_BYTES);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
pub const BUCKET_BYTES: usize = 64;

/// The number of entries in one bucket.
///
/// # Examples
///
/// ```
/// use eldest_tt::{Bound, Record, StoreOutcome, TranspositionTable, ENTRIES_PER_BUCKET};
/// let tt = TranspositionTable::with_buckets(1)?;
/// assert_eq!(tt.capacity(), ENTRIES_PER_BUCKET);
/// let record = Record { best_move: 1, score: 0, static_eval: None, depth: 5, bound: Bound::EXACT };
/// for key in 1..=ENTRIES_PER_BUCKET as u64 {
///     assert_eq!(tt.store(key << 50, 0, record), StoreOutcome::Inserted);
/// }
/// // The bucket is full: a shallower result of another position finds no room.
/// assert_eq!(tt.store(99 << 50, 0, Record { depth: 4, ..record }), StoreOutcome::TooShallow);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
pub const ENTRIES_PER_BUCKET: usize = SLOTS;

/// The largest table, in MiB (32 TiB, as Stockfish allows).
///
/// # Examples
///
/// ```
/// use eldest_tt::{TableSizeError, TranspositionTable, MAX_MIB};
/// assert_eq!(MAX_MIB, 32 << 20); // 32 TiB
/// // Refused before any memory is asked for.
/// let error = TranspositionTable::new(MAX_MIB + 1).unwrap_err();
/// assert_eq!(error, TableSizeError::TooLarge { mib: MAX_MIB + 1 });
/// ```
pub const MAX_MIB: usize = 1 << 25;

/// How many entries [`TranspositionTable::hashfull`] samples (the UCI convention).
const HASHFULL_SAMPLE: usize = 1000;

/// A lock-free transposition table shared by all search threads.
///
/// Every method takes `&self` except [`resize`](Self::resize): threads share the table through a plain
/// reference or an `Arc`. All state is in atomics, so concurrent use is free of data races by construction;
/// the key check makes it free of wrong hits as well (see `bucket.rs` and docs/tt.md).
///
/// # Examples
///
/// ```
/// use eldest_tt::{Bound, Record, TranspositionTable};
/// let tt = TranspositionTable::with_buckets(64)?;
/// let record = Record { best_move: 1, score: 0, static_eval: None, depth: 2, bound: Bound::EXACT };
/// // A shared reference is all each thread needs: no lock, no `&mut`.
/// std::thread::scope(|scope| {
///     for key in 1..=4 {
///         let tt = &tt;
///         scope.spawn(move || tt.store(key, 0, record));
///     }
/// });
/// assert!((1..=4).all(|key| tt.probe(key).is_some()));
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
pub struct TranspositionTable {
    /// A power-of-two number of cache-line buckets, indexed by the low bits of the key.
    buckets: Box<[Bucket]>,
    /// The current search generation, `0..GENERATIONS`.
    generation: AtomicU8,
}

impl fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &self.buckets.len())
            .field("generation", &self.generation())
            .finish_non_exhaustive()
    }
}

/// The number of buckets of a `mib`-MiB table: the largest power of two that fits.
fn buckets_for_mib(mib: usize) -> Result<usize, TableSizeError> {
    if mib == 0 {
        return Err(TableSizeError::Zero);
    }
    if mib > MAX_MIB {
        return Err(TableSizeError::TooLarge { mib });
    }
    // mib ≤ 2^25, so the byte count ≤ 2^45 fits a 64-bit usize; on 32-bit targets the allocator refuses.
    let bytes = mib
        .checked_mul(1 << 20)
        .ok_or(TableSizeError::OutOfMemory { bytes: usize::MAX })?;
    let buckets = bytes / BUCKET_BYTES;
    Ok(1 << buckets.ilog2())
}

/// Allocates `count` empty buckets, zeroing them on every core with the `rayon` feature.
fn allocate(count: usize) -> Result<Box<[Bucket]>, TableSizeError> {
    let mut buckets: Vec<Bucket> = Vec::new();
    buckets
        .try_reserve_exact(count)
        .map_err(|_| TableSizeError::OutOfMemory {
            bytes: count.saturating_mul(BUCKET_BYTES),
        })?;
    // Asked before the zeroing below touches the pages, so that they are made huge as they are first written.
    crate::huge_pages::advise_huge_pages(buckets.as_ptr().cast(), count.saturating_mul(BUCKET_BYTES));
    // Serial under Miri, for the reason given at `sum_over_buckets`.
    #[cfg(all(feature = "rayon", not(miri)))]
    {
        use rayon::prelude::*;
        buckets.par_extend((0..count).into_par_iter().map(|_| Bucket::default()));
    }
    #[cfg(not(all(feature = "rayon", not(miri))))]
    buckets.extend((0..count).map(|_| Bucket::default()));
    Ok(buckets.into_boxed_slice())
}

impl TranspositionTable {
    /// Creates an empty table of at most `mib` MiB: the largest power-of-two number of 64-byte buckets that
    /// fits (so 100 MiB gives 64 MiB). Memory is zeroed on every core with the `rayon` feature.
    ///
    /// # Errors
    /// [`TableSizeError::Zero`] for 0 MiB, [`TableSizeError::TooLarge`] beyond [`MAX_MIB`], and
    /// [`TableSizeError::OutOfMemory`] when the allocator refuses.
    ///
    /// ```
    /// let tt = eldest_tt::TranspositionTable::new(1)?;
    /// assert_eq!(tt.size_bytes(), 1 << 20);
    /// assert_eq!(tt.capacity(), (1 << 20) / 64 * 3);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn new(mib: usize) -> Result<Self, TableSizeError> {
        Self::with_buckets(buckets_for_mib(mib)?)
    }

    /// Creates an empty table of exactly `buckets` buckets (three entries each); for tests and small tools.
    ///
    /// # Errors
    /// [`TableSizeError::Zero`] for 0, [`TableSizeError::NotPowerOfTwo`] when `buckets` is not a power of
    /// two, [`TableSizeError::OutOfMemory`] when the allocator refuses.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{TableSizeError, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(4)?;
    /// assert_eq!((tt.bucket_count(), tt.capacity()), (4, 12));
    /// assert_eq!(TranspositionTable::with_buckets(0).unwrap_err(), TableSizeError::Zero);
    /// let odd = TranspositionTable::with_buckets(6).unwrap_err();
    /// assert_eq!(odd, TableSizeError::NotPowerOfTwo { buckets: 6 });
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn with_buckets(buckets: usize) -> Result<Self, TableSizeError> {
        if buckets == 0 {
            return Err(TableSizeError::Zero);
        }
        if !buckets.is_power_of_two() {
            return Err(TableSizeError::NotPowerOfTwo { buckets });
        }
        Ok(Self {
            buckets: allocate(buckets)?,
            generation: AtomicU8::new(0),
        })
    }

    /// Resizes the table to at most `mib` MiB and clears it (generation back to 0, pins and counters gone).
    ///
    /// The old memory is freed before the new is allocated, so the peak is the larger of the two sizes, not
    /// their sum. Taking `&mut self` guarantees that no thread is using the table meanwhile.
    ///
    /// # Errors
    /// As [`TranspositionTable::new`]. On error the table keeps its previous size, cleared.
    ///
    /// # Panics
    /// Only if, after a refused allocation, even the previous size can no longer be allocated.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TableSizeError, TranspositionTable};
    /// let mut tt = TranspositionTable::new(1)?;
    /// tt.new_search();
    /// tt.store(1, 0, Record { best_move: 1, score: 0, static_eval: None, depth: 3, bound: Bound::EXACT });
    /// tt.resize(2)?;
    /// assert_eq!(tt.size_bytes(), 2 << 20);
    /// assert!(tt.probe(1).is_none() && tt.generation() == 0);
    /// // A refused size leaves the table usable at the size it had.
    /// assert_eq!(tt.resize(0), Err(TableSizeError::Zero));
    /// assert_eq!(tt.size_bytes(), 2 << 20);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn resize(&mut self, mib: usize) -> Result<(), TableSizeError> {
        let count = buckets_for_mib(mib)?;
        self.generation.store(0, RELAXED);
        if count == self.buckets.len() {
            self.clear();
            return Ok(());
        }
        let previous = self.buckets.len();
        self.buckets = Box::default();
        match allocate(count) {
            Ok(buckets) => {
                self.buckets = buckets;
                Ok(())
            }
            Err(error) => {
                self.buckets = allocate(previous).expect("the memory of the previous table was just freed");
                Err(error)
            }
        }
    }

    /// Empties every entry and counter (on every core with the `rayon` feature) and resets the generation to 0.
    ///
    /// Safe to call at any time, but a search running meanwhile loses what it stored and its `nproc` counts
    /// (its later `leave`s then find nothing and do nothing): call it between searches.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// tt.new_search();
    /// tt.store(1, 0, Record { best_move: 1, score: 0, static_eval: None, depth: 3, bound: Bound::EXACT });
    /// tt.pin_draw(2).unwrap();
    /// assert!(tt.enter(3, 4));
    /// tt.clear();
    /// assert!(tt.probe(1).is_none() && tt.probe(2).is_none());
    /// assert_eq!((tt.nproc_total(), tt.generation()), (0, 0));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn clear(&self) {
        self.sum_over_buckets(|bucket| {
            bucket.clear();
            0
        });
        self.generation.store(0, RELAXED);
    }

    /// The number of buckets (a power of two).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{TranspositionTable, BUCKET_BYTES};
    /// // 3 MiB does not hold a power-of-two number of buckets: the table rounds down to 2 MiB.
    /// let tt = TranspositionTable::new(3)?;
    /// assert!(tt.bucket_count().is_power_of_two());
    /// assert_eq!(tt.bucket_count(), (2 << 20) / BUCKET_BYTES);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub fn bucket_count(&self) -> usize {
        self.buckets.len()
    }

    /// The number of entries the table holds.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{TranspositionTable, ENTRIES_PER_BUCKET};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// assert_eq!(tt.capacity(), 64 * ENTRIES_PER_BUCKET);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * ENTRIES_PER_BUCKET
    }

    /// The memory of the buckets, in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::TranspositionTable;
    /// assert_eq!(TranspositionTable::new(1)?.size_bytes(), 1 << 20);
    /// // Rounded down to a power-of-two number of buckets.
    /// assert_eq!(TranspositionTable::new(3)?.size_bytes(), 2 << 20);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// The current generation, `0..GENERATIONS`.
    ///
    /// # Examples
    ///
    /// ```
    /// let tt = eldest_tt::TranspositionTable::with_buckets(64)?;
    /// assert_eq!(tt.generation(), 0);
    /// tt.new_search();
    /// assert_eq!(tt.generation(), 1);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub fn generation(&self) -> u8 {
        self.generation.load(RELAXED)
    }

    /// Starts a new search: bumps the generation (modulo [`GENERATIONS`]) so that entries of earlier
    /// searches become *stale* and give way to new results. Call it once per `go`, before the threads start.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, StoreOutcome, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// let deep = Record { best_move: 1, score: 0, static_eval: None, depth: 9, bound: Bound::EXACT };
    /// tt.store(5, 0, deep);
    /// assert_eq!(tt.store(5, 0, Record { depth: 2, ..deep }), StoreOutcome::KeptExisting);
    /// tt.new_search();
    /// // The deep result is stale now: the new search's shallower one replaces it.
    /// assert_eq!(tt.store(5, 0, Record { depth: 2, ..deep }), StoreOutcome::Updated);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    pub fn new_search(&self) {
        // One writer between searches: a load and a store are enough, and stay cheap under Miri.
        self.generation
            .store((self.generation() + 1) % GENERATIONS, RELAXED);
    }

    /// How full the table is, in permille, for UCI's `info hashfull`: the share of the first 1000 entries
    /// that were written during the current generation (pinned draws included, empty slots not).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(512)?; // 1536 entries, of which the first 1000 are sampled
    /// let record = Record { best_move: 1, score: 0, static_eval: None, depth: 1, bound: Bound::EXACT };
    /// for key in 1..=100 {
    ///     tt.store(key, 0, record);
    /// }
    /// assert_eq!(tt.hashfull(), 100);
    /// // Entries of earlier searches do not count: they are free for the taking.
    /// tt.new_search();
    /// assert_eq!(tt.hashfull(), 0);
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = HASHFULL_SAMPLE.min(self.capacity());
        let used = (0..sample)
            .filter(|&index| {
                let view = self.buckets[index / SLOTS].view(index % SLOTS);
                Entry::unpack(view.data).is_some_and(|entry| entry.generation() == generation)
            })
            .count();
        // used ≤ sample ≤ 1000: the permille fits a u32.
        u32::try_from(used * 1000 / sample).unwrap_or(1000)
    }

    /// The entry stored for `key`, if a slot of its bucket verifies as that key.
    ///
    /// A slot whose two words were written by different stores (a torn write) fails the check and is a miss,
    /// as is a slot holding another position that shares the bucket.
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// let key = 0x0123_4567_89ab_cdef;
    /// assert!(tt.probe(key).is_none());
    /// tt.store(key, 0, Record { best_move: 0x0e1d, score: 35, static_eval: Some(20), depth: 6, bound: Bound::LOWER });
    /// let entry = tt.probe(key).unwrap();
    /// assert_eq!((entry.best_move(), entry.score(0), entry.depth()), (Some(0x0e1d), 35, 6));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).find(key)
    }

    /// Hints the CPU to fetch the bucket of `key` into the cache, so that a probe a little later (typically
    /// after making the move that leads to `key`) does not wait for memory. Never changes the table.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{Bound, Record, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// tt.store(3, 0, Record { best_move: 1, score: 0, static_eval: None, depth: 2, bound: Bound::EXACT });
    /// let before = tt.probe(3);
    /// tt.prefetch(3);
    /// tt.prefetch(4);
    /// // Only a hint to the CPU: what a probe finds is unchanged.
    /// assert_eq!(tt.probe(3), before);
    /// assert!(tt.probe(4).is_none());
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch_bucket(self.bucket(key));
    }

    /// The bucket of `key`: chosen by its low bits.
    #[inline]
    pub(crate) fn bucket(&self, key: u64) -> &Bucket {
        // The length is a power of two, so the mask keeps exactly the low bits; truncating the key to usize
        // first only drops high bits, which the mask would drop anyway.
        let mask = self.buckets.len() - 1;
        &self.buckets[key as usize & mask]
    }

    /// Runs `pass` over every bucket and sums what it returns: the table-wide passes (clear, unpin, count).
    ///
    /// On every core with the `rayon` feature, except under Miri: there crossbeam-epoch, inside rayon, fails
    /// Stacked Borrows and rayon's global pool outlives `main`, so the same closure runs serially. Miri then
    /// checks this crate's code, not rayon's.
    pub(crate) fn sum_over_buckets(&self, pass: impl Fn(&Bucket) -> usize + Sync + Send) -> usize {
        #[cfg(all(feature = "rayon", not(miri)))]
        {
            use rayon::prelude::*;
            self.buckets.par_iter().map(pass).sum()
        }
        #[cfg(not(all(feature = "rayon", not(miri))))]
        {
            self.buckets.iter().map(pass).sum()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bound, Record};

    fn record(depth: i32) -> Record {
        Record {
            best_move: 1,
            score: 0,
            static_eval: Some(0),
            depth,
            bound: Bound::EXACT,
        }
    }

    #[test]
    fn sizes_round_down_to_a_power_of_two() {
        assert_eq!(buckets_for_mib(1), Ok(1 << 14));
        assert_eq!(buckets_for_mib(100), Ok(1 << 20));
        assert_eq!(buckets_for_mib(0), Err(TableSizeError::Zero));
        assert_eq!(
            buckets_for_mib(MAX_MIB + 1),
            Err(TableSizeError::TooLarge { mib: MAX_MIB + 1 })
        );
        assert_eq!(
            TranspositionTable::with_buckets(3).unwrap_err(),
            TableSizeError::NotPowerOfTwo { buckets: 3 }
        );
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "allocates and clears 16,384 buckets: slow in Miri, no unsafe or threads"
    )]
    fn resize_changes_size_and_clears() {
        let mut tt = TranspositionTable::with_buckets(4).unwrap();
        tt.store(9, 0, record(3));
        tt.new_search();
        tt.resize(1).unwrap();
        assert_eq!(tt.bucket_count(), 1 << 14);
        assert_eq!(tt.generation(), 0);
        assert!(tt.probe(9).is_none());
        assert_eq!(tt.resize(0), Err(TableSizeError::Zero));
        assert_eq!(tt.bucket_count(), 1 << 14);
    }

    #[test]
    fn clear_empties_entries_counters_and_generation() {
        let tt = TranspositionTable::with_buckets(8).unwrap();
        tt.new_search();
        tt.store(5, 0, record(2));
        assert!(tt.enter(6, 2));
        tt.clear();
        assert!(tt.probe(5).is_none());
        assert!(!tt.busy(6));
        assert_eq!(tt.generation(), 0);
    }

    #[test]
    fn generation_wraps() {
        let tt = TranspositionTable::with_buckets(1).unwrap();
        for expected in (1..GENERATIONS).chain([0, 1]) {
            tt.new_search();
            assert_eq!(tt.generation(), expected);
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "3,100 single-threaded stores: slow in Miri, no unsafe or threads"
    )]
    fn hashfull_counts_current_generation_in_permille() {
        // 512 buckets = 1536 entries: the sample is the first 1000 entries, buckets 0..=333.
        let tt = TranspositionTable::with_buckets(512).unwrap();
        assert_eq!(tt.hashfull(), 0);
        for key in 0..100u64 {
            tt.store(key, 0, record(1)); // keys 0..100 land in buckets 0..100, one entry each
        }
        assert_eq!(tt.hashfull(), 100);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0, "entries of earlier searches do not count");
        for key in 0..(1u64 << 10) {
            tt.store(key | 1 << 40, 0, record(5));
            tt.store(key | 2 << 40, 0, record(5));
            tt.store(key | 3 << 40, 0, record(5));
        }
        assert_eq!(tt.hashfull(), 1000);
    }

    #[test]
    fn hashfull_of_a_tiny_table_scales_its_sample() {
        let tt = TranspositionTable::with_buckets(2).unwrap(); // 6 entries
        tt.store(0, 0, record(1));
        tt.store(1, 0, record(1));
        tt.store(2, 0, record(1));
        assert_eq!(tt.hashfull(), 500);
    }

    #[test]
    fn torn_slot_is_a_miss_and_its_neighbours_still_hit() {
        let tt = TranspositionTable::with_buckets(1).unwrap();
        let (key_a, key_b) = (0xAAAA_0000_0000_0000, 0xBBBB_0000_0000_0000);
        tt.store(key_a, 0, record(4));
        let data_b = Entry::from_record(&record(9), 0, 0).pack();
        let lock_a = {
            let data_a = Entry::from_record(&record(4), 0, 0).pack();
            key_a ^ data_a
        };
        tt.bucket(0).write_raw(1, lock_a, data_b);
        assert_eq!(
            tt.probe(key_a).map(|entry| entry.depth()),
            Some(4),
            "slot 0 still verifies"
        );
        assert!(tt.probe(key_b).is_none());
    }

    #[test]
    fn prefetch_is_only_a_hint() {
        let tt = TranspositionTable::with_buckets(16).unwrap();
        tt.store(3, 0, record(2));
        for key in [0, 3, u64::MAX, 0xDEAD_BEEF] {
            tt.prefetch(key);
        }
        assert_eq!(tt.probe(3).map(|entry| entry.depth()), Some(2));
    }
}
