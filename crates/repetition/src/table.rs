//! The occurrence-count table behind [`GameHistory`](crate::GameHistory): open addressing with linear probing
//! (seed 003).
//!
//! The game since the last irreversible move is short — rarely more than a few dozen positions — so a small
//! power-of-two table answers "how often did this key occur?" with one or two probes, where a scan of the
//! ordered list would read every position. The table starts at the 256 slots of seed 003 and doubles when it
//! is half full, so even a long shuffle from a `position ... moves ...` of thousands of plies keeps probe
//! sequences short.

/// The number of slots a new table starts with (seed 003). A power of two, so the slot of a key is a mask
/// rather than a division.
pub(crate) const INITIAL_SLOTS: usize = 256;

/// One slot. A count of zero marks the slot empty: every Zobrist key, zero included, is a valid key, so the
/// key itself cannot be the sentinel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    key: u64,
    count: u32,
}

/// Keys with their occurrence counts.
#[derive(Clone, Debug)]
pub(crate) struct KeyCounts {
    slots: Box<[Slot]>,
    /// `slots.len() - 1`; the slot count is a power of two.
    mask: u64,
    /// Number of distinct keys stored.
    distinct: usize,
}

impl KeyCounts {
    /// An empty table of [`INITIAL_SLOTS`] slots.
    pub(crate) fn new() -> Self {
        Self::with_slots(INITIAL_SLOTS)
    }

    fn with_slots(slots: usize) -> Self {
        debug_assert!(slots.is_power_of_two());
        Self {
            slots: vec![Slot::default(); slots].into_boxed_slice(),
            mask: slots as u64 - 1,
            distinct: 0,
        }
    }

    /// The first slot to probe for `key`. Zobrist keys are uniformly random, so their low bits are as good an
    /// index as any hash of them.
    fn home(&self, key: u64) -> usize {
        // Lossless: the masked value is below the slot count, which is a `usize`.
        (key & self.mask) as usize
    }

    /// The slot holding `key`, or the empty slot where it would go. Terminates because the table is never more
    /// than half full.
    fn find(&self, key: u64) -> usize {
        let mut index = self.home(key);
        loop {
            let slot = self.slots[index];
            if slot.count == 0 || slot.key == key {
                return index;
            }
            index = (index + 1) & (self.slots.len() - 1);
        }
    }

    /// How many times `key` was inserted since the last [`clear`](Self::clear).
    pub(crate) fn count(&self, key: u64) -> u32 {
        self.slots[self.find(key)].count
    }

    /// Counts one more occurrence of `key`.
    pub(crate) fn insert(&mut self, key: u64) {
        // Grow before the insert so the table stays at most half full and probe sequences stay short.
        if (self.distinct + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let index = self.find(key);
        let slot = &mut self.slots[index];
        if slot.count == 0 {
            slot.key = key;
            self.distinct += 1;
        }
        slot.count += 1;
    }

    /// Forgets every key; keeps the allocation.
    pub(crate) fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.distinct = 0;
    }

    /// Doubles the slot count and re-inserts every occupied slot.
    fn grow(&mut self) {
        let mut bigger = Self::with_slots(self.slots.len() * 2);
        for slot in self.slots.iter().filter(|slot| slot.count > 0) {
            let index = bigger.find(slot.key);
            bigger.slots[index] = *slot;
        }
        bigger.distinct = self.distinct;
        *self = bigger;
    }

    /// The current number of slots (for tests of growth).
    #[cfg(test)]
    fn slot_count(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_repeated_keys() {
        let mut table = KeyCounts::new();
        table.insert(7);
        table.insert(9);
        table.insert(7);
        assert_eq!(table.count(7), 2);
        assert_eq!(table.count(9), 1);
        assert_eq!(table.count(8), 0);
    }

    #[test]
    fn zero_is_an_ordinary_key() {
        let mut table = KeyCounts::new();
        assert_eq!(table.count(0), 0);
        table.insert(0);
        assert_eq!(table.count(0), 1);
    }

    #[test]
    fn colliding_keys_are_kept_apart_by_linear_probing() {
        // Same home slot: the keys differ only above the mask.
        let slots = INITIAL_SLOTS as u64;
        let mut table = KeyCounts::new();
        for i in 0..5 {
            table.insert(3 + i * slots);
        }
        table.insert(3 + 2 * slots);
        assert_eq!(table.count(3), 1);
        assert_eq!(table.count(3 + 2 * slots), 2);
        assert_eq!(table.count(3 + 4 * slots), 1);
        assert_eq!(table.count(3 + 5 * slots), 0);
    }

    #[test]
    fn probing_wraps_around_the_end() {
        let last = INITIAL_SLOTS as u64 - 1;
        let mut table = KeyCounts::new();
        table.insert(last);
        table.insert(last + INITIAL_SLOTS as u64);
        assert_eq!(table.count(last + INITIAL_SLOTS as u64), 1);
        assert_eq!(table.count(last), 1);
    }

    #[test]
    fn grows_past_half_full_and_keeps_counts() {
        let mut table = KeyCounts::new();
        let keys = (0..1000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for key in keys.clone() {
            table.insert(key);
        }
        table.insert(0x9E37_79B9_7F4A_7C15);
        assert!(table.slot_count() >= 2000);
        for (i, key) in keys.enumerate() {
            assert_eq!(table.count(key), if i == 1 { 2 } else { 1 }, "key {i}");
        }
    }

    #[test]
    fn clear_forgets_everything() {
        let mut table = KeyCounts::new();
        table.insert(42);
        table.clear();
        assert_eq!(table.count(42), 0);
        table.insert(42);
        assert_eq!(table.count(42), 1);
    }
}
