#!/usr/bin/env bash
# Miri (nightly) over the low crates' tests and the tables the search threads share: the TT with its `nproc`
# counters, and simplified ABDADA's `currently_searching` (array and dashmap). Tests that would take hours in
# the interpreter scale down under `cfg!(miri)` (fewer rounds, same threads) or are skipped with
# `cfg_attr(miri, ignore)`; see docs/robustness.md. CI runs this script.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup component add --toolchain nightly miri rust-src >/dev/null
cargo +nightly miri setup >/dev/null 2>&1 || cargo +nightly miri setup

# Property tests: a handful of cases each (Miri runs them about 1000x slower).
export PROPTEST_CASES=4
# Many-seeds would multiply the time: one seed, but every thread interleaving Miri's scheduler picks.
export MIRIFLAGS="${MIRIFLAGS:-}"

run() {
    echo "== cargo miri test $*"
    local started=$SECONDS
    cargo +nightly miri test "$@"
    echo "   ($((SECONDS - started)) s)"
}

run -p eldest-hashing
run -p eldest-repetition --lib
run -p eldest-board --lib
run -p eldest-tt --lib --tests
run -p eldest-search --lib -- parallel::simplified_abdada
# The network's unsafe code: the AVX2 kernels (loads, stores, the call after detection) against the portable ones.
# Built with AVX2 enabled so that detection picks them under Miri; its own target folder keeps the flags apart.
RUSTFLAGS="-C target-feature=+avx2" CARGO_TARGET_DIR=target/miri-avx2 run -p eldest-search --lib -- nnue::simd
