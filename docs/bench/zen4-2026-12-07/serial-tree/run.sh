# The serial-tree comparisons of 2026-12-07 (night), from the repository root with a release build:
# SET=long (default) for serial-tree/, SET=game LAZY=no OUT=docs/bench/zen4-2026-12-07/serial-tree-game for the game set.
# Each run writes NAME.jsonl (one object per position) and NAME-terminal.txt (the stderr lines); summary.py sums them.
E=${E:-target/release/eldest}
SET=${SET:-long}
OUT=${OUT:-docs/bench/zen4-2026-12-07/serial-tree}
names=()
run() { name=$1; shift; names+=("$OUT/$name.jsonl"); echo "$(date -u +%H:%M:%S) start $name" >> "$OUT/times.txt"; "$E" bench --set "$SET" 20 --hash 64 --json --serial-tree "$@" > "$OUT/$name.jsonl" 2> "$OUT/$name-terminal.txt"; echo "$(date -u +%H:%M:%S) end $name" >> "$OUT/times.txt"; }
run ybwc --threads 2 --algorithm ybwc
run abdada --threads 2 --algorithm abdada
run simplified --threads 2 --algorithm simplified-abdada
run serial-32 --threads 1 --serial-hash 32
run serial-128 --threads 1 --serial-hash 128
if [ "${LAZY:-yes}" = yes ]; then run lazy --threads 2 --algorithm lazy; fi
echo finished >> "$OUT/times.txt"
python3 "$(dirname "$0")/summary.py" "${names[@]}" > "$OUT/summary.md"
