//! The serial-tree comparison of `eldest bench --serial-tree`: which main-search nodes of a parallel search the
//! serial search of the same position also visits. A parallel tree larger than the serial one is either nodes the
//! serial search never visits (speculation, subtrees searched in another order or against other bounds) or more
//! visits of the serial tree's own nodes (two threads inside one node, more re-searches), less the serial nodes
//! the parallel search skips; the node counts alone cannot tell them apart.

use std::sync::atomic::{AtomicU64, Ordering};

/// The position keys of one search's main-search nodes: a fixed-size bit set indexed by the key's top bits,
/// shared by every thread of a search (relaxed atomic words; a bit once set stays set until [`TreeKeys::clear`]).
///
/// Two keys with the same top bits share a bit, so a key the set never saw may read as present: with `n`
/// distinct keys in `2^bits` bits, a foreign key reads as present with a probability of about `n / 2^bits`
/// (0.5% for five million keys in the 2^30 bits of [`TreeKeys::BENCH_BITS`]).
///
/// # Examples
///
/// ```
/// use eldest_search::TreeKeys;
///
/// let keys = TreeKeys::new(16);
/// assert!(keys.insert(0x1234_5678_9abc_def0), "new");
/// assert!(!keys.insert(0x1234_5678_9abc_def0), "seen before");
/// assert!(keys.contains(0x1234_5678_9abc_def0));
/// assert!(!keys.contains(0x0fed_cba9_8765_4321));
/// keys.clear();
/// assert!(!keys.contains(0x1234_5678_9abc_def0));
/// ```
#[derive(Debug)]
pub struct TreeKeys {
    words: Vec<AtomicU64>,
    /// The key's bits above this one pick the bit.
    shift: u32,
}

impl TreeKeys {
    /// The set's size in `eldest bench --serial-tree`: 2^30 bits, 128 MiB a set.
    pub const BENCH_BITS: u32 = 30;

    /// An empty set of `2^bits` bits (`bits` from 6, one word, to 40).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::TreeKeys;
    ///
    /// assert_eq!(TreeKeys::new(10).bits(), 1024);
    /// // At least one word.
    /// assert_eq!(TreeKeys::new(0).bits(), 64);
    /// ```
    pub fn new(bits: u32) -> TreeKeys {
        let bits = bits.clamp(6, 40);
        TreeKeys {
            words: (0..1usize << (bits - 6)).map(|_| AtomicU64::new(0)).collect(),
            shift: 64 - bits,
        }
    }

    /// The set's size in bits.
    ///
    /// ```
    /// use eldest_search::TreeKeys;
    /// assert_eq!(TreeKeys::new(12).bits(), 4096);
    /// ```
    pub fn bits(&self) -> usize {
        self.words.len() * 64
    }

    #[inline]
    fn place(&self, key: u64) -> (usize, u64) {
        let bit = key >> self.shift;
        ((bit >> 6) as usize, 1 << (bit & 63))
    }

    /// Adds `key`; returns whether it was new (no key sharing its bit was in the set).
    ///
    /// ```
    /// use eldest_search::TreeKeys;
    /// let keys = TreeKeys::new(8);
    /// assert!(keys.insert(7 << 60));
    /// assert!(!keys.insert(7 << 60));
    /// ```
    #[inline]
    pub fn insert(&self, key: u64) -> bool {
        let (word, mask) = self.place(key);
        self.words[word].fetch_or(mask, Ordering::Relaxed) & mask == 0
    }

    /// Whether `key` (or a key sharing its bit) is in the set.
    ///
    /// ```
    /// use eldest_search::TreeKeys;
    /// let keys = TreeKeys::new(8);
    /// keys.insert(3 << 60);
    /// assert!(keys.contains(3 << 60) && !keys.contains(5 << 60));
    /// ```
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        let (word, mask) = self.place(key);
        self.words[word].load(Ordering::Relaxed) & mask != 0
    }

    /// Empties the set.
    ///
    /// ```
    /// use eldest_search::TreeKeys;
    /// let keys = TreeKeys::new(8);
    /// keys.insert(1 << 63);
    /// keys.clear();
    /// assert!(keys.insert(1 << 63));
    /// ```
    pub fn clear(&self) {
        self.words
            .iter()
            .for_each(|word| word.store(0, Ordering::Relaxed));
    }
}

/// What a search records of its tree (`Engine::set_tree_keys`): every main-search node's key goes into
/// `visited`, and with `serial` (the keys a serial search of the same position visited) each node is looked up
/// there, each band of remaining depth apart. The counts land in [`TreeProfile`](crate::TreeProfile)'s
/// `distinct_main_nodes_by_depth`, `serial_tree_nodes_by_depth` and `serial_tree_distinct_by_depth`. The serial
/// search itself records with `serial: None`: all its nodes are its own tree's.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use eldest_board::Position;
/// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions, TreeKeys, TreeRecording};
///
/// let limits = SearchLimits { depth: Some(6), ..SearchLimits::default() };
/// let serial_keys = Arc::new(TreeKeys::new(20));
/// let mut serial = Engine::new(1)?;
/// serial.set_tree_keys(Some(TreeRecording { visited: Arc::clone(&serial_keys), serial: None }));
/// serial.search(&Position::startpos(), Default::default(), &limits, &SearchOptions::default(),
///     &SearchControl::new(), &mut |_| {});
/// let alone = serial.thread_stats()[0].profile;
/// let distinct: u64 = alone.distinct_main_nodes_by_depth.iter().sum();
/// assert!(distinct > 0 && distinct <= alone.main_nodes);
/// assert_eq!(alone.serial_tree_nodes_by_depth, alone.main_nodes_by_depth, "the serial tree is its own");
///
/// // The same search again, looked up in the first one's keys: the very same tree.
/// let mut again = Engine::new(1)?;
/// again.set_tree_keys(Some(TreeRecording { visited: Arc::new(TreeKeys::new(20)), serial: Some(serial_keys) }));
/// again.search(&Position::startpos(), Default::default(), &limits, &SearchOptions::default(),
///     &SearchControl::new(), &mut |_| {});
/// let profile = again.thread_stats()[0].profile;
/// assert_eq!(profile.serial_tree_nodes_by_depth, profile.main_nodes_by_depth);
/// assert_eq!(profile.serial_tree_distinct_by_depth, alone.distinct_main_nodes_by_depth);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug, Clone)]
pub struct TreeRecording {
    /// Where this search's keys go.
    pub visited: std::sync::Arc<TreeKeys>,
    /// The serial search's keys, to look this search's nodes up in (none: this is the serial search).
    pub serial: Option<std::sync::Arc<TreeKeys>>,
}

/// Mixed into a key by the node's band of remaining depth ([`TreeProfile::DEPTH_BANDS`](crate::TreeProfile)),
/// so that a position counts apart in each band: near the root, where the trees should agree, apart from near
/// the leaves, where a changed move order changes which positions are reached.
const BAND_SALTS: [u64; crate::TreeProfile::DEPTH_BANDS.len()] = [
    0,
    0x9e37_79b9_7f4a_7c15,
    0xbf58_476d_1ce4_e5b9,
    0x94d0_49bb_1331_11eb,
    0xd6e8_feb8_6659_fd93,
];

impl TreeRecording {
    /// Records a main-search node's `key` in the band `band` of remaining depth: returns whether it is new to
    /// this search there and whether the serial search visited it there.
    #[inline]
    pub(crate) fn visit(&self, key: u64, band: usize) -> (bool, bool) {
        let key = key ^ BAND_SALTS[band];
        let new = self.visited.insert(key);
        let serial = self.serial.as_ref().is_none_or(|serial| serial.contains(key));
        (new, serial)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn many_threads_inserting_one_key_find_it_new_exactly_once() {
        let keys = Arc::new(TreeKeys::new(12));
        let news: usize = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..8)
                .map(|_| {
                    let keys = &keys;
                    scope.spawn(move || (0..1000u64).filter(|&i| keys.insert(i << 52)).count())
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).sum()
        });
        // 1000 keys over 4096 bits by their top 12 bits: all distinct places.
        assert_eq!(news, 1000);
    }

    #[test]
    fn keys_differing_only_below_the_index_bits_share_a_bit() {
        let keys = TreeKeys::new(10);
        assert!(keys.insert(0xabc0_0000_0000_0001));
        assert!(!keys.insert(0xabc0_0000_0000_0002), "same top ten bits");
        assert!(keys.insert(0xac00_0000_0000_0001), "other top ten bits");
        assert!(!keys.contains(0xad00_0000_0000_0001));
    }
}
