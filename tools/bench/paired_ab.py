#!/usr/bin/env python3
"""Compare two settings of one parallel search position by position, from interleaved `eldest bench` runs.

A change's effect on a parallel search hides in the position-to-position scatter of its trees (node counts of one
position differ by tens of percent between runs and table sizes: docs/parallel-search.md, *The baseline's luck*).
Run the two settings alternately, round by round, on the same positions, and this script pairs them per position:

    for each group (a table size): per position the mean over its rounds of log(B) - mean of log(A)
    per position: the groups' differences weighted by their rounds
    the effect:   exp(mean over positions), with a 95% interval from their spread (normal approximation)

for the nodes and the time. Each group is a folder of `a-N.jsonl` / `b-N.jsonl` pairs, the output of
`eldest bench --json` for setting A and setting B in round N; only rounds with both files and every position count.

    for h in 64 128; do for r in 1 2 3; do
        eldest bench --set long --threads 2 --algorithm ybwc --hash $h --json --window-updates false 22 > hash-$h/a-$r.jsonl
        eldest bench --set long --threads 2 --algorithm ybwc --hash $h --json --window-updates true 22 > hash-$h/b-$r.jsonl
    done; done
    python3 tools/bench/paired_ab.py hash-64 hash-128

Files may be gzipped (`.jsonl.gz`). Only the standard library is needed. Used on 2026-12-06 (docs/parallel-search.md,
*Window updates at YBWC's split points*).
"""

import argparse
import gzip
import json
import math
import re
import statistics
import sys
from pathlib import Path


def read_run(path):
    """The per-position objects of one `eldest bench --json` output (the final summary line is skipped)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as lines:
        runs = [json.loads(line) for line in lines if line.startswith("{")]
    for position in runs:
        if not {"index", "nodes", "time_us"} <= position.keys():
            raise ValueError(f"{path}: not an `eldest bench --json` position: {position}")
    return {position["index"]: position for position in runs}


def rounds_of(folder):
    """The (A, B) runs of one group folder, paired by round number."""
    found = {}
    for path in folder.iterdir():
        match = re.fullmatch(r"([ab])-(\d+)\.jsonl(\.gz)?", path.name)
        if match:
            found.setdefault(int(match[2]), {})[match[1]] = path
    pairs = [(found[n]["a"], found[n]["b"]) for n in sorted(found) if len(found[n]) == 2]
    if not pairs:
        raise ValueError(f"{folder}: no round with both a-N.jsonl and b-N.jsonl")
    return [(read_run(a), read_run(b)) for a, b in pairs]


def effect(groups, key):
    """Per position, B against A in the logarithm, over every group; the mean and its 95% interval."""
    positions = set.intersection(*(set(run) for rounds in groups for pair in rounds for run in pair))
    if len(positions) < 3:
        raise ValueError("fewer than three positions are in every run")
    per_position = []
    for index in sorted(positions):
        weighted, weight = 0.0, 0
        for rounds in groups:
            log_a = statistics.mean(math.log(max(a[index][key], 1)) for a, _ in rounds)
            log_b = statistics.mean(math.log(max(b[index][key], 1)) for _, b in rounds)
            weighted += (log_b - log_a) * len(rounds)
            weight += len(rounds)
        per_position.append(weighted / weight)
    mean = statistics.mean(per_position)
    half = 1.96 * statistics.stdev(per_position) / math.sqrt(len(per_position))
    return len(positions), math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="+", type=Path, help="folders of a-N.jsonl / b-N.jsonl pairs, one per table size")
    args = parser.parse_args()
    try:
        groups = [rounds_of(folder) for folder in args.groups]
        for folder, rounds in zip(args.groups, groups):
            totals = [
                (sum(p["nodes"] for p in a.values()) / 1e6, sum(p["nodes"] for p in b.values()) / 1e6)
                for a, b in rounds
            ]
            shown = ", ".join(f"{a:.1f} / {b:.1f}" for a, b in totals)
            print(f"{folder}: {len(rounds)} rounds, M nodes A / B: {shown}")
        for key, name in (("time_us", "time"), ("nodes", "nodes")):
            count, ratio, low, high = effect(groups, key)
            print(f"{name}: B / A {ratio:.3f} (95% {low:.3f}-{high:.3f}) over {count} positions")
    except (OSError, ValueError) as error:
        sys.exit(f"paired_ab.py: {error}")


if __name__ == "__main__":
    main()
