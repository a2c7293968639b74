#!/usr/bin/env python3
"""Tell the one-thread baseline's luck from the parallel searches' overhead, position by position.

`cargo xtask bench` measures time to depth against one one-thread search per position and table size. That
search is deterministic, so its repeats re-time one tree: a position's baseline is a single draw of the serial
search's luck (docs/bench.md, *Several table sizes*). This script reads bench.json(.gz) files grouped by table
size and prints, from node counts (which the machine's load does not change):

    per size    each position's one-thread nodes and each algorithm's two-thread node ratio (the geometric mean
                over that size's runs against the size's one-thread search), the totals, and how alike the
                algorithms' per-position overheads are (correlation of their logarithms);
    across      how alike a position's tree is from one table size to another, for the one-thread search (one
                draw a size) and for each algorithm's two threads (the mean over its runs), and how each size's
                per-position overhead follows the baseline's luck there: its one-thread nodes against the
                geometric mean of the other sizes' (correlation of the logarithms).

    python3 tools/bench/baseline_luck.py \\
        --size 32 docs/bench/zen4-2026-12-06/long24-hash32-128/hash-32/bench.json.gz \\
        --size 64 docs/bench/zen4-2026-12-05/long24-r5/bench.json.gz docs/bench/zen4-2026-12-06/long24-r3c/bench.json.gz \\
        --size 128 docs/bench/zen4-2026-12-06/long24-hash32-128/hash-128/bench.json.gz

The files of one size must search the same positions to the same depth; only the standard library is needed.
Used on 2026-12-06 (docs/parallel-search.md, *The long and game sets over several table sizes*).
"""

import argparse
import gzip
import itertools
import json
import math
import statistics
import sys
from collections import defaultdict


def load(paths):
    """One size's runs: the one-thread node counts and each algorithm's two-thread counts, per position."""
    one = defaultdict(list)
    two = defaultdict(lambda: defaultdict(list))
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        try:
            with opener(path, "rt") as file:
                report = json.load(file)
        except (OSError, ValueError) as error:
            sys.exit(f"cannot read {path}: {error}")
        if not isinstance(report, dict) or "runs" not in report:
            sys.exit(f"{path} is not a bench.json of cargo xtask bench (no runs)")
        for run in report["runs"]:
            for position in run["positions"]:
                if run["threads"] == 1:
                    one[position["index"]].append(position["nodes"])
                elif run["threads"] == 2:
                    two[run["algorithm"]][position["index"]].append(position["nodes"])
    if not one:
        sys.exit(f"no one-thread run in {', '.join(paths)}")
    return one, two


def geometric_mean(values):
    return math.exp(statistics.fmean(math.log(value) for value in values))


def correlation(xs, ys):
    return statistics.correlation(xs, ys) if len(xs) > 2 else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--size",
        nargs="+",
        action="append",
        required=True,
        metavar=("MIB", "BENCH_JSON"),
        help="a table size and the bench.json(.gz) files measured at it (repeat per size)",
    )
    args = parser.parse_args()
    sizes = {}
    for group in args.size:
        if len(group) < 2:
            parser.error("--size takes a size and at least one bench.json file")
        if group[0] in sizes:
            parser.error(f"--size {group[0]} given twice: list all its files after one --size")
        sizes[group[0]] = load(group[1:])

    algorithms = sorted(set.intersection(*(set(two) for _, two in sizes.values())))
    if not algorithms:
        sys.exit("no algorithm has two-thread runs at every size")
    # The positions every size measured with one thread and with every algorithm's two threads.
    positions = sorted(
        set.intersection(
            *(
                {i for i in one if all(two[a][i] for a in algorithms)}
                for one, two in sizes.values()
            )
        )
    )
    if len(positions) < 3:
        sys.exit(f"{len(positions)} positions measured at every size: too few to correlate")
    # One-thread draw per size and position (the median of its re-timings: the same tree), and the two threads'
    # geometric mean over the runs.
    baseline = {size: {i: statistics.median(one[i]) for i in positions} for size, (one, _) in sizes.items()}
    parallel = {
        size: {a: {i: geometric_mean(two[a][i]) for i in positions} for a in algorithms}
        for size, (_, two) in sizes.items()
    }

    for size in sizes:
        print(f"== {size} MiB: one-thread M nodes and two threads' node ratio per position")
        print("pos  1-thread  " + "  ".join(f"{a[:10]:>10}" for a in algorithms))
        logs = {a: [] for a in algorithms}
        for i in positions:
            ratios = [parallel[size][a][i] / baseline[size][i] for a in algorithms]
            for a, ratio in zip(algorithms, ratios):
                logs[a].append(math.log(ratio))
            print(f"{i:3d}  {baseline[size][i] / 1e6:8.1f}  " + "  ".join(f"{r:10.2f}" for r in ratios))
        total_one = sum(baseline[size].values()) / 1e6
        totals = "  ".join(f"{a} {sum(parallel[size][a].values()) / 1e6:.0f}" for a in algorithms)
        print(f"total M nodes: one thread {total_one:.0f}; two threads {totals}")
        for a in algorithms:
            print(f"{a}: node overhead {math.exp(statistics.fmean(logs[a])):.3f} (sd of log {statistics.stdev(logs[a]):.2f})")
        for a, b in itertools.combinations(algorithms, 2):
            print(f"per-position overhead, {a} against {b}: correlation {correlation(logs[a], logs[b]):.2f}")

    if len(sizes) > 1:
        print("== across sizes: correlation of a position's log nodes")
        for s, t in itertools.combinations(sizes, 2):
            row = [f"one thread {correlation([math.log(baseline[s][i]) for i in positions], [math.log(baseline[t][i]) for i in positions]):.2f}"]
            for a in algorithms:
                xs = [math.log(parallel[s][a][i]) for i in positions]
                ys = [math.log(parallel[t][a][i]) for i in positions]
                row.append(f"{a} {correlation(xs, ys):.2f}")
            print(f"{s} and {t} MiB: " + ", ".join(row))
        print("== the overhead against the baseline's luck (one-thread nodes against the other sizes' geometric mean)")
        for size in sizes:
            others = [other for other in sizes if other != size]
            luck = [
                math.log(baseline[size][i]) - statistics.fmean(math.log(baseline[o][i]) for o in others)
                for i in positions
            ]
            overhead = [
                statistics.fmean(math.log(parallel[size][a][i] / baseline[size][i]) for a in algorithms)
                for i in positions
            ]
            print(
                f"{size} MiB: correlation {correlation(luck, overhead):.2f}, "
                f"sd of the log luck {statistics.stdev(luck):.2f}"
            )


if __name__ == "__main__":
    main()
