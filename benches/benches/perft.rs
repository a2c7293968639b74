//! Bulk-counting perft of eldest-board beside cozy-chess and shakmaty, in one run:
//! `cargo bench -p eldest-benches --bench perft`. Every iteration asserts the published node count, so a fast
//! but wrong generator cannot look like a win. Results and the machine: docs/performance.md.
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use eldest_benches::{PERFT_CASES, cozy_perft, eldest_perft, shakmaty_perft};
use std::hint::black_box;

/// A library's perft: FEN and depth to node count.
type PerftFn = fn(&str, u32) -> u64;

fn perft(c: &mut Criterion) {
    for case in PERFT_CASES {
        let mut group = c.benchmark_group(format!("perft/{}/d{}", case.name, case.depth));
        group.throughput(Throughput::Elements(case.nodes));
        group.sample_size(20);
        let libraries: [(&str, PerftFn); 3] = [
            ("eldest-board", eldest_perft),
            ("cozy-chess", cozy_perft),
            ("shakmaty", shakmaty_perft),
        ];
        for (library, run) in libraries {
            group.bench_function(BenchmarkId::from_parameter(library), |b| {
                b.iter(|| assert_eq!(run(black_box(case.fen), black_box(case.depth)), case.nodes))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, perft);
criterion_main!(benches);
