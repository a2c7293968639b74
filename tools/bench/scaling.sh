#!/usr/bin/env bash
# The long set at 1, 2, 4, 8 and 16 threads for all four algorithms, from prebuilt binaries, on a machine that
# has no Rust toolchain and is lent for a fixed number of seconds (issue 11, item 5).
#
# The search depth is chosen on the machine itself: a one-thread run of the set at depth 16 says how fast the
# machine is, and the script takes the deepest depth whose whole matrix (one 1-thread baseline and every
# algorithm at every other thread count, about 7 times the 1-thread time on the 2-core VM's ratios) fits the
# budget. If time is left after the first pass it runs the matrix again (a second repeat in its own folder).
# Everything lands in one archive, so a lent machine's few returned files hold it all.
#
#   cargo build --release -p eldest -p xtask        # here
#   BUDGET=500 OUT=/some/dir tools/bench/scaling.sh  # there; reads target/release/{eldest,xtask}
#
# Environment: ENGINE, XTASK (the binaries), OUT (where the archive and the log go), BUDGET (seconds for the
# whole script), THREADS (default 1,2,4,8,16), HASH (MiB, default 256), DEPTHS (the candidates, deepest last),
# EXTRA (more `xtask bench` flags, split at spaces, e.g. `--algorithms ybwc --split-group 5`), VARIANTS (knob
# values side by side: `xtask bench --variant` strings separated by `;`, e.g. `ybwc --split-group 5;ybwc
# --split-group 8` with EXTRA="--algorithms ybwc"), MATRIX_FACTOR (the matrix's time over the 1-thread run's,
# default 7 for four algorithms at 2, 4, 8 and 16 threads: raise it when VARIANTS add configurations), CEILING
# (1, the default: first run as many one-thread searches side by side as the most threads, the machine's NPS ×
# for independent work; 0 skips it).
set -u
ENGINE=${ENGINE:-target/release/eldest}
XTASK=${XTASK:-target/release/xtask}
OUT=${OUT:-target/scaling}
BUDGET=${BUDGET:-500}
THREADS=${THREADS:-1,2,4,8,16}
EXTRA=${EXTRA:-}
variant_args=()
IFS=';' read -r -a variant_list <<<"${VARIANTS:-}"
for variant in "${variant_list[@]}"; do
    [ -n "${variant// /}" ] && variant_args+=(--variant "$variant")
done
HASH=${HASH:-256}
DEPTHS=${DEPTHS:-16 17 18 19 20 21}
# One thread's time at each depth over the time at depth 16, long set, 256 MiB (2-core Intel Xeon VM, 2026-12-04,
# search of 4624133: 16.9 s, 41.3 s and 105.3 s at depths 16, 18 and 20; odd depths and 21 extrapolated
# geometrically).
declare -A RATIO=([16]=1.0 [17]=1.56 [18]=2.44 [19]=3.90 [20]=6.22 [21]=9.9)
MATRIX_FACTOR=${MATRIX_FACTOR:-7}
for candidate in $DEPTHS; do
    if [ -z "${RATIO[$candidate]:-}" ]; then
        echo "DEPTHS: no time ratio for depth '$candidate' (known: ${!RATIO[*]})" >&2
        exit 2
    fi
done

work=$(mktemp -d)
mkdir -p "$OUT"
log="$OUT/scaling.log"
{
    echo "# machine"
    lscpu
    echo "nproc: $(nproc)"
    free -g
    uptime
} >"$work/machine.txt" 2>&1
cat "$work/machine.txt" >"$log"

seconds() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
archive() { tar -C "$work" -czf "$OUT/scaling.tar.gz" . 2>>"$log"; }

begin=$(seconds)
"$ENGINE" bench --set long --hash "$HASH" 16 >"$work/calibration.txt" 2>&1 || {
    echo "the engine did not run: $(tail -3 "$work/calibration.txt")" | tee -a "$log"
    archive
    exit 1
}
t16=$(calc "$(seconds) - $begin")
echo "calibration: long set, 1 thread, depth 16: $t16 s" | tee -a "$log"

# The machine's ceiling for independent work: as many one-thread searches of the calibration's as the most threads
# measured, side by side, each its own process with an equal part of the table (so together they hold as much
# memory as one search does). Their nodes a second over the calibration's is about the NPS × no shared-memory
# search can pass here (vCPUs that are a host's hyperthreads, the shared L3 and memory bandwidth show here first);
# it costs about one calibration.
copies=$(tr ',' '\n' <<<"$THREADS" | sort -n | tail -1)
if [ "${CEILING:-1}" = 1 ] && [ "$copies" -gt 1 ]; then
    copy_hash=$((HASH / copies > 0 ? HASH / copies : 1))
    for copy in $(seq "$copies"); do
        "$ENGINE" bench --set long --hash "$copy_hash" 16 >"$work/ceiling-$copy.txt" 2>&1 &
    done
    wait
    alone=$(awk '/ nodes .* nps$/ { print $3 }' "$work/calibration.txt")
    together=$(cat "$work"/ceiling-*.txt | awk '/ nodes .* nps$/ { sum += $3; n++ } END { print sum, n }')
    echo "ceiling: $copies one-thread processes side by side ($copy_hash MiB each): $(calc "${together% *} / $alone") times one alone's nodes a second (${together#* } finished; alone $alone nps)" |
        tee -a "$log" "$work/ceiling.txt"
fi

depth=16
for candidate in $DEPTHS; do
    used=$SECONDS
    predicted=$(calc "$t16 * ${RATIO[$candidate]} * $MATRIX_FACTOR")
    if [ "$(calc "($used + $predicted < $BUDGET) ? 1 : 0")" = 1 ]; then
        depth=$candidate
    fi
done
echo "depth $depth (predicted matrix $(calc "$t16 * ${RATIO[$depth]} * $MATRIX_FACTOR") s)" | tee -a "$log"

pass=1
while :; do
    pass_begin=$SECONDS
    "$XTASK" bench --engine "$ENGINE" --set long --depth "$depth" --threads "$THREADS" --repeat 1 \
        --hash "$HASH" --out "$work/pass$pass" $EXTRA "${variant_args[@]}" 2>&1 | tr '\r' '\n' | grep -v '^\s*$' >>"$log"
    pass_seconds=$((SECONDS - pass_begin))
    echo "pass $pass: $pass_seconds s" | tee -a "$log"
    archive
    if [ ! -f "$work/pass$pass/summary.md" ]; then
        echo "pass $pass wrote no summary: see the log" | tee -a "$log"
        tail -5 "$log"
        break
    fi
    cat "$work/pass$pass/summary.md"
    pass=$((pass + 1))
    [ $((SECONDS + pass_seconds + 10)) -lt "$BUDGET" ] || break
done
echo "done in $SECONDS s" | tee -a "$log"
