#!/usr/bin/env bash
# ThreadSanitizer (nightly, -Zsanitizer=thread, with the standard library rebuilt instrumented) over the tests that
# run threads: the TT's stress tests (stores, probes and ABDADA's nproc counters from many threads), and the
# parallel search's tests (all four algorithms at 2-8 threads, the YBWC pool, the shared tables). Any data race
# or lock-order inversion it reports fails the run (halt_on_error). Not in CI (about 15 minutes on 2 cores);
# run before a change to the parallel code lands. Results: docs/robustness.md.
#
#   tools/tsan.sh            # everything above
#   tools/tsan.sh -p eldest-tt --tests   # any cargo test selection instead
set -euo pipefail
cd "$(dirname "$0")/.."

rustup component add --toolchain nightly rust-src >/dev/null
host=$(rustc +nightly -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Zsanitizer=thread"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
# Property tests: fewer cases, the sanitizer makes each about ten times slower.
export PROPTEST_CASES="${PROPTEST_CASES:-16}"

run() {
    echo "== ThreadSanitizer: cargo test $*"
    local started=$SECONDS
    cargo +nightly test -Zbuild-std --target "$host" --target-dir target/tsan "$@"
    echo "   ($((SECONDS - started)) s)"
}

if [ $# -gt 0 ]; then
    run "$@"
else
    run -p eldest-tt --lib --tests
    run -p eldest-search --lib --test parallel
fi
