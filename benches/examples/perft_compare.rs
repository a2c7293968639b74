//! Side-by-side bulk-counting perft of eldest-board, cozy-chess and shakmaty in one process, interleaved, with
//! medians: `cargo run --release -p eldest-benches --example perft_compare [rounds]`. The criterion bench
//! `perft` is the reference measurement; this is the quick loop for optimising.
use eldest_benches::{PERFT_CASES, cozy_perft, eldest_perft, shakmaty_perft};
use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|r| r.parse().ok()).unwrap_or(5);
    for case in PERFT_CASES {
        let mut times: [Vec<f64>; 3] = Default::default();
        for _ in 0..rounds {
            for (i, run) in [eldest_perft, cozy_perft, shakmaty_perft].iter().enumerate() {
                let start = Instant::now();
                let nodes = run(case.fen, case.depth);
                times[i].push(start.elapsed().as_secs_f64());
                assert_eq!(nodes, case.nodes, "{} depth {}", case.name, case.depth);
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let mnps: Vec<f64> = times
            .iter_mut()
            .map(|t| case.nodes as f64 / median(t) / 1e6)
            .collect();
        println!(
            "{:<10} d{}  eldest {:6.1}  cozy-chess {:6.1}  shakmaty {:6.1} Mnps  (eldest/cozy {:.2}, eldest/shakmaty {:.2})",
            case.name,
            case.depth,
            mnps[0],
            mnps[1],
            mnps[2],
            mnps[0] / mnps[1],
            mnps[0] / mnps[2]
        );
    }
}
