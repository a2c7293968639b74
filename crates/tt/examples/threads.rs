//! `cargo run --release -p eldest-tt --example threads [threads]`: several threads share one table by
//! reference, each storing results for its own keys and probing the others'; then classic ABDADA's `nproc`
//! counters tell a thread which nodes another thread is searching at that moment.

use eldest_tt::{Bound, ProbeOutcome, Record, TranspositionTable, probe_cutoff};
use std::process::ExitCode;

/// Keys that look like Zobrist keys (well mixed) for the example's nodes.
fn key(thread: u64, node: u64) -> u64 {
    (thread << 32 | node).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
}

fn main() -> ExitCode {
    let threads: u64 = match std::env::args().nth(1).map(|arg| arg.parse()) {
        None => 4,
        Some(Ok(threads)) if (1..=64).contains(&threads) => threads,
        Some(_) => {
            eprintln!("usage: threads [THREADS]   (THREADS from 1 to 64, default 4)");
            return ExitCode::FAILURE;
        }
    };
    let table = match TranspositionTable::new(16) {
        Ok(table) => table,
        Err(error) => {
            eprintln!("cannot allocate the table: {error}");
            return ExitCode::FAILURE;
        }
    };
    table.new_search();
    let nodes_per_thread = 10_000;

    // Each thread stores an exact score of depth 6 for its own nodes.
    std::thread::scope(|scope| {
        for thread in 0..threads {
            let table = &table;
            scope.spawn(move || {
                for node in 0..nodes_per_thread {
                    let record = Record {
                        best_move: (node % 4096) as u16 + 1,
                        score: (node % 200) as i32 - 100,
                        static_eval: Some(0),
                        depth: 6,
                        bound: Bound::EXACT,
                    };
                    table.store(key(thread, node), 2, record);
                }
            });
        }
    });

    // Every thread now finds what the others stored: a cutoff for any search of depth 6 or less.
    let found: u64 = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|thread| {
                let table = &table;
                scope.spawn(move || {
                    let other = (thread + 1) % threads;
                    (0..nodes_per_thread)
                        .filter(|&node| {
                            let entry = table.probe(key(other, node));
                            matches!(probe_cutoff(entry, 6, -1000, 1000, 2), ProbeOutcome::Cutoff(_))
                        })
                        .count() as u64
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap_or(0)).sum()
    });
    let stored = threads * nodes_per_thread;
    println!("{threads} threads stored {stored} results; probes by other threads cut off {found} of them");
    println!(
        "table: {} entries, hashfull {} per mille",
        table.capacity(),
        table.hashfull()
    );

    // ABDADA: a thread inside a node makes it busy for the others until its guard is dropped.
    let node = key(0, 0);
    let guard = table.enter_guard(node, 6);
    println!(
        "while one thread searches the node: busy = {}, nproc = {}",
        table.busy(node),
        table.nproc(node)
    );
    drop(guard);
    println!(
        "after it leaves:                     busy = {}, nproc = {}",
        table.busy(node),
        table.nproc(node)
    );
    ExitCode::SUCCESS
}
