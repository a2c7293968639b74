"""The serial-tree comparison of `eldest bench --set long 20 --hash 64 --json --serial-tree` runs, summed over
the positions: main-search nodes against the serial search's, split into nodes at the serial tree's positions
and the rest; distinct positions; visits per position; the share of the serial tree's positions reached, in all
and by band of remaining depth; and per position the median (range) of the share reached.
Usage: python3 summary.py NAME.jsonl ..."""
import json, math, statistics, sys

BANDS = ["1-2", "3-5", "6-9", "10-14", "15+"]
print("| run | main x | in it x | outside x | distinct x | visits a position (serial) | serial reached | "
      + " | ".join(f"reached at {b}" for b in BANDS) + " | per position reached, median (range) |")
print("|---" * (8 + len(BANDS)) + "|")
for path in sys.argv[1:]:
    rows = [json.loads(line) for line in open(path) if line.startswith("{")]
    sums = {k: [0] * 5 for k in ["serial_main_nodes_by_depth", "serial_distinct_by_depth", "distinct_by_depth",
                                  "in_serial_by_depth", "in_serial_distinct_by_depth", "main"]}
    reached = []
    for r in rows:
        st = r["serial_tree"]
        for k in sums:
            values = r["main_nodes_by_depth"] if k == "main" else st[k]
            sums[k] = [a + b for a, b in zip(sums[k], values)]
        reached.append(sum(st["in_serial_distinct_by_depth"]) / max(1, sum(st["serial_distinct_by_depth"])))
    t = {k: sum(v) for k, v in sums.items()}
    sm = t["serial_main_nodes_by_depth"]
    cells = [
        f"{t['main'] / sm:.3f}", f"{t['in_serial_by_depth'] / sm:.3f}",
        f"{(t['main'] - t['in_serial_by_depth']) / sm:.3f}",
        f"{t['distinct_by_depth'] / t['serial_distinct_by_depth']:.3f}",
        f"{t['main'] / t['distinct_by_depth']:.2f} ({sm / t['serial_distinct_by_depth']:.2f})",
        f"{100 * t['in_serial_distinct_by_depth'] / t['serial_distinct_by_depth']:.1f}%",
    ] + [f"{100 * a / b:.0f}%" if b else "-"  # a band the serial search never reached has no share
         for a, b in zip(sums["in_serial_distinct_by_depth"], sums["serial_distinct_by_depth"])]
    cells.append(f"{100 * statistics.median(reached):.1f}% ({100 * min(reached):.1f}-{100 * max(reached):.1f}%)")
    print(f"| {path.rsplit('/', 1)[-1].removesuffix('.jsonl')} | " + " | ".join(cells) + " |")
