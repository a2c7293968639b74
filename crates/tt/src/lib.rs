//! The shared, lock-free transposition table of the Eldest chess engine.
//!
//! One table serves every search thread of every parallel algorithm Eldest compares: lazy SMP shares its
//! results through it, and classic ABDADA keeps its `nproc` counters — how many threads are inside a node —
//! in its entries. The table is a power-of-two array of 64-byte buckets (one cache line, three entries each),
//! sized in MiB, made only of atomics: `&TranspositionTable` is `Sync`, and a key check makes sure that a
//! torn or foreign entry is never returned as a hit.
//!
//! Replacement is **depth-preferred with aging**, and some entries are **protected**: a node some thread is
//! searching (`nproc > 0`) and a game-history draw pinned the micro-Max way (exact 0 at maximal depth, seed
//! 004) are never evicted by an ordinary store. [`probe_cutoff`] applies micro-Max's rules for using a hit
//! (seed 002). Mate scores travel through the table node-relative ([`score_to_tt`], [`score_from_tt`]).
//!
//! Keys are plain `u64` Zobrist keys and moves plain `u16` (0 = no move), so the crate does not depend on
//! the board. docs/tt.md gives the bit layout, the rules and the concurrency argument in full.
//!
//! ```
//! use eldest_tt::{probe_cutoff, Bound, ProbeOutcome, Record, TranspositionTable, MATE};
//!
//! let tt = TranspositionTable::new(1)?; // size in MiB (UCI `Hash`); share it by reference or Arc
//! tt.new_search();
//! let key = 0x9d39_247e_3377_6d41;
//!
//! // Entering a node (ABDADA): the guard leaves it on every exit path.
//! let guard = tt.enter_guard(key, 5);
//! assert!(tt.busy(key));
//! // ... search the node: mate in 7 plies from the root, found 3 plies from the root ...
//! tt.store(key, 3, Record { best_move: 0x0e1d, score: MATE - 7, static_eval: Some(12), depth: 5, bound: Bound::EXACT });
//! drop(guard);
//! assert!(!tt.busy(key));
//!
//! // The same position reached at ply 5 by another path: an immediate cutoff, mate now 9 plies away.
//! assert_eq!(probe_cutoff(tt.probe(key), 4, -100, 100, 5), ProbeOutcome::Cutoff(MATE - 9));
//! // Too shallow for depth 6: only the move is used, searched first.
//! assert_eq!(probe_cutoff(tt.probe(key), 6, -100, 100, 5), ProbeOutcome::MoveOnly(Some(0x0e1d)));
//! # Ok::<(), eldest_tt::TableSizeError>(())
//! ```
#![deny(unsafe_code)]
#![deny(missing_docs)]

mod bound;
mod bucket;
mod entry;
mod error;
mod nproc;
mod prefetch;
mod probe;
mod replace;
mod score;
mod table;

pub use bound::Bound;
pub use entry::{DEPTH_OFFSET, Entry, GENERATIONS, MAX_DEPTH, MIN_DEPTH, PINNED_DEPTH, Record};
pub use error::{PinError, TableSizeError};
pub use nproc::NodeGuard;
pub use probe::{ExclusiveProbe, ProbeOutcome, probe_cutoff};
pub use replace::{AGE_WEIGHT, StoreOutcome};
pub use score::{MATE, MATE_IN_MAX_PLY, MAX_PLY, is_mate_score, score_from_tt, score_to_tt};
pub use table::{BUCKET_BYTES, ENTRIES_PER_BUCKET, MAX_MIB, TranspositionTable};
