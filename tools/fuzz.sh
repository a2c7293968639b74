#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ for SECONDS each (default 30), from its committed seeds (fuzz/seeds/TARGET)
# plus the corpus it grows (fuzz/corpus/TARGET, not committed). A crash stops the script with libFuzzer's
# report and leaves the input under fuzz/artifacts/TARGET/.
#
#   tools/fuzz.sh            # 30 s per target (what CI runs)
#   tools/fuzz.sh 3600       # an hour per target
#   tools/fuzz.sh 60 san     # one target
#
# Needs the nightly toolchain (installed here if missing) and cargo-fuzz (installed if missing).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${1:-30}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(uci_line uci_session fen san openings data_reader net_file)
fi

if ! rustup toolchain list | grep -q '^nightly'; then
    rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

for target in "${targets[@]}"; do
    mkdir -p "corpus/$target"
    echo "== fuzz target $target, ${seconds} s"
    # -timeout: one input may take at most 10 s (a hang is a failure); -rss_limit_mb: a leak or a runaway
    # allocation is a failure too.
    mkdir -p artifacts
    log="artifacts/$target.log"
    if ! cargo +nightly fuzz run "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
        tail -n 80 "$log"
        echo "fuzz target $target FAILED (log: fuzz/$log)"
        exit 1
    fi
    grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^Done [0-9]+ runs' "$log" || true
done
