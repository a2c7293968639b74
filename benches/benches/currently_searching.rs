//! Simplified ABDADA's `currently_searching` table: Kerrigan's atomic n-way array against a `dashmap` set.
//!
//! One iteration is what the search does for one younger brother at depth ≥ DeferDepth: ask whether the move is
//! being searched, mark it, and unmark it when its search is over (contains + starting + finished). Move hashes
//! are random stand-ins for `move_hash(key, move)`. "contended" runs a second thread doing the same on the same
//! table throughout the measurement, as a second search thread would.

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use criterion::{Criterion, criterion_group, criterion_main};
use eldest_search::{CurrentlySearching, DashCurrentlySearching, MoveMarks};

/// Random stand-ins for move hashes, never 0 (the array's empty mark).
fn hashes(seed: u64, count: usize) -> Vec<u64> {
    eldest_benches::random_keys(seed, count)
        .into_iter()
        .map(|h| h | 1)
        .collect()
}

/// One younger brother: the defer test, then mark and unmark around its (absent) search.
#[inline]
fn brother<T: MoveMarks>(table: &T, hash: u64) -> bool {
    let busy = table.contains(hash);
    if !busy {
        table.starting(hash);
        table.finished(hash);
    }
    busy
}

fn measure<T: MoveMarks + Send + Sync + 'static>(c: &mut Criterion, name: &str, table: Arc<T>) {
    let own = hashes(1, 4096);
    let mut i = 0;
    c.bench_function(&format!("currently_searching/{name}/1 thread"), |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            black_box(brother(&*table, own[i]))
        })
    });
    let stop = Arc::new(AtomicBool::new(false));
    let other = {
        let (table, stop) = (Arc::clone(&table), Arc::clone(&stop));
        std::thread::spawn(move || {
            let theirs = hashes(2, 4096);
            let mut j = 0;
            while !stop.load(Ordering::Relaxed) {
                j = (j + 1) & 4095;
                black_box(brother(&*table, theirs[j]));
            }
        })
    };
    c.bench_function(&format!("currently_searching/{name}/contended"), |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            black_box(brother(&*table, own[i]))
        })
    });
    stop.store(true, Ordering::Relaxed);
    other.join().expect("the contending thread ends");
}

fn currently_searching(c: &mut Criterion) {
    measure(c, "array", Arc::new(CurrentlySearching::new(32_768, 4)));
    measure(c, "dashmap", Arc::new(DashCurrentlySearching::new()));
}

criterion_group!(benches, currently_searching);
criterion_main!(benches);
