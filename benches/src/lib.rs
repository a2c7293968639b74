//! Criterion benchmarks of the Eldest crates live in `benches/benches/`.
