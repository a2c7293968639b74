//! Statistics shared by the measuring commands: summaries of repeated timings for `cargo xtask bench`
//! (medians, spreads, geometric means, speedups, noise verdicts) and game statistics for `cargo xtask match`
//! (Elo, confidence intervals, SPRT). Pure arithmetic on numbers, unit-tested on fixed values.

pub mod elo;
pub mod sprt;
pub mod summary;
