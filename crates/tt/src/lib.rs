#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]
#![deny(missing_docs)]

mod bound;
mod bucket;
mod counters;
mod entry;
mod error;
mod huge_pages;
mod nproc;
mod prefetch;
mod probe;
mod replace;
mod score;
mod table;

pub use bound::Bound;
pub use counters::NodeCounters;
pub use entry::{DEPTH_OFFSET, Entry, GENERATIONS, MAX_DEPTH, MIN_DEPTH, PINNED_DEPTH, Record};
pub use error::{PinError, TableSizeError};
pub use nproc::NodeGuard;
pub use probe::{ExclusiveProbe, ProbeOutcome, probe_cutoff};
pub use replace::{AGE_WEIGHT, StoreOutcome};
pub use score::{MATE, MATE_IN_MAX_PLY, MAX_PLY, is_mate_score, score_from_tt, score_to_tt};
pub use table::{BUCKET_BYTES, ENTRIES_PER_BUCKET, MAX_MIB, TranspositionTable};
