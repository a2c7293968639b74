//! The storage of what a search learns about moves and positions (history, correction history): a table of
//! relaxed atomics behind an `Arc`, private to one thread or shared by several. YBWC's threads share one by
//! default, as Crafty's and Stockfish 6's share their history, and so do Weill's ABDADA's (`AbdadaHistory`)
//! and simplified ABDADA's (`SimplifiedAbdadaHistory`), lazy SMP's never. A concurrent update may be
//! lost (a heuristic score can afford it), never torn, and a relaxed load or store is a plain one on x86 and ARM.

use std::sync::Arc;
use std::sync::atomic::{AtomicI16, AtomicI32, Ordering};

/// An integer cell loaded and stored with relaxed ordering.
pub(crate) trait RelaxedCell: Send + Sync {
    type Value: Copy + Default;
    fn new(value: Self::Value) -> Self;
    fn get(&self) -> Self::Value;
    fn set(&self, value: Self::Value);
}

macro_rules! relaxed_cell {
    ($atomic:ty, $value:ty) => {
        impl RelaxedCell for $atomic {
            type Value = $value;
            fn new(value: $value) -> Self {
                <$atomic>::new(value)
            }
            #[inline(always)]
            fn get(&self) -> $value {
                self.load(Ordering::Relaxed)
            }
            #[inline(always)]
            fn set(&self, value: $value) {
                self.store(value, Ordering::Relaxed)
            }
        }
    };
}

relaxed_cell!(AtomicI16, i16);
relaxed_cell!(AtomicI32, i32);

/// A table of learnt values, shareable between threads. `clone` gives a private copy; `share` another handle on
/// the same cells.
pub(crate) struct LearntTable<C: RelaxedCell> {
    cells: Arc<[C]>,
}

impl<C: RelaxedCell> LearntTable<C> {
    /// `len` cells of the value's default (zero).
    pub(crate) fn new(len: usize) -> Self {
        LearntTable {
            cells: (0..len).map(|_| C::new(C::Value::default())).collect(),
        }
    }

    #[inline(always)]
    pub(crate) fn cell(&self, index: usize) -> &C {
        &self.cells[index]
    }

    /// Makes the cells' values `other`'s (nothing if both are handles on one table).
    pub(crate) fn copy_from(&self, other: &Self) {
        if !self.is_shared_with(other) {
            for (to, from) in self.cells.iter().zip(other.cells.iter()) {
                to.set(from.get());
            }
        }
    }

    /// Another handle on the same cells.
    pub(crate) fn share(&self) -> Self {
        LearntTable {
            cells: Arc::clone(&self.cells),
        }
    }

    pub(crate) fn is_shared_with(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.cells, &other.cells)
    }

    /// If other handles on these cells exist, this one gets a private copy of their values.
    pub(crate) fn make_private(&mut self) {
        if Arc::strong_count(&self.cells) > 1 {
            *self = self.clone();
        }
    }

    pub(crate) fn clear(&self) {
        self.cells.iter().for_each(|cell| cell.set(C::Value::default()));
    }
}

impl<C: RelaxedCell> Clone for LearntTable<C> {
    fn clone(&self) -> Self {
        LearntTable {
            cells: self.cells.iter().map(|cell| C::new(cell.get())).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_handles_see_each_others_updates_and_private_ones_do_not() {
        let mut first = LearntTable::<AtomicI16>::new(4);
        let second = first.share();
        second.cell(1).set(7);
        assert_eq!(first.cell(1).get(), 7);
        assert!(first.is_shared_with(&second));
        let copy = first.clone();
        assert!(!copy.is_shared_with(&first));
        copy.cell(2).set(3);
        assert_eq!(first.cell(2).get(), 0);
        first.make_private();
        first.cell(1).set(9);
        assert_eq!(second.cell(1).get(), 7, "a table made private learns alone");
        let alone = LearntTable::<AtomicI32>::new(2);
        let cells = Arc::as_ptr(&alone.cells);
        let mut alone = alone;
        alone.make_private();
        assert_eq!(
            Arc::as_ptr(&alone.cells),
            cells,
            "an unshared table is not copied"
        );
    }

    #[test]
    fn copy_from_takes_the_values_and_clear_forgets_them() {
        let source = LearntTable::<AtomicI32>::new(3);
        source.cell(0).set(-5);
        let target = LearntTable::<AtomicI32>::new(3);
        target.copy_from(&source);
        assert_eq!(target.cell(0).get(), -5);
        target.copy_from(&target.share());
        target.clear();
        assert_eq!((target.cell(0).get(), source.cell(0).get()), (0, -5));
    }

    #[test]
    fn many_threads_updating_one_table_all_land_in_it() {
        let table = LearntTable::<AtomicI32>::new(16);
        std::thread::scope(|scope| {
            for thread in 0..16 {
                let handle = table.share();
                scope.spawn(move || {
                    for step in 1..=10_000 {
                        // Each thread its own cell, and one cell everybody writes.
                        handle.cell(thread).set(step);
                        handle.cell(0).set(-1);
                    }
                });
            }
        });
        assert_eq!(table.cell(0).get(), -1);
        assert!((1..16).all(|thread| table.cell(thread).get() == 10_000));
    }
}
