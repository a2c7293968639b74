# The serial-tree comparison on the game set (tables kept from move to move), depth 20, 64 MiB, 2026-12-07 (night).
# From the repository root with a release build; summary.py is the long set's (../serial-tree/summary.py).
E=${E:-target/release/eldest}
OUT=${OUT:-docs/bench/zen4-2026-12-07/serial-tree-game}
run() { name=$1; shift; echo "$(date -u +%H:%M:%S) start $name" >> "$OUT/times.txt"; "$E" bench --set game 20 --hash 64 --json --serial-tree "$@" > "$OUT/$name.jsonl" 2> "$OUT/$name-terminal.txt"; echo "$(date -u +%H:%M:%S) end $name" >> "$OUT/times.txt"; }
run ybwc --threads 2 --algorithm ybwc
run abdada --threads 2 --algorithm abdada
run simplified --threads 2 --algorithm simplified-abdada
run serial-32 --threads 1 --serial-hash 32
run serial-128 --threads 1 --serial-hash 128
echo finished >> "$OUT/times.txt"
python3 "$OUT/../serial-tree/summary.py" "$OUT"/{ybwc,abdada,simplified,serial-32,serial-128}.jsonl > "$OUT/summary.md"
