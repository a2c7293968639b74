//! The shared transposition table of eldest-tt on a 256 MiB table: probe, store, a node's probe-then-store, at
//! 1 and 2 threads, plus ABDADA's enter/leave and the prefetch hint. Run with
//! `cargo bench -p eldest-benches --bench tt`; figures and the machine: docs/tt.md.
//!
//! Keys are random over the whole table, so most operations miss the cache, as in a real search on a large
//! table. With `T` threads, one iteration is one operation on each thread (throughput = `T` elements), so the
//! time per operation of the table as a whole is the iteration time divided by `T`.
use std::hint::black_box;
use std::thread;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use eldest_tt::{Bound, Record, TranspositionTable};

const TABLE_MIB: usize = 256;
/// A power of two, so that a stream index wraps with a mask; 1 Mi keys of 8 bytes overflow the L2 cache too.
const KEYS: usize = 1 << 20;
const THREAD_COUNTS: [u64; 2] = [1, 2];

/// One benchmarked operation: given a thread's key stream and the iteration index.
type Operation<'a> = &'a (dyn Fn(&[u64], usize) + Sync);

/// SplitMix64: reproducible keys.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn keys(seed: u64) -> Vec<u64> {
    let mut state = seed;
    (0..KEYS).map(|_| splitmix(&mut state)).collect()
}

fn record(key: u64) -> Record {
    // The key's low bits choose the bucket; the high bits vary the payload cheaply.
    Record {
        best_move: (key >> 48) as u16 | 1,
        score: 17,
        static_eval: Some(9),
        depth: (key >> 60) as i32,
        bound: Bound::LOWER,
    }
}

/// Runs `operation` `iterations` times on each of `threads` threads, each over its own key stream, and returns
/// the wall time of the slowest.
fn run_threads(
    threads: u64,
    iterations: u64,
    streams: &[Vec<u64>],
    operation: &(impl Fn(&[u64], usize) + Sync),
) -> Duration {
    let start = Instant::now();
    thread::scope(|scope| {
        for stream in streams.iter().take(threads as usize) {
            scope.spawn(move || {
                for index in 0..iterations as usize {
                    operation(stream, index);
                }
            });
        }
    });
    start.elapsed()
}

fn table_operations(c: &mut Criterion) {
    let tt = TranspositionTable::new(TABLE_MIB).expect("256 MiB");
    let streams: Vec<Vec<u64>> = (0..2).map(keys).collect();
    // Half the table's keys present: stores of the first stream, so probes meet hits and misses alike.
    for &key in &streams[0] {
        tt.store(key, 0, record(key));
    }
    let at = |stream: &[u64], index: usize| stream[index & (KEYS - 1)];

    let probe = |stream: &[u64], index: usize| {
        black_box(tt.probe(at(stream, index)));
    };
    let store = |stream: &[u64], index: usize| {
        let key = at(stream, index);
        black_box(tt.store(key, 0, record(key)));
    };
    let node = |stream: &[u64], index: usize| {
        let key = at(stream, index);
        black_box(tt.probe(key));
        black_box(tt.store(key, 0, record(key)));
    };
    let enter_leave = |stream: &[u64], index: usize| {
        let guard = tt.enter_guard(at(stream, index), 6);
        black_box(&guard);
    };
    let enter_leave_same_node = |_: &[u64], _: usize| {
        let guard = tt.enter_guard(0x0e1d_e57c_4e55_2026, 6);
        black_box(&guard);
    };

    let cases: [(&str, Operation); 5] = [
        ("probe", &probe),
        ("store", &store),
        ("probe+store", &node),
        ("enter+leave", &enter_leave),
        ("enter+leave/same-node", &enter_leave_same_node),
    ];
    for (name, operation) in cases {
        let mut group = c.benchmark_group(format!("tt-256MiB/{name}"));
        for threads in THREAD_COUNTS {
            group.throughput(Throughput::Elements(threads));
            group.bench_function(BenchmarkId::new("threads", threads), |b| {
                b.iter_custom(|iterations| run_threads(threads, iterations, &streams, &operation))
            });
        }
        group.finish();
    }

    // Prefetching 8 keys ahead against probing cold and against touching the bucket with a discarded probe.
    let mut group = c.benchmark_group("tt-256MiB/probe-ahead");
    group.throughput(Throughput::Elements(1));
    let stream = &streams[1];
    let mut index = 0usize;
    group.bench_function("none", |b| {
        b.iter(|| {
            index = index.wrapping_add(1);
            black_box(tt.probe(at(stream, index)))
        })
    });
    group.bench_function("prefetch", |b| {
        b.iter(|| {
            index = index.wrapping_add(1);
            tt.prefetch(at(stream, index + 8));
            black_box(tt.probe(at(stream, index)))
        })
    });
    group.bench_function("touch", |b| {
        b.iter(|| {
            index = index.wrapping_add(1);
            black_box(tt.probe(at(stream, index + 8)).is_some());
            black_box(tt.probe(at(stream, index)))
        })
    });
    group.finish();
}

criterion_group!(benches, table_operations);
criterion_main!(benches);
