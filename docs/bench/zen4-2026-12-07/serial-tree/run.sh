# The serial-tree comparison of 2026-12-07 (night), from the repository root with a release build.
# Each run writes NAME.jsonl (one object per position) and NAME.txt (the stderr lines); summary.py sums them.
E=${E:-target/release/eldest}
OUT=${OUT:-docs/bench/zen4-2026-12-07/serial-tree}
run() { name=$1; shift; echo "$(date -u +%H:%M:%S) start $name" >> "$OUT/times.txt"; "$E" bench --set long 20 --hash 64 --json --serial-tree "$@" > "$OUT/$name.jsonl" 2> "$OUT/$name-terminal.txt"; echo "$(date -u +%H:%M:%S) end $name" >> "$OUT/times.txt"; }
run ybwc --threads 2 --algorithm ybwc
run abdada --threads 2 --algorithm abdada
run simplified --threads 2 --algorithm simplified-abdada
run serial-32 --threads 1 --serial-hash 32
run serial-128 --threads 1 --serial-hash 128
run lazy --threads 2 --algorithm lazy
echo finished >> "$OUT/times.txt"
python3 "$OUT/summary.py" "$OUT"/{ybwc,abdada,simplified,lazy,serial-32,serial-128}.jsonl > "$OUT/summary.md"
