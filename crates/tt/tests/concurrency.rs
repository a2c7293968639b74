//! The concurrency proof: more threads than cores hammer one table, and no hit is ever torn or foreign, and
//! every `nproc` count returns to zero.

use std::sync::Barrier;
use std::thread;

use eldest_tt::{Bound, ExclusiveProbe, MATE_IN_MAX_PLY, Record, TranspositionTable};

/// More threads than the two cores of the development machine.
const THREADS: u64 = 8;

/// SplitMix64: reproducible pseudo-random streams, one per thread.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The result stored for `key`: every field is a function of the key, so a hit can be checked in full.
fn payload(key: u64) -> Record {
    let bits = key.rotate_left(23);
    let field = |shift: u32, modulus: u64| i32::try_from((bits >> shift) % modulus).unwrap();
    Record {
        best_move: u16::try_from(bits & 0xffff).unwrap(),
        score: field(16, 2 * 3000) - 3000,
        static_eval: (bits >> 50 & 7 != 0).then(|| field(28, 2 * 1500) - 1500),
        depth: field(40, 40) - 5,
        bound: Bound::from_bits_truncate(u8::try_from(bits >> 60).unwrap() & 0b11),
    }
}

fn key_of(index: u64) -> u64 {
    let mut state = index;
    splitmix(&mut state)
}

#[test]
fn concurrent_stores_and_probes_never_return_a_torn_or_foreign_entry() {
    let rounds: u64 = if cfg!(miri) { 150 } else { 400_000 };
    // 64 buckets (192 slots) for 4096 keys: constant eviction, and many writers on the same slots at once.
    let tt = TranspositionTable::with_buckets(64).unwrap();
    let hits: u64 = thread::scope(|scope| {
        let workers: Vec<_> = (0..THREADS)
            .map(|thread| {
                let tt = &tt;
                scope.spawn(move || {
                    let mut state = thread;
                    let mut hits = 0;
                    for round in 0..rounds {
                        if thread == 0 && round % 50_000 == 0 {
                            tt.new_search();
                        }
                        let stored = key_of(splitmix(&mut state) % 4096);
                        tt.store(stored, 0, payload(stored));
                        let probed = key_of(splitmix(&mut state) % 4096);
                        if let Some(entry) = tt.probe(probed) {
                            hits += 1;
                            let expected = payload(probed);
                            // A move of 0 may have been filled in from an earlier result of the same key,
                            // which carries the same payload: so the move always matches too.
                            assert_eq!(
                                entry.best_move().unwrap_or(0),
                                expected.best_move,
                                "key {probed:#x}"
                            );
                            assert_eq!(entry.score(0), expected.score, "key {probed:#x}");
                            assert_eq!(entry.static_eval(), expected.static_eval, "key {probed:#x}");
                            assert_eq!(entry.depth(), expected.depth, "key {probed:#x}");
                            assert_eq!(entry.bound(), expected.bound, "key {probed:#x}");
                            assert!(!entry.is_pinned());
                        }
                    }
                    hits
                })
            })
            .collect();
        workers.into_iter().map(|worker| worker.join().unwrap()).sum()
    });
    // 192 slots for 4096 keys: about one probe in twenty hits.
    assert!(hits > rounds / 10, "the probes did hit ({hits})");
    assert!(payload(1).score.abs() < MATE_IN_MAX_PLY);
}

#[test]
fn nproc_returns_to_zero_after_balanced_enter_and_leave_from_many_threads() {
    let rounds: u64 = if cfg!(miri) { 50 } else { 200_000 };
    // 16 buckets for 64 nodes, so counters of different nodes share buckets, plus stores racing the enters.
    let tt = TranspositionTable::with_buckets(16).unwrap();
    thread::scope(|scope| {
        for thread in 0..THREADS {
            let tt = &tt;
            scope.spawn(move || {
                let mut state = thread + 100;
                for _ in 0..rounds {
                    let parent = key_of(splitmix(&mut state) % 64);
                    let child = key_of(splitmix(&mut state) % 64);
                    let depth = i32::try_from(splitmix(&mut state) % 12).unwrap();
                    let outer = tt.enter_guard(parent, depth + 1);
                    if outer.is_counted() {
                        assert!(tt.busy(parent));
                    }
                    {
                        let inner = tt.enter_guard(child, depth);
                        if inner.is_counted() {
                            assert!(tt.nproc(child) >= 1);
                        }
                        tt.store(child, 1, payload(child));
                    }
                    // The raw pair, as a search without guards would use it.
                    if tt.enter(child, depth) {
                        assert!(tt.leave(child));
                    }
                    tt.store(key_of(splitmix(&mut state) % 4096), 0, payload(parent));
                    drop(outer);
                }
            });
        }
    });
    assert_eq!(tt.nproc_total(), 0);
    for index in 0..64 {
        assert!(!tt.busy(key_of(index)));
    }
}

#[test]
fn a_thread_in_a_node_makes_other_threads_exclusive_probes_wait() {
    let tt = TranspositionTable::with_buckets(8).unwrap();
    let key = key_of(7);
    let entered = Barrier::new(2);
    let probed = Barrier::new(2);
    thread::scope(|scope| {
        scope.spawn(|| {
            let _guard = tt.enter_guard(key, 6);
            entered.wait();
            probed.wait();
        });
        entered.wait();
        assert!(tt.busy(key));
        assert_eq!(
            tt.probe_exclusive(key, 6, -50, 50, 2, true),
            ExclusiveProbe::OnEvaluation
        );
        probed.wait();
    });
    assert!(!tt.busy(key));
}

#[test]
fn the_table_is_shared_by_reference() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<TranspositionTable>();
    assert_send_sync::<eldest_tt::NodeGuard<'static>>();
}
